import CDNSSD

/// Watches the LAN for `_tictactoe._tcp` games and keeps `games` up to date: browse, then for each game a
/// resolve (host, port, TXT; kept open, so TXT changes arrive) and A/AAAA queries for its host's addresses.
///
/// Event loop: poll every fd in `descriptors` for input (the list changes as games come and go: read it again
/// before each poll), then call `process(readable:)` with the readable ones. Nothing here blocks except
/// `waitForEvents(timeout:)`.
public final class Browser {
  /// The games seen, sorted by instance name, then interface.
  public var games: [DiscoveredGame] {
    tracked.values.map(\.game).sorted { ($0.id.name, $0.id.interfaceIndex) < ($1.id.name, $1.id.interfaceIndex) }
  }

  /// Why browsing stopped, once it has.
  public private(set) var failure: DiscoveryError?

  private var browse: DNSServiceOperation<BrowseReply>
  private var tracked: [ServiceID: TrackedGame] = [:]

  /// Starts browsing. Throws at once when the daemon is missing (`DiscoveryError.Kind.daemonUnavailable`).
  public init() throws(DiscoveryError) {
    browse = try DNSServiceOperation(.browsing) { ref, context in
      DNSServiceBrowse(ref, 0, 0, ServiceType.tictactoe, nil, Browser.browseCallback, context)
    }
  }

  /// The browse descriptor alone; nil once browsing stopped.
  public var descriptor: Int32? { browse.descriptor }

  /// Every descriptor to poll for input: the browse, then each game's resolve and address queries.
  public var descriptors: [Int32] {
    var all: [Int32] = []
    if let descriptor = browse.descriptor { all.append(descriptor) }
    for game in tracked.values {
      if let descriptor = game.resolve?.descriptor { all.append(descriptor) }
      all.append(contentsOf: game.queries.compactMap(\.descriptor))
    }
    return all
  }

  /// True until browsing stopped (cancelled or failed).
  public var isActive: Bool { browse.isActive }

  /// Handles the readable descriptors (those in `descriptors` that poll() reported; others are ignored).
  public func process(readable: Set<Int32>) -> [BrowserEvent] {
    // Decide what is due before handling anything: handling closes some descriptors and opens others, and a
    // new one can reuse a number in `readable` without being readable itself (processing it would block).
    let dueResolves = tracked.values.compactMap { game -> (ServiceID, DNSServiceOperation<ResolveReply>)? in
      guard let resolve = game.resolve, let descriptor = resolve.descriptor, readable.contains(descriptor) else {
        return nil
      }
      return (game.game.id, resolve)
    }
    let dueQueries = tracked.values.flatMap { game in
      game.queries.compactMap { query -> (ServiceID, DNSServiceOperation<QueryReply>)? in
        guard let descriptor = query.descriptor, readable.contains(descriptor) else { return nil }
        return (game.game.id, query)
      }
    }
    var events: [BrowserEvent] = []
    if let descriptor = browse.descriptor, readable.contains(descriptor) {
      events += processBrowse()
    }
    for (id, resolve) in dueResolves where resolve.isActive {
      events += processResolve(of: id, resolve)
    }
    for (id, query) in dueQueries where query.isActive {
      events += processQuery(of: id, query)
    }
    return events
  }

  /// Handles the browse descriptor alone (call when `descriptor` is readable).
  public func process() -> [BrowserEvent] {
    guard let descriptor else { return [] }
    return process(readable: [descriptor])
  }

  /// Stops browsing and every resolve and query; idempotent. `games` becomes empty.
  public func cancel() {
    browse.cancel()
    for game in tracked.values { game.cancel() }
    tracked = [:]
  }

  deinit {
    cancel()
  }

  // MARK: - Browse

  private func processBrowse() -> [BrowserEvent] {
    let code = browse.process()
    var events: [BrowserEvent] = []
    for reply in browse.takeReplies() {
      guard reply.error == kDNSServiceErr_NoError else {
        return events + fail(DiscoveryError(number: reply.error, operation: .browsing))
      }
      guard let name = reply.name, let type = reply.type, let domain = reply.domain else { continue }
      let id = ServiceID(name: name, type: type, domain: domain, interfaceIndex: reply.interfaceIndex)
      if reply.flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
        events += add(id)
      } else {
        events += remove(id)
      }
    }
    if code != kDNSServiceErr_NoError {
      events += fail(DiscoveryError(number: code, operation: .browsing))
    }
    return events
  }

  /// A service can be announced more than once on one interface (over IPv4 and IPv6): count the sightings.
  private func add(_ id: ServiceID) -> [BrowserEvent] {
    if let game = tracked[id] {
      game.sightings += 1
      return []
    }
    let game = TrackedGame(id: id)
    tracked[id] = game
    do {
      game.resolve = try DNSServiceOperation(.resolving) { ref, context in
        DNSServiceResolve(ref, 0, id.interfaceIndex, id.name, id.type, id.domain, Browser.resolveCallback, context)
      }
    } catch {
      game.game.resolveError = error
    }
    return [.appeared(id)]
  }

  private func remove(_ id: ServiceID) -> [BrowserEvent] {
    guard let game = tracked[id] else { return [] }
    game.sightings -= 1
    guard game.sightings <= 0 else { return [] }
    game.cancel()
    tracked[id] = nil
    return [.disappeared(id)]
  }

  private func fail(_ error: DiscoveryError) -> [BrowserEvent] {
    guard failure == nil else { return [] }
    failure = error
    let gone = games.map { BrowserEvent.disappeared($0.id) }
    cancel()
    return gone + [.failed(error)]
  }

  // MARK: - Resolve

  private func processResolve(of id: ServiceID, _ resolve: DNSServiceOperation<ResolveReply>) -> [BrowserEvent] {
    let code = resolve.process()
    guard let game = tracked[id] else { return [] }
    let before = game.game
    for reply in resolve.takeReplies() {
      guard reply.error == kDNSServiceErr_NoError else {
        game.game.resolveError = DiscoveryError(number: reply.error, operation: .resolving)
        resolve.cancel()
        break
      }
      game.game.port = reply.port
      game.game.txt = ServiceTXT(decoding: reply.txt)
      game.game.resolveError = nil
      if let host = reply.hostName, host != game.game.hostName {
        game.game.hostName = host
        startQueries(for: game, host: host, interfaceIndex: reply.interfaceIndex)
      }
    }
    if code != kDNSServiceErr_NoError, resolve.isActive {
      game.game.resolveError = DiscoveryError(number: code, operation: .resolving)
      resolve.cancel()
    }
    return game.game == before ? [] : [.updated(id)]
  }

  /// Asks for the host's IPv4 and IPv6 addresses; replaces earlier queries (the host name changed).
  private func startQueries(for game: TrackedGame, host: String, interfaceIndex: UInt32) {
    for query in game.queries { query.cancel() }
    game.queries = []
    game.game.addresses = []
    for type in [kDNSServiceType_A, kDNSServiceType_AAAA] {
      let query = try? DNSServiceOperation<QueryReply>(.querying) { ref, context in
        DNSServiceQueryRecord(
          ref, 0, interfaceIndex, host, UInt16(type), UInt16(kDNSServiceClass_IN), Browser.queryCallback, context)
      }
      if let query { game.queries.append(query) }
    }
  }

  // MARK: - Address queries

  private func processQuery(of id: ServiceID, _ query: DNSServiceOperation<QueryReply>) -> [BrowserEvent] {
    let code = query.process()
    guard let game = tracked[id] else { return [] }
    let before = game.game.addresses
    for reply in query.takeReplies() {
      guard reply.error == kDNSServiceErr_NoError else {
        query.cancel()
        break
      }
      guard let address = AddressText.from(rdata: reply.rdata, interfaceIndex: reply.interfaceIndex) else {
        continue
      }
      if reply.flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
        if !game.game.addresses.contains(address) { game.game.addresses.append(address) }
      } else {
        game.game.addresses.removeAll { $0 == address }
      }
    }
    if code != kDNSServiceErr_NoError { query.cancel() }
    game.queries.removeAll { !$0.isActive }
    return game.game.addresses == before ? [] : [.updated(id)]
  }

  // MARK: - C callbacks: they only record the reply

  private static let browseCallback: DNSServiceBrowseReply = {
    _, flags, interfaceIndex, error, name, type, domain, context in
    DNSServiceOperation<BrowseReply>.from(context)?.replies.append(
      BrowseReply(
        flags: flags, interfaceIndex: interfaceIndex, error: error, name: name.map { String(cString: $0) },
        type: type.map { String(cString: $0) }, domain: domain.map { String(cString: $0) }))
  }

  private static let resolveCallback: DNSServiceResolveReply = {
    _, _, interfaceIndex, error, _, hostName, port, txtLength, txtRecord, context in
    let txt = txtRecord.map { Array(UnsafeBufferPointer(start: $0, count: Int(txtLength))) } ?? []
    DNSServiceOperation<ResolveReply>.from(context)?.replies.append(
      ResolveReply(
        interfaceIndex: interfaceIndex, error: error, hostName: hostName.map { String(cString: $0) },
        port: UInt16(bigEndian: port), txt: txt))
  }

  private static let queryCallback: DNSServiceQueryRecordReply = {
    _, flags, interfaceIndex, error, _, _, _, length, rdata, _, context in
    let bytes = rdata.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
    DNSServiceOperation<QueryReply>.from(context)?.replies.append(
      QueryReply(flags: flags, interfaceIndex: interfaceIndex, error: error, rdata: bytes))
  }
}

/// A game being followed: its state and the operations that keep it current.
private final class TrackedGame {
  var game: DiscoveredGame
  var sightings = 1
  var resolve: DNSServiceOperation<ResolveReply>?
  var queries: [DNSServiceOperation<QueryReply>] = []

  init(id: ServiceID) {
    game = DiscoveredGame(id: id)
  }

  func cancel() {
    resolve?.cancel()
    for query in queries { query.cancel() }
  }
}

struct BrowseReply {
  let flags: DNSServiceFlags
  let interfaceIndex: UInt32
  let error: DNSServiceErrorType
  let name: String?
  let type: String?
  let domain: String?
}

struct ResolveReply {
  let interfaceIndex: UInt32
  let error: DNSServiceErrorType
  let hostName: String?
  let port: UInt16
  let txt: [UInt8]
}

struct QueryReply {
  let flags: DNSServiceFlags
  let interfaceIndex: UInt32
  let error: DNSServiceErrorType
  let rdata: [UInt8]
}

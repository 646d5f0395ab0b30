import Discovery
import EventLoop
import GameCore
import Glibc
import Security
import Session
import Transport
import UntrustedText
import WireProtocol

/// One networked match on the event loop: the host's listener and connections, or the joiner's connection;
/// the TLS trust decisions; and the session of the game being played. No threads: the owner polls
/// `pollSet`, then calls `handle(readable:writable:now:)` and `tick(now:)`.
public final class NetworkMatch {
  private final class Link {
    let connection: PeerConnection
    var session: NetSession?
    var handshakeDeadline: Double
    var accepted = false
    /// Host: a connection from the key of the game's peer while the game waits; its first message decides
    /// whether it resumes the game (or is a new hello, turned away as busy).
    var mayResume = false
    /// Joiner: a new connection to the host to resume the game.
    var isReconnect = false
    /// Joiner: the TCP connection is still being set up (TLS starts once poll says it is writable).
    var connecting = false
    init(connection: PeerConnection, deadline: Double) {
      self.connection = connection
      self.handshakeDeadline = deadline
    }
  }

  public static let handshakeTimeout = 10.0
  /// Connections still setting up TLS beyond this many are closed at once (the oldest keep their slots).
  public static let maximumPending = 32
  /// Seconds the joiner waits before reconnection attempt `attempt + 1` after `attempt` failed: 0.5, 1, 2, 4, 8,
  /// then every 10 seconds.
  public static func reconnectDelay(afterFailedAttempt attempt: Int) -> Double {
    min(10, 0.5 * Double(1 << min(max(attempt, 1) - 1, 8)))
  }

  public let role: Role
  private let profile: Profile
  private let identity: Identity
  /// Where finished games are recorded (nil: not recorded).
  var archive: GameArchive?
  /// The UTC day the current game started, for its record.
  private var gameDate: String?
  /// The signing of the records of this match's games.
  private lazy var exchange = RecordExchange(
    isHost: role == .host, sign: { [identity] bytes in try? identity.sign(bytes) },
    verify: { signature, bytes, key in RecordSignature.verify(signature, of: bytes, publicKeyBase64: key) })
  private let options: NetworkOptions
  private let rules: Rules
  private let log: Log
  private let clock: () -> Double
  /// Connections whose goodbye is still going out (a graceful close never waits).
  private let closing: ClosingSockets
  private var listeners: [Int32] = []
  private var links: [Link] = []
  /// The link whose game this is (host: the joiner it accepted or is asking about).
  private var active: Link?
  private var question: TrustQuestion?
  public private(set) var finished: MatchEnd?
  public private(set) var port: UInt16 = 0
  /// Host: after an opponent leaves (or breaks the protocol, or its connection ends for good) wait for the next
  /// one instead of ending, until the player quits. The full-screen host does; plain mode with --keep-hosting.
  public var keepsHosting = false
  /// Host: what the player is told when hosting begins (where to join, the key), told again after each opponent.
  public var welcome: [MatchEvent] = []
  /// The host's DNS-SD advertisement (nil when not advertising or discovery is unavailable).
  private var advertiser: Advertiser?
  /// Joiner: the fingerprint the LAN advertisement promised; the host's certificate must match it.
  public var advertisedFingerprint: Fingerprint?
  /// Joiner: the name of the LAN game chosen, which a CA-issued certificate must carry (unless --peer-name
  /// says another): the numeric address mDNS handed out proves nothing about who answers there.
  public var lanGameName: String?
  /// The key of the peer the game is played with: a reconnection must present the same.
  private var gamePeerKey: Fingerprint?
  /// Joiner: where the host is, for reconnecting (as typed, and the numeric address the first connection
  /// reached); when the next attempt is due, and how many were made.
  private var joinEndpoint: Endpoint?
  private var hostAddress: Endpoint?
  /// Joiner: addresses the host's names resolved to that the first connection has not tried yet, each with the
  /// endpoint it came from (an invite gives several).
  private var untriedAddresses: [(Endpoint, Sockets.Address)] = []
  /// Joiner: the key of the invite joined with (pinned by the options); remembered once the host is reached.
  public var inviteKey: Fingerprint?
  private var reconnectAt: Double?
  private var reconnectAttempts = 0

  public init(
    role: Role, profile: Profile, identity: Identity, options: NetworkOptions, rules: Rules, log: Log,
    clock: @escaping () -> Double
  ) {
    self.role = role
    self.profile = profile
    self.identity = identity
    self.options = options
    self.rules = rules
    self.log = log
    self.clock = clock
    closing = ClosingSockets(clock: clock)
  }

  /// Connections still sending their last bytes: a front end that is ending waits for these (at most
  /// `ClosingSockets.linger` seconds), so the goodbye gets out.
  public var lingering: Int { closing.count }

  /// Host: the file `tictactoe invite` reads this host's invite from (removed when the match goes).
  var invitePath: String?
  /// Host: ask the router to open the port (the front end's loop runs `PortMappingOnLoop`).
  public var mapsPort = false
  /// Host: the full-screen UI offers to ask the router (nothing decided it yet: no option, no setting).
  public var offersPortMapping = false
  /// Host: the address given to `host(bind:)`, for the invite.
  private(set) var hostBind: String?
  public var paths: Paths { profile.paths }

  /// Host: the invite again, with `external` (a port the router opened) as its first address, published for
  /// `tictactoe invite`; nil when there is nothing new to say.
  func inviteWith(external: Invite.Address) -> Invite? {
    guard let invite = RunningHosts.invite(key: identity.fingerprint, port: port, bind: hostBind, external: external)
    else { return nil }
    RunningHosts.withdraw(invitePath)
    invitePath = RunningHosts.publish(invite, paths: profile.paths)
    return invite
  }

  deinit {
    RunningHosts.withdraw(invitePath)
    advertiser?.cancel()
    for fd in listeners { close(fd) }
  }

  /// Host: announces the game on the LAN as `_tictactoe._tcp`. When the avahi-daemon is missing the game is
  /// hosted all the same and the player is told why it cannot be found on the LAN.
  public func advertise() -> [MatchEvent] {
    guard role == .host, let txtRules = ServiceTXT.Rules(rows: rules.rows, columns: rules.columns, k: rules.k) else {
      return []
    }
    let txt = ServiceTXT(
      protocolVersions: ProtocolVersion.supported.sorted().map(Int.init), rules: txtRules, state: .waiting,
      fingerprint: identity.fingerprint.description, displayName: profile.name)
    do {
      advertiser = try Advertiser(name: profile.name, port: port, txt: txt)
      return []
    } catch {
      log.write("not advertised: \(error)")
      return [.status("\(error.message) Players can still join by address.")]
    }
  }

  private func advertiseState(_ state: ServiceTXT.GameState) {
    guard let advertiser, advertiser.txt.state != state else { return }
    var txt = advertiser.txt
    txt.state = state
    do {
      try advertiser.update(txt: txt)
    } catch {
      log.write("advertisement not updated: \(error)")
    }
  }

  private func processAdvertiser() -> [MatchEvent] {
    guard let advertiser else { return [] }
    do {
      return try advertiser.process().map { event in
        switch event {
        case .registered(let name):
          log.write("advertised as \(name)")
          return .status(
            name == profile.name
              ? "Announced on the local network as \(name)."
              : "Announced on the local network as \(name) (\(profile.name) was taken).")
        }
      }
    } catch {
      self.advertiser = nil
      log.write("advertisement lost: \(error)")
      return [.status("\(error.message) Players can still join by address.")]
    }
  }

  public var session: NetSession? { active?.session }
  public var profileName: String { profile.name }
  public var warnings: [String] { options.warnings }
  public var peerCertificate: PeerCertificate? { active?.connection.tls.peerCertificate }
  public var peerAddress: String? { active?.connection.peerAddress }
  public var pendingQuestion: TrustQuestion? { question }

  // MARK: - Starting

  /// Host: listens for joiners.
  public func host(bind: String?, port: UInt16) throws(NetworkError) {
    listeners = try Sockets.listen(bind: bind, port: port)
    hostBind = bind
    self.port = listeners.first.map(Sockets.localPort) ?? port
    log.write("hosting on \(bind ?? "*"):\(self.port)")
  }

  /// Joiner: connects to the first of `addresses` (what `endpoint` resolved to) that answers, without waiting:
  /// the event loop sees each attempt through, and a refused or silent address gives way to the next.
  public func join(_ endpoint: Endpoint, addresses: [Sockets.Address]) -> [MatchEvent] {
    join(addresses.map { (endpoint, $0) })
  }

  /// Joiner: as `join(_:addresses:)` for several endpoints (an invite's), tried in the order given.
  public func join(_ candidates: [(Endpoint, Sockets.Address)]) -> [MatchEvent] {
    joinEndpoint = candidates.first?.0
    untriedAddresses = candidates
    return connectToNextAddress(after: nil)
  }

  /// Joiner: the name could not be resolved (or another failure before any connection): the match ends.
  public func joinFailed(_ end: MatchEnd) -> [MatchEvent] {
    guard finished == nil else { return [] }
    log.write("cannot join: \(end)")
    finished = end
    return [.finished(end)]
  }

  private func connectToNextAddress(after failure: MatchEnd?) -> [MatchEvent] {
    guard var endpoint = joinEndpoint else { return [] }
    var failure = failure
    while !untriedAddresses.isEmpty {
      let address: Sockets.Address
      (endpoint, address) = untriedAddresses.removeFirst()
      joinEndpoint = endpoint
      do {
        let link = try connectingLink(try Sockets.startConnect(address, endpoint: endpoint), to: endpoint)
        active = link
        log.write("connecting to \(endpoint) at \(address)")
        return failure.map { [.status("\($0) Trying \(address)\u{2026}")] } ?? []
      } catch let error as NetworkError {
        failure = .network(error)
      } catch {
        failure = .setup("\(error)")
      }
    }
    return joinFailed(failure ?? .network(.unreachable(endpoint, reason: "no usable address")))
  }

  /// Joiner: a link for `fd`, a connection to the host still being set up (TLS starts once it is writable).
  /// The descriptor is closed if the link cannot be made.
  private func connectingLink(_ fd: Int32, to endpoint: Endpoint) throws -> Link {
    let connection: PeerConnection
    do {
      connection = try PeerConnection(
        fd: fd, context: try makeContext(expectedHost: lanGameName ?? endpoint.host), peerAddress: endpoint.description,
        serverName: options.caFile != nil ? lanGameName ?? endpoint.host : nil)
    } catch {
      close(fd)
      throw error
    }
    connection.closer = closing
    let link = Link(connection: connection, deadline: clock() + NetworkMatch.handshakeTimeout)
    link.connecting = true
    links.append(link)
    return link
  }

  private func makeContext(expectedHost: String?) throws -> TLSContext {
    try profile.tlsContext(
      role == .host ? .server : .client, identity: identity, options: options, expectedHost: expectedHost,
      boundAddress: boundAddress)
  }

  /// A joiner's host as typed, to which its key is bound in known_peers. Not for a LAN join: there the
  /// advertised key decides, and the address is whatever the network handed out.
  private var boundAddress: String? {
    guard role == .joiner, advertisedFingerprint == nil else { return nil }
    return joinEndpoint?.description
  }

  // MARK: - The event loop

  /// The descriptors the event loop must watch, each with its owner (so a reused number is noticed).
  public var descriptors: [DescriptorSync.Want] {
    let me = ObjectIdentifier(self)
    var wanted = listeners.map { DescriptorSync.Want(fd: $0, events: Int16(POLLIN), owner: me) }
    for link in links where !link.connection.isClosed {
      let write = link.connection.wantsWrite || link.connecting
      wanted.append(
        .init(fd: link.connection.fd, events: Int16(write ? POLLIN | POLLOUT : POLLIN), owner: ObjectIdentifier(link)))
    }
    if let advertiser, let fd = advertiser.descriptor {
      wanted.append(.init(fd: fd, events: Int16(POLLIN), owner: ObjectIdentifier(advertiser)))
    }
    for fd in closing.descriptors {
      wanted.append(.init(fd: fd, events: Int16(POLLOUT), owner: ObjectIdentifier(closing)))
    }
    return wanted
  }

  /// The next time `tick` must run.
  public var nextDeadline: Double? {
    var deadlines = links.map { link in
      link.connection.isSecured && !link.mayResume ? link.session?.nextDeadline : link.handshakeDeadline
    }
    if let waiting = waitingGame { deadlines.append(waiting.session?.nextDeadline) }
    deadlines.append(reconnectAt)
    deadlines.append(closing.nextDeadline)
    return deadlines.compactMap { $0 }.min()
  }

  public func handle(readable: Set<Int32>, writable: Set<Int32>) -> [MatchEvent] {
    var events: [MatchEvent] = []
    for fd in closing.descriptors where readable.contains(fd) || writable.contains(fd) { closing.flush(fd) }
    if let fd = advertiser?.descriptor, readable.contains(fd) { events += processAdvertiser() }
    for fd in listeners where readable.contains(fd) {
      while let (socket, peer) = Sockets.accept(fd) { events += accepted(socket, peer: peer) }
    }
    for link in links where !link.connection.isClosed {
      let fd = link.connection.fd
      if link.connecting {
        guard readable.contains(fd) || writable.contains(fd) else { continue }
        link.connecting = false
        if let endpoint = hostAddress ?? joinEndpoint, let failure = Sockets.connectFailure(fd, endpoint) {
          events += fail(link, .network(failure))  // refused or unreachable: said as such
          continue
        }
        if hostAddress == nil { hostAddress = Sockets.remoteEndpoint(fd) }  // where reconnections go
        do {
          try link.connection.start()
        } catch {
          events += fail(link, .network(error))
        }
        continue
      }
      if writable.contains(fd) { link.connection.flush() }
      guard readable.contains(fd) else { continue }
      events += read(link)
    }
    links.removeAll { $0.connection.isClosed }
    return events
  }

  /// The game whose connection dropped, kept for the grace period (its link is closed).
  private var waitingGame: Link? {
    guard let active, active.connection.isClosed, let session = active.session, case .lost = session.link else {
      return nil
    }
    return active
  }

  public func tick() -> [MatchEvent] {
    closing.expire()
    let now = clock()
    var events: [MatchEvent] = []
    if let waiting = waitingGame, var session = waiting.session {
      let outputs = session.tick(now: now)
      waiting.session = session
      events += apply(outputs, on: waiting)
    }
    if let due = reconnectAt, now >= due, waitingGame != nil { events += reconnect() }
    for link in links where !link.connection.isClosed {
      if !link.connection.isSecured {
        if now >= link.handshakeDeadline {
          events += fail(link, .network(.handshakeTimedOut(seconds: Int(NetworkMatch.handshakeTimeout))))
        }
      } else if link.mayResume {
        // The waiting game's key connected but has not said what it wants within the handshake time.
        if now >= link.handshakeDeadline {
          events += fail(link, .network(.handshakeTimedOut(seconds: Int(NetworkMatch.handshakeTimeout))))
        }
      } else if var session = link.session {
        let outputs = session.tick(now: now)
        link.session = session
        events += apply(outputs, on: link)
      }
    }
    links.removeAll { $0.connection.isClosed }
    return events
  }

  private func accepted(_ fd: Int32, peer: String) -> [MatchEvent] {
    // At the cap, the oldest connection still setting up TLS makes room: a flood of silent connections only
    // churns itself, and a real joiner (whose handshake takes milliseconds) still gets in.
    let pending = links.filter { !$0.connection.isSecured && !$0.connection.isClosed }
    if pending.count >= NetworkMatch.maximumPending, let oldest = pending.first {
      log.write(
        "\(pending.count) connections are already setting up TLS: dropping the oldest, \(oldest.connection.peerAddress)"
      )
      oldest.connection.close(gracefully: false)
    }
    log.write("connection from \(peer)")
    do {
      let connection = try PeerConnection(fd: fd, context: try makeContext(expectedHost: nil), peerAddress: peer)
      connection.closer = closing
      links.append(Link(connection: connection, deadline: clock() + NetworkMatch.handshakeTimeout))
      return []
    } catch {
      log.write("cannot serve \(peer): \(error)")
      close(fd)
      return []
    }
  }

  private func read(_ link: Link) -> [MatchEvent] {
    var events: [MatchEvent] = []
    let arrivals: [PeerConnection.Arrival]
    do {
      arrivals = try link.connection.readable()
    } catch {
      return fail(link, .network(error))
    }
    for arrival in arrivals {
      switch arrival {
      case .secured:
        events += secured(link)
      case .message(let message):
        if link.mayResume && link.session == nil { events += resumeOrGreet(link, first: message) }
        if case .recordSignature(let game, let date, let signature) = message, link === active, archive != nil {
          events += exchangeRecords(exchange.received(game: Int(game), date: date, signature: signature), link)
        }
        guard var session = link.session else { continue }
        let outputs = session.receive(message, now: clock())
        link.session = session
        events += apply(outputs, on: link)
      case .malformed(let error):
        guard var session = link.session else { continue }
        let outputs = session.receiveMalformed(error, now: clock())
        link.session = session
        events += apply(outputs, on: link)
      case .ended:
        if var session = link.session {
          let outputs = session.connectionLost(now: clock())
          link.session = session
          events += apply(outputs, on: link)
        } else {
          events += fail(link, .session(.connectionLost))
        }
      }
    }
    return events
  }

  private func secured(_ link: Link) -> [MatchEvent] {
    let tls = link.connection.tls
    log.write(
      "secured \(link.connection.peerAddress): \(tls.protocolVersion) \(tls.cipher), peer \(tls.peerCertificate?.fingerprint.description ?? "?")"
    )
    if link.isReconnect { return resecured(link) }
    if role == .host, let game = active, game !== link, game.session?.keepsGameOnDrop == true,
      let key = tls.peerCertificate?.fingerprint, key == gamePeerKey
    {
      // The opponent's key while its game is kept: wait for its first message (resume, or a new hello).
      link.mayResume = true
      link.handshakeDeadline = clock() + NetworkMatch.handshakeTimeout
      return []
    }
    var session = newSession()
    var events: [MatchEvent] = []
    if role == .joiner {
      gamePeerKey = tls.peerCertificate?.fingerprint
      if let advertised = advertisedFingerprint, let presented = tls.peerCertificate?.fingerprint,
        advertised != presented
      {
        return fail(link, .impostor(advertised: advertised, presented: presented))
      }
      events.append(.status("Connected to \(link.connection.peerAddress) over \(tls.protocolVersion) (\(tls.cipher))."))
      if let code = tls.verificationCode { events.append(.verification(code)) }
      link.session = session
      if case .askUser(let name, let fingerprint) = tls.trustDecision {
        question = TrustQuestion(
          role: .joiner, peerName: PeerText(name), certificateName: PeerText(name), fingerprint: fingerprint,
          lookalikes: lookalikes(of: link, claiming: nil))
        if let question { events.append(.ask(question)) }
        return events
      }
      if case .trusted(.knownPeer) = tls.trustDecision, let address = boundAddress,
        let key = tls.peerCertificate?.fingerprint
      {
        do {
          try profile.bind(key, to: address)  // a known key met at a new address: the key decides
        } catch {
          log.write("could not remember \(address) for \(key): \(error)")
        }
      }
      rememberIfAcceptedNew(link)
      return events + begin(link)
    }
    let outputs = session.start(now: clock())
    link.session = session
    return events + apply(outputs, on: link)
  }

  private func newSession() -> NetSession {
    NetSession(
      configuration: .init(
        role: role, name: profile.name, software: CommandLineParser.version, rules: rules,
        gracePeriod: options.gracePeriod),
      coinBytes: (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255) }, sha256: Digest.sha256, now: clock())
  }

  // MARK: - Reconnecting

  /// Joiner: a host name to look up again before reconnecting (the front end's loop does it on a worker
  /// thread, then calls `reconnect(to:)`): a host whose address changed is found again.
  public private(set) var nameToResolve: Endpoint?

  /// Joiner: the next attempt to reach the host again while the game is kept. A host typed as an address is
  /// reached there; one typed as a name is looked up again first.
  private func reconnect() -> [MatchEvent] {
    reconnectAt = nil
    reconnectAttempts += 1
    guard let endpoint = joinEndpoint else { return [] }
    log.write("reconnecting to \(endpoint), attempt \(reconnectAttempts)")
    if !Sockets.isNumeric(endpoint.host) {
      nameToResolve = endpoint
      return [.status("Reconnecting to \(endpoint) (attempt \(reconnectAttempts))\u{2026}")]
    }
    return reconnect(
      endpoint, fd: { () throws(NetworkError) in try Sockets.connect(self.hostAddress ?? endpoint, wait: false) })
  }

  /// Joiner: the host's name looked up again (`nameToResolve`): connect to the first of `addresses`.
  public func reconnect(to addresses: Result<[Sockets.Address], NetworkError>) -> [MatchEvent] {
    guard let endpoint = nameToResolve else { return [] }
    nameToResolve = nil
    guard waitingGame != nil, finished == nil else { return [] }
    switch addresses {
    case .failure(let error):
      return reconnectFailed("\(error)")
    case .success(let found):
      guard let first = found.first else { return reconnectFailed("\(endpoint.host) has no address") }
      hostAddress = nil  // wherever it is now
      return reconnect(endpoint, fd: { () throws(NetworkError) in try Sockets.startConnect(first, endpoint: endpoint) })
    }
  }

  private func reconnect(_ endpoint: Endpoint, fd: () throws(NetworkError) -> Int32) -> [MatchEvent] {
    do {
      // Without waiting: the connection is set up on the event loop (the countdown keeps going), and a host
      // that does not answer is given up at the handshake timeout.
      let link = try connectingLink(try fd(), to: endpoint)
      link.isReconnect = true
      return [.status("Reconnecting to \(endpoint) (attempt \(reconnectAttempts))\u{2026}")]
    } catch {
      return reconnectFailed("\(error)")
    }
  }

  private func reconnectFailed(_ reason: String) -> [MatchEvent] {
    let delay = NetworkMatch.reconnectDelay(afterFailedAttempt: reconnectAttempts)
    reconnectAt = clock() + delay
    log.write("reconnection attempt \(reconnectAttempts) failed: \(reason)")
    let wait = delay < 1 ? "\(delay)" : "\(Int(delay))"  // "0.5", "2"
    let sentence = reason.hasSuffix(".") ? reason : reason + "."
    return [.status("Reconnection attempt \(reconnectAttempts) failed: \(sentence) Next try in \(wait) s.")]
  }

  /// Joiner: a new connection to the host is secured. Only the key the game was played with may take it up.
  private func resecured(_ link: Link) -> [MatchEvent] {
    let presented = link.connection.tls.peerCertificate?.fingerprint
    guard let old = waitingGame, var session = old.session else {
      link.connection.close()
      return []
    }
    if let before = gamePeerKey, let presented, before != presented {
      link.connection.close(gracefully: false)
      reconnectAt = nil
      old.connection.close(gracefully: false)
      let end = MatchEnd.keyChangedOnReconnect(before: before, now: presented)
      log.write("\(end)")
      finished = end
      return [.finished(end)]
    }
    log.write("reconnected to \(link.connection.peerAddress) after \(reconnectAttempts) attempt(s): asking to resume")
    reconnectAttempts = 0
    let outputs = session.requestResume(now: clock())
    old.session = nil
    link.session = session
    link.accepted = true
    active = link
    return apply(outputs, on: link)
  }

  /// Host: the first message on a connection from the waiting game's key. A resume request takes the game
  /// over (dropping the old connection if it still looked alive); anything else is a new hello, turned away.
  private func resumeOrGreet(_ link: Link, first message: Message) -> [MatchEvent] {
    link.mayResume = false
    guard case .resume = message, let old = active, var session = old.session, session.keepsGameOnDrop else {
      var events: [MatchEvent] = []
      var kept: Bool?
      if case .hello(_, let name, _) = message, let old = active, old.session?.keepsGameOnDrop == true {
        // The same player greets us afresh: its program lost the game (restarted, or gave up during the coin
        // toss). The kept game is over; this is a new match.
        log.write("\(name) at \(link.connection.peerAddress) came back without the game: starting a new match")
        kept = old.session?.hostPlayedXLast
        old.connection.close(gracefully: false)
        old.session = nil
        active = nil
        events.append(.status("\(name) came back without the last game (restarted?): a new match begins."))
      }
      var session = newSession()
      // Leaving and coming back must not re-roll the coin: the new match starts with the same first player.
      session.keptHostPlaysX = kept
      let outputs = session.start(now: clock())
      link.session = session
      return events + apply(outputs, on: link)
    }
    log.write("\(link.connection.peerAddress) is back with the same key: resuming the game")
    let outputs = session.peerReconnected(now: clock())
    old.session = session
    let events = apply(outputs, on: old)  // closes the old connection if it still looked alive
    link.session = old.session
    old.session = nil
    link.accepted = true
    active = link
    return events
  }

  /// Joiner: say hello once the host is trusted.
  private func begin(_ link: Link) -> [MatchEvent] {
    guard var session = link.session else { return [] }
    let outputs = session.start(now: clock())
    link.session = session
    return apply(outputs, on: link)
  }

  /// The record against this opponent from the saved games (`you and alice: 5–3, 2 drawn`), named as the player
  /// knows its key, or by the name it gave.
  private func greeting(_ fingerprint: Fingerprint, helloName: PeerText) -> [MatchEvent] {
    let known = (try? profile.knownPeers())?.lookup(fingerprint: fingerprint)?.name
    let name = known.map { PeerText($0).description } ?? helloName.description
    return OpponentRecords.load(profile).greeting(fingerprint, name: name).map { [.opponentRecord($0)] } ?? []
  }

  /// Carries out a step of the record exchange: writes the record, sends the signature, tells of a problem.
  private func exchangeRecords(_ step: RecordExchange.Step, _ link: Link) -> [MatchEvent] {
    if let record = step.write, let path = archive?.keep(record, replacing: step.path), let game = step.game {
      exchange.written(game: game, to: path)
    }
    if let message = step.send, !link.connection.isClosed {
      do {
        try link.connection.send(message)
      } catch {
        log.write("record signature not sent to \(link.connection.peerAddress): \(error)")
      }
    }
    if let problem = step.problem {
      log.write(problem)
      return [.status(problem)]
    }
    return []
  }

  private func apply(_ outputs: [SessionOutput], on link: Link) -> [MatchEvent] {
    var events: [MatchEvent] = []
    for output in outputs {
      if case .gameStarted = output { gameDate = RecordOfGame.today() }
      if link === active, archive != nil, let session = link.session,
        let record = RecordOfGame.network(
          after: output, session: session, myKey: identity.publicKeyBase64,
          peerKey: link.connection.tls.peerCertificate?.publicKeyBase64, date: gameDate ?? RecordOfGame.today())
      {
        events += exchangeRecords(exchange.ended(record, game: session.gameNumber, myMark: session.myMark ?? .x), link)
      }
      switch output {
      case .send(let message):
        guard !link.connection.isClosed else { continue }  // the connection dropped: sent again on resume
        do {
          try link.connection.send(message)
        } catch {
          log.write("send failed to \(link.connection.peerAddress): \(error)")
        }
      case .connectionLost(let until):
        let seconds = Int((until - clock()).rounded())
        log.write("connection to \(link.connection.peerAddress) lost mid-match: keeping the game \(seconds) s")
        link.connection.close(gracefully: false)
        if role == .joiner && link === active {
          reconnectAttempts = 0
          reconnectAt = clock()
        }
        if link === active { events.append(.session(output)) }
      case .chat where question != nil:
        // Not admitted yet: its words must not appear under the question about its key.
        log.write("chat from \(link.connection.peerAddress) dropped: the player has not decided on its key")
      case .resumed(let game, let ply):
        log.write("resumed game \(game) at ply \(ply) with \(link.connection.peerAddress)")
        if link === active { events.append(.session(output)) }
      case .closed(let full):
        log.write("session with \(link.connection.peerAddress) ended: \(full)")
        link.connection.close()
        // A peer not let in (or about whose key the player is still asked) is shown only its key and claimed
        // name: not its goodbye or error text.
        let asked = link === active && question != nil
        let admitted = role == .host ? link.accepted && !asked : !asked
        let end = admitted ? full : full.withoutPeerText
        if link !== active, role == .host, end != .localQuit {
          // A joiner that was never let in: the host player hears what happened, and keeps hosting.
          events.append(.status("A connection from \(link.connection.peerAddress) was closed: \(end)"))
        }
        if link === active, role == .host, keepsHosting, end != .localQuit {
          events += nextOpponent(after: .session(end))
        } else if link === active {
          reconnectAt = nil
          advertiser?.cancel()
          advertiser = nil
          finished = .session(end)
          events.append(.finished(.session(end)))
        }
      case .peerHello(let name, let software):
        log.write("hello from \(name) (\(software)) at \(link.connection.peerAddress)")
        if role == .host {
          events += hostDecides(link, name: name)
        } else {
          events.append(.session(.peerHello(name: shownName(link, claimed: name), software: software)))
        }
        if archive != nil, let fingerprint = link.connection.tls.peerCertificate?.fingerprint {
          events += greeting(fingerprint, helloName: name)
        }
      case .gameStarted(1, let mark) where link === active && link.session?.firstPlayerWasKept == true:
        let who = role == .host ? "Your opponent" : "You"
        log.write("first player kept from the game left within the grace period: \(mark) here")
        events.append(
          .status("\(who) left a game here moments ago and came back: its first player is kept (no new coin toss)."))
        events.append(.session(output))
      default:
        if link === active { events.append(.session(output)) }
      }
    }
    return events
  }

  /// Host: a joiner said hello. Busy hosts refuse; new peers are asked about; known ones are let in.
  private func hostDecides(_ link: Link, name: PeerText) -> [MatchEvent] {
    guard active == nil || active === link else {
      return decline(link, .busy, text: "\(profile.name) is already playing; try again later")
    }
    active = link
    let shown = shownName(link, claimed: name)
    var events: [MatchEvent] = [.session(.peerHello(name: shown, software: link.session?.peerSoftware ?? ""))]
    if let code = link.connection.tls.verificationCode { events.append(.verification(code)) }
    let certificate = link.connection.tls.peerCertificate
    // A new key under a name like one the player knows is a new player, never that peer: say so, with both keys.
    let lookalikes = self.lookalikes(of: link, claiming: name)
    if case .askUser(let certificateName, let fingerprint) = link.connection.tls.trustDecision {
      question = TrustQuestion(
        role: .host, peerName: name, certificateName: PeerText(certificateName), fingerprint: fingerprint,
        lookalikes: lookalikes)
      if let question { events.append(.ask(question)) }
      return events
    }
    if let certificate, !lookalikes.isEmpty {
      let warning = TrustQuestion.notTheOneYouKnow(
        claimed: name, fingerprint: certificate.fingerprint, lookalikes: lookalikes)
      log.write(warning.joined(separator: " "))
      events += warning.map { .status($0) }
    }
    log.write("letting in \(shown) (\(certificate?.fingerprint.description ?? "?"))")
    rememberIfAcceptedNew(link)
    return events + admit(link)
  }

  /// The name the opponent is shown by: the one trust was decided on (the player's own name for a known key,
  /// or the name in a certificate a chosen CA vouched for), with the name it calls itself marked when it
  /// differs. A new peer is shown by the name it claims (the question about it says it is a claim).
  private func shownName(_ link: Link, claimed: PeerText) -> PeerText {
    let tls = link.connection.tls
    let decided = ShownName.decided(tls.trustDecision, certificate: tls.peerCertificate) { try? profile.knownPeers() }
    return ShownName.label(decided: decided, claimed: claimed)
  }

  /// Known peers whose names look like the one `link`'s new key claims (its certificate's or its hello's):
  /// none when the key is known.
  private func lookalikes(of link: Link, claiming name: PeerText?) -> [KnownPeer] {
    if case .trusted(.knownPeer) = link.connection.tls.trustDecision { return [] }
    guard let certificate = link.connection.tls.peerCertificate, let known = try? profile.knownPeers() else {
      return []
    }
    var found: [KnownPeer] = []
    for entry in known.lookalikes(of: certificate.commonName) + known.lookalikes(of: name?.unsanitised ?? "")
    where entry.fingerprint != certificate.fingerprint
      && !found.contains(where: { $0.fingerprint == entry.fingerprint })
    {
      found.append(entry)
    }
    return found
  }

  /// With --accept-new a new peer is let in without asking, and remembered like one the player accepted
  /// (so a later change of its key is caught).
  /// The same for a host joined by its invite: the player chose its key by joining with it.
  private func rememberIfAcceptedNew(_ link: Link) {
    guard let certificate = link.connection.tls.peerCertificate else { return }
    switch link.connection.tls.trustDecision {
    case .trusted(.acceptedNew): break
    case .trusted(.pinned) where inviteKey == certificate.fingerprint:
      if (try? profile.knownPeers().lookup(fingerprint: certificate.fingerprint)) != nil {
        guard let address = boundAddress else { return }
        do {
          try profile.bind(certificate.fingerprint, to: address)
        } catch {
          log.write("could not remember \(address) for \(certificate.fingerprint): \(error)")
        }
        return
      }
    default: return
    }
    do {
      try profile.remember(name: certificate.commonName, fingerprint: certificate.fingerprint, address: boundAddress)
      log.write("remembered new peer \(certificate.commonName) \(certificate.fingerprint)")
    } catch {
      log.write("could not remember \(certificate.commonName): \(error)")
    }
  }

  private func admit(_ link: Link) -> [MatchEvent] {
    guard var session = link.session else { return [] }
    link.accepted = true
    gamePeerKey = link.connection.tls.peerCertificate?.fingerprint
    advertiseState(.playing)
    let outputs = session.accept(now: clock())
    link.session = session
    return apply(outputs, on: link)
  }

  private func decline(_ link: Link, _ reason: RefusalReason, text: String) -> [MatchEvent] {
    guard var session = link.session else { return [] }
    let outputs = session.decline(reason, text: text, now: clock())
    link.session = session
    return apply(outputs, on: link)
  }

  private func fail(_ link: Link, _ end: MatchEnd) -> [MatchEvent] {
    log.write("\(link.connection.peerAddress): \(end)")
    if link === active, var session = link.session, session.keepsGameOnDrop {
      // The connection broke in the middle of the match: the game is kept for the grace period.
      let outputs = session.connectionLost(now: clock())
      link.session = session
      return apply(outputs, on: link)
    }
    link.connection.close(gracefully: false)
    if role == .joiner && link === active && link.session == nil && !link.isReconnect && !untriedAddresses.isEmpty {
      active = nil  // the first connection: the host may answer at another of its addresses
      return connectToNextAddress(after: end)
    }
    if link.isReconnect {
      link.isReconnect = false
      guard waitingGame != nil else { return [] }
      // Whoever answers there is not trusted (a changed key, a wrong pin): that will not pass by retrying.
      if case .network(.tls(.untrusted)) = end {
        reconnectAt = nil
        finished = end
        return [.finished(end)]
      }
      return reconnectFailed("\(end)")
    }
    guard link === active || role == .joiner else { return [] }
    if link === active && role == .host && keepsHosting && link.accepted { return nextOpponent(after: end) }
    if link === active && role == .host && !link.accepted {
      // The candidate went away before the game began: keep hosting.
      active = nil
      advertiseState(.waiting)
      question = nil
      return [.status("A joiner from \(link.connection.peerAddress) left: \(end)")]
    }
    finished = end
    return [.finished(end)]
  }

  /// Host that keeps hosting: forgets the opponent whose match is over and waits for the next one.
  private func nextOpponent(after end: MatchEnd) -> [MatchEvent] {
    log.write("match over (\(end)); hosting on for the next opponent")
    active?.connection.close()
    active = nil
    question = nil
    gamePeerKey = nil
    advertiseState(.waiting)
    return [.opponentGone(end)] + welcome
  }

  // MARK: - The player's answers and actions

  /// The player's answer to the pending trust question.
  public func answer(accept: Bool) -> [MatchEvent] {
    guard let question, let link = active else { return [] }
    self.question = nil
    if accept {
      do {
        try profile.remember(
          name: question.certificateName.unsanitised, fingerprint: question.fingerprint, address: boundAddress)
      } catch {
        log.write("could not remember \(question.certificateName): \(error)")
      }
      return role == .host ? admit(link) : begin(link)
    }
    if role == .host {
      active = nil
      return decline(link, .declined, text: "\(profile.name) declined")
    }
    link.connection.close()
    let end = MatchEnd.declinedByPlayer("You did not trust the host's key, so nothing was sent to it.")
    finished = end
    return [.finished(end)]
  }

  private func act(_ action: (inout NetSession, Double) -> [SessionOutput]) -> [MatchEvent] {
    guard let link = active, var session = link.session else { return [] }
    let outputs = action(&session, clock())
    link.session = session
    return apply(outputs, on: link)
  }

  public func play(_ position: Position) throws(PlayError) -> [MatchEvent] {
    guard let link = active, var session = link.session else { throw .illegal(.gameOver) }
    let outputs = try session.play(position, now: clock())
    link.session = session
    return apply(outputs, on: link)
  }

  /// Runs an action that may be refused (chat, resign, rematch, claim) on the game's session.
  private func attempt(
    _ action: (inout NetSession, Double) throws(ActionRefusal) -> [SessionOutput]
  ) throws(ActionRefusal) -> [MatchEvent] {
    guard let link = active, var session = link.session else { throw finished == nil ? .notStarted : .matchOver }
    let outputs = try action(&session, clock())
    link.session = session
    return apply(outputs, on: link)
  }

  public func chat(_ text: String) throws(ActionRefusal) -> [MatchEvent] {
    try attempt { (session, now) throws(ActionRefusal) in try session.chat(text, now: now) }
  }
  public func resign() throws(ActionRefusal) -> [MatchEvent] {
    try attempt { (session, now) throws(ActionRefusal) in try session.resign(now: now) }
  }
  public func rematch() throws(ActionRefusal) -> [MatchEvent] {
    try attempt { (session, now) throws(ActionRefusal) in try session.offerRematch(now: now) }
  }
  /// After the grace period: the opponent did not come back; the game is won.
  public func claim() throws(ActionRefusal) -> [MatchEvent] {
    try attempt { (session, now) throws(ActionRefusal) in try session.claim(now: now) }
  }

  public func quit() -> [MatchEvent] {
    reconnectAt = nil
    advertiser?.cancel()
    advertiser = nil
    var events = act { $0.quit(text: "", now: $1) }
    for link in links where !link.connection.isClosed { link.connection.close() }
    if finished == nil {
      finished = .session(.localQuit)
      events.append(.finished(.session(.localQuit)))
    }
    return events
  }
}

import Discovery
import EventLoop
import GameCore
import Glibc
import MatchCoordination
import NetworkFacts
import PeerTrust
import PlayerFiles
import Security
import Session
import Transport
import WireProtocol

/// What both shells of a networked match share, the host's (`HostMatch`) and the joiner's (`JoinerMatch`): the
/// sockets of its connections, their TLS contexts, the files, the log and the clock, around the side that
/// decides everything (`Side`: `HostCoordinator` or `JoinerCoordinator`, held as itself). It turns what the
/// sockets say into the coordinator's events and carries out its commands; where the two sides differ it asks
/// the side (`MatchSide`), and what only one side does is in that side's extension (HostMatch.swift,
/// JoinerMatch.swift). No threads: once given a loop (`watch(on:ready:)`) its sockets register themselves; the
/// owner hands it what was ready (`handle(_:)`) and calls `tick()` at `nextDeadline`.
package final class NetworkMatch<Side: MatchSide> {
  let profile: Profile
  let identity: Identity
  let options: NetworkOptions
  let rules: Rules
  let log: Log
  let clock: () -> Double
  /// The side of the match that decides.
  var coordinator: Side
  /// What this side's shell keeps that only its own code reads (`HostPart`, `JoinerPart`).
  let part: Side.Part
  /// The connections on the wire, by the coordinator's numbers, and the goodbyes going out.
  let sockets: MatchSockets
  /// The TLS contexts its connections are made with.
  let contexts: MatchContexts
  /// known_peers changes, off the loop once `MatchOnLoop` gives them a worker.
  package let writes: KnownPeersWrites
  /// Game records written and looked up, off the loop once `MatchOnLoop` gives it a worker.
  package let files: MatchFileWork
  /// A host's listening sockets and door, set by `host(bind:port:)`: the loop code below watches them. A
  /// joiner's stays nil.
  var listener: HostListener?
  /// A host's DNS-SD advertisement, set by `advertise()` (nil when not advertising or discovery is
  /// unavailable; a joiner's stays nil): the coordinator's commands change what it says.
  var announcement: LANAnnouncement?

  /// Where finished games are recorded (nil: not recorded).
  package var archive: GameArchive? {
    didSet {
      files.archive = archive
      coordinator.records = archive.map { _ in MatchRecords(signedBy: identity, isHost: role == .host) }
    }
  }
  package var finished: MatchEnd? { coordinator.finished }
  /// Host or joiner: for words that name the other side.
  package var role: Role { coordinator.core.configuration.role }

  /// A match of this side, deciding by `coordinator`; the side's own inits (`HostMatch`, `JoinerMatch`) make it.
  init(
    coordinator: Side, part: Side.Part, profile: Profile, identity: Identity, options: NetworkOptions, rules: Rules,
    log: Log, clock: @escaping () -> Double
  ) {
    self.coordinator = coordinator
    self.part = part
    self.profile = profile
    self.identity = identity
    self.options = options
    // The host's rule variant travels in its terms (protocol version 4) and its advert.
    self.rules = rules
    self.log = log
    self.clock = clock
    sockets = MatchSockets(clock: clock, log: log)
    contexts = MatchContexts(profile: profile, identity: identity, options: options)
    writes = KnownPeersWrites(profile: profile, log: log)
    files = MatchFileWork(profile: profile, log: log)
    self.coordinator.journal = identity.publicKeyBase64.map(MatchJournal.init(myKey:))
  }

  /// Hands the coordinator the lines of known_peers its next decision needs, read now (`KnownPeersQuery`, through
  /// the index): the peer's key's, its names' (certificate's, hello's) and a joiner's typed address's. Called when
  /// TLS finished and when a hello came, before the coordinator decides. Nil when known_peers cannot be read.
  private func refreshKnownPeers(_ facts: PeerFacts, hello: String? = nil) {
    let certificate = facts.certificate
    let query = KnownPeersQuery(
      key: certificate?.fingerprint, names: [certificate?.commonName, hello].compactMap { $0 },
      address: coordinator.boundAddress)
    coordinator.knownPeersChanged(try? contexts.knownPeers(query))
  }

  /// Connections still sending their last bytes: a front end that is ending waits for these (at most
  /// `ClosingSockets.linger` seconds), so the goodbye gets out.
  package var lingering: Int { sockets.closingCount + writes.pending + files.pending }

  /// Connections on their way to a relay, until TCP is up: where they go and how long a joiner waits there.
  var relayRoutes: [ConnectionID: (RelayRoute, Double?)] = [:]
  package var paths: Paths { profile.paths }
  /// Where names are looked up and ports listened on: the machine's network, or a test's in memory.
  package var network = Network.system

  deinit {
    announcement?.cancel()
    listener?.close()
  }

  package var profileName: String { profile.name }
  package var warnings: [String] { options.warnings }

  // MARK: - The event loop

  /// Whether a joiner may go in now (a host's pending place is free, or one makes room).
  private var mayAccept: Bool { coordinator.mayAccept(now: clock()) }
  /// Host: the pending connections from each address, so those at the door are let in fairly.
  private var pendingByAddress: [String: Int] { coordinator.connections.pendingByAddress }

  /// The next time `tick` must run.
  package var nextDeadline: Double? {
    // A wait at the pending cap ends when the oldest pending connection may make room: one at the door goes in.
    let door = listener?.nextDeadline(
      reopens: coordinator.acceptReopens.flatMap { $0 > clock() ? $0 : nil }, now: clock())
    return [coordinator.nextDeadline, sockets.nextDeadline, door, announcement?.watchersDue].compactMap { $0 }.min()
  }

  /// What the loop found ready in a round: the announcement, the listener and its door, then each connection
  /// in the order they were numbered; each connection is then watched for writing as its queue says.
  package func handle(_ ready: ReadyRound) -> [MatchEvent] {
    var events: [MatchEvent] = []
    if ready.announcement, let announcement {
      let (said, lost) = announcement.process()
      if lost { self.announcement = nil }
      events += said
    }
    events +=
      listener?.handle(
        readable: ready.listening, now: clock(), mayAccept: { mayAccept }, pendingFrom: { pendingByAddress },
        admit: { accepted($0, peer: $1) }) ?? []
    for (id, connection, revents) in ready.connections.sorted(by: { $0.0.value < $1.0.value })
    where sockets.carries(id, connection) {
      defer { sockets.followWrites(id) }
      if coordinator.connections[id]?.phase == .connecting {
        events += connected(id, connection)
        continue
      }
      if revents & Int16(POLLOUT) != 0 { connection.flush() }
      if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        if coordinator.connections[id]?.quiet == true { coordinator.heard(id) }
        events += read(id, connection)
      }
    }
    return events
  }

  package func tick() -> [MatchEvent] {
    sockets.expireClosing()
    announcement?.publishDueWatchers(now: clock())
    let events = perform(coordinator.tick(now: clock()))
    let letIn = listener?.tick(
      now: clock(), mayAccept: { mayAccept }, pendingFrom: { pendingByAddress }, admit: { accepted($0, peer: $1) })
    return events + (letIn ?? [])
  }

  private func accepted(_ fd: Int32, peer: String) -> [MatchEvent] {
    guard let (id, commands) = coordinator.admit(peer: peer, now: clock()) else {
      close(fd)
      return []
    }
    // Refused before TLS (the deny list, too many from its address): no TLS context is made for it.
    guard coordinator.connections[id]?.isClosed == false else {
      close(fd)
      return perform(commands)
    }
    do {
      sockets.add(try PeerConnection(fd: fd, context: try contexts.server(), peerAddress: peer), as: id)
    } catch {
      log.write("cannot serve \(peer): \(error)")
      close(fd)
      return perform(commands + coordinator.failed(id, .setup(SetupFailure(error)), now: clock()))
    }
    return perform(commands)
  }

  /// The TCP connection this side opened is set up, or failed: a joiner's to the host, or a connection to a
  /// relay (host or joiner), which greets it.
  private func connected(_ id: ConnectionID, _ connection: PeerConnection) -> [MatchEvent] {
    if let events = connectedToRelay(id, connection) { return events }
    if let endpoint = coordinator.connectingEndpoint, let failure = Sockets.connectFailure(connection.fd, endpoint) {
      return perform(coordinator.failed(id, .network(failure), now: clock()))  // refused or unreachable
    }
    coordinator.connected(id, remote: Sockets.remoteEndpoint(connection.fd))
    do {
      try connection.start()
      return []
    } catch {
      return perform(coordinator.failed(id, .network(error), now: clock()))
    }
  }

  private func read(_ id: ConnectionID, _ connection: PeerConnection) -> [MatchEvent] {
    let arrivals: [PeerConnection.Arrival]
    let atRelay = connection.isInPrelude
    // The relay's ok (and perhaps the other side's first bytes) came: the coordinator hears it first.
    var events: [MatchEvent] = []
    do {
      defer { if atRelay && !connection.isInPrelude { events += perform(coordinator.glued(id, now: clock())) } }
      arrivals = try connection.readable()
    } catch {
      return events + perform(coordinator.failed(id, .network(error), now: clock()))
    }
    for arrival in arrivals where sockets.carries(id, connection) {
      let now = clock()
      switch arrival {
      case .introduced:
        break  // only the bot takes connections from a proxy
      case .secured(let facts):
        refreshKnownPeers(facts)
        events += readJournal(facts)
        events += perform(coordinator.secured(id, facts, now: now))
      case .message(let message):
        if case .hello(_, let name, _, _, _, _) = message, let facts = coordinator.connections[id]?.facts {
          refreshKnownPeers(facts, hello: name)
        }
        events += perform(coordinator.received(id, message, now: now))
      case .malformed(let error): events += perform(coordinator.malformed(id, error, now: now))
      case .ended: events += perform(coordinator.ended(id, now: now))
      }
    }
    return events
  }

  // MARK: - Carrying out the coordinator's commands

  func perform(_ commands: [MatchCommand]) -> [MatchEvent] {
    var events: [MatchEvent] = []
    for command in commands {
      switch command {
      case .connect(let id, let address, let endpoint):
        events += open(id, endpoint) { () throws(NetworkError) in try Sockets.startConnect(address, endpoint: endpoint)
        }
      case .reconnect(let id, let address, let endpoint):
        // The numeric address, read without a lookup (`JoinerRoute` looked names up off the loop first).
        events += open(id, endpoint) { () throws(NetworkError) in
          try Sockets.startConnect(network.resolve(address, true)[0], endpoint: endpoint)
        }
      case .connectRelay(let id, let route, let patience): events += openAtRelay(id, route, patience: patience)
      case .send(let id, let message): events += send(message, on: id)
      case .close(let id, let graceful): sockets.close(id, gracefully: graceful)
      case .remember(let name, let key, let address): writes.remember(name: name, key: key, address: address)
      case .bind(let key, let address): writes.bind(key, to: address)
      case .advertise(let state, let watchers): announcement?.show(state, watchers: watchers, now: clock())
      case .advertiseWatchers(let count): announcement?.showWatchers(count, now: clock())
      case .stopAdvertising:
        announcement?.cancel()
        announcement = nil
      case .log(let line): log.write(line)
      case .report(let event): events.append(event)
      case .keepRecord(let record, let file): files.keep(record, file: file)
      case .lookUpRecord(let key, let name): events += files.lookUpRecord(against: key, name: name)
      case .keepJournal(let journal, let peer): files.keepJournal(journal, peer: peer)
      case .endJournal(let peer): files.endJournal(peer: peer)
      }
    }
    return events
  }

  /// Joiner: a socket for connection `id`, a connection to the host still being set up (TLS starts once it is
  /// writable). A failure is the coordinator's to judge.
  private func open(_ id: ConnectionID, _ endpoint: Endpoint, _ socket: () throws(NetworkError) -> Int32)
    -> [MatchEvent]
  {
    let host = coordinator.expectedName(at: endpoint)
    var fd: Int32 = -1
    do {
      fd = try socket()
      let connection = try PeerConnection(
        fd: fd, context: try contexts.client(expectedHost: host, boundAddress: coordinator.boundAddress),
        peerAddress: endpoint.description,
        serverName: options.caFile != nil ? host : nil)
      sockets.add(connection, as: id)
      return []
    } catch {
      if fd >= 0 { close(fd) }
      let failure: MatchEnd = (error as? NetworkError).map { .network($0) } ?? .setup(SetupFailure(error))
      return perform(coordinator.failed(id, failure, now: clock()))
    }
  }
}

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

/// One networked match on the event loop: the host's listeners, the sockets of its connections, the LAN
/// announcement and the files, around the side that decides everything (`HostCoordinator` or
/// `JoinerCoordinator`). It turns what the sockets say into the coordinator's events and carries out its
/// commands. No threads: once given a loop (`watch(on:ready:)`) its sockets register themselves; the owner hands
/// it what was ready (`handle(_:)`) and calls `tick()` at `nextDeadline`.
public final class NetworkMatch {
  public let role: Role
  private let profile: Profile
  let identity: Identity
  private let options: NetworkOptions
  private let rules: Rules
  /// Host: the time control its terms offer (a joiner's game has the host's: `session?.timeControl`).
  package let timeControl: TimeControl
  let log: Log
  let clock: () -> Double
  /// The side of the match that decides: a `HostCoordinator` or a `JoinerCoordinator`.
  var coordinator: any MatchRole
  /// The connections on the wire, by the coordinator's numbers, and the goodbyes going out.
  let sockets: MatchSockets
  /// The TLS contexts its connections are made with.
  let contexts: MatchContexts
  /// known_peers changes, off the loop once `MatchOnLoop` gives them a worker.
  let writes: KnownPeersWrites
  /// Game records written and looked up, off the loop once `MatchOnLoop` gives it a worker.
  let files: MatchFileWork
  /// Host: its listening sockets and its door.
  private(set) var listener: HostListener?
  public private(set) var port: UInt16 = 0
  /// The host's DNS-SD advertisement (nil when not advertising or discovery is unavailable).
  private(set) var announcement: LANAnnouncement?
  /// Joiner: the name of the LAN game chosen, which a CA-issued certificate must carry (unless --peer-name
  /// says another): the numeric address mDNS handed out proves nothing about who answers there.
  public var lanGameName: String?

  /// Where finished games are recorded (nil: not recorded).
  package var archive: GameArchive? {
    didSet {
      files.archive = archive
      coordinator.records = archive.map { _ in MatchRecords(signedBy: identity, isHost: role == .host) }
    }
  }
  /// Host: after an opponent leaves wait for the next (until the player quits): full screen; plain --keep-hosting.
  public var keepsHosting: Bool {
    get { host?.keepsHosting ?? false }
    set { withHost { $0.keepsHosting = newValue } }
  }
  /// Host: what the player is told when hosting begins (where to join, the key), told again after each opponent.
  public var welcome: [MatchEvent] {
    get { host?.welcome ?? [] }
    set { withHost { $0.welcome = newValue } }
  }
  /// Joiner: the fingerprint the LAN advertisement promised; the host's certificate must match it.
  public var advertisedFingerprint: Fingerprint? {
    get { joiner?.advertisedFingerprint }
    set { withJoiner { $0.advertisedFingerprint = newValue } }
  }
  /// Joiner: the key of the invite joined with (pinned by the options); remembered once the host is reached.
  public var inviteKey: Fingerprint? {
    get { joiner?.inviteKey }
    set { withJoiner { $0.inviteKey = newValue } }
  }
  /// Host: what each source address may do (the settings' deny list, connections, new keys); nil: no limits.
  package var sourceLimits: SourceLimits? {
    get { host?.limits }
    set { withHost { $0.limits = newValue } }
  }
  public var finished: MatchEnd? { coordinator.finished }
  /// Joiner: a host name to look up again before reconnecting (the front end's loop does it on a worker
  /// thread, then calls `reconnect(to:)`): a host whose address changed is found again.
  public var nameToResolve: Endpoint? { joiner?.nameToResolve }

  var host: HostCoordinator? { coordinator as? HostCoordinator }
  package var joiner: JoinerCoordinator? { coordinator as? JoinerCoordinator }

  /// Runs `body` on the host's side (nothing on a joiner's).
  @discardableResult
  func withHost<T>(_ body: (inout HostCoordinator) -> T) -> T? {
    guard var host else { return nil }
    let result = body(&host)
    coordinator = host
    return result
  }

  /// Runs `body` on the joiner's side (nothing on a host's).
  @discardableResult
  func withJoiner<T>(_ body: (inout JoinerCoordinator) -> T) -> T? {
    guard var joiner else { return nil }
    let result = body(&joiner)
    coordinator = joiner
    return result
  }

  public init(
    role: Role, profile: Profile, identity: Identity, options: NetworkOptions, rules: Rules,
    timeControl: TimeControl = .none, opening: Opening = .standard, log: Log, clock: @escaping () -> Double
  ) {
    self.role = role
    self.profile = profile
    self.identity = identity
    self.options = options
    // The host's rule variant travels in its terms (protocol version 4) and its advert.
    self.rules = rules
    self.timeControl = timeControl
    self.log = log
    self.clock = clock
    sockets = MatchSockets(clock: clock, log: log)
    contexts = MatchContexts(profile: profile, identity: identity, options: options)
    writes = KnownPeersWrites(profile: profile, log: log)
    files = MatchFileWork(profile: profile, log: log)
    let environment = MatchEnvironment.program
    switch role {
    case .host:
      coordinator = HostCoordinator(
        name: profile.name, rules: rules, gracePeriod: options.gracePeriod, timeControl: timeControl,
        opening: opening, environment: environment)
    case .joiner:
      coordinator = JoinerCoordinator(
        name: profile.name, rules: rules, gracePeriod: options.gracePeriod, environment: environment)
    }
    coordinator.journal = identity.publicKeyBase64.map(MatchJournal.init(myKey:))
  }

  /// Hands the coordinator the lines of known_peers its next decision needs, read now (`KnownPeersQuery`, through
  /// the index): the peer's key's, its names' (certificate's, hello's) and a joiner's typed address's. Called when
  /// TLS finished and when a hello came, before the coordinator decides. Nil when known_peers cannot be read.
  private func refreshKnownPeers(_ facts: PeerFacts, hello: String? = nil) {
    let certificate = facts.certificate
    let query = KnownPeersQuery(
      key: certificate?.fingerprint, names: [certificate?.commonName, hello].compactMap { $0 },
      address: joiner?.boundAddress)
    coordinator.knownPeersChanged(try? contexts.knownPeers(query))
  }

  /// Connections still sending their last bytes: a front end that is ending waits for these (at most
  /// `ClosingSockets.linger` seconds), so the goodbye gets out.
  public var lingering: Int { sockets.closingCount + writes.pending + files.pending }

  /// Host: the invite `tictactoe invite` reads (withdrawn when the match goes).
  package lazy var invite = PublishedInvite(paths: profile.paths)
  /// Host: ask the router to open the port (the front end's loop runs `PortMappingOnLoop`).
  public var mapsPort = false
  /// Host: the full-screen UI offers to ask the router (nothing decided it yet: no option, no setting).
  public var offersPortMapping = false
  /// Host: the address given to `host(bind:)`, for the invite.
  private(set) var hostBind: String?
  /// Joiner: the relay of the invite joined with (tried beside its addresses), or nil.
  public var inviteRelay: Invite.Relay?
  /// Connections on their way to a relay, until TCP is up: where they go and how long a joiner waits there.
  var relayRoutes: [ConnectionID: (RelayRoute, Double?)] = [:]
  public var paths: Paths { profile.paths }
  /// Where names are looked up and ports listened on: the machine's network, or a test's in memory.
  public var network = Network.system

  /// Host: the invite again, with `external` (a port the router opened) as its first address, published for
  /// `tictactoe invite`; nil when there is nothing new to say.
  func inviteWith(external: Invite.Address) -> Invite? {
    guard
      let invite = RunningHosts.invite(
        key: identity.fingerprint, port: port, bind: hostBind, external: external, relay: relayInvite)
    else { return nil }
    self.invite.publish(invite)
    return invite
  }

  deinit {
    announcement?.cancel()
    listener?.close()
  }

  /// Host: announces the game on the LAN as `_tictactoe._tcp`. When the avahi-daemon is missing the game is
  /// hosted all the same and the player is told why it cannot be found on the LAN.
  public func advertise() -> [MatchEvent] {
    guard role == .host else { return [] }
    let (announcement, said) = LANAnnouncement.start(
      name: profile.name, port: port, rules: rules, timeControl: timeControl, opening: opening,
      key: identity.fingerprint, log: log)
    self.announcement = announcement
    return said
  }

  public var session: NetSession? { coordinator.session }
  public var profileName: String { profile.name }
  public var warnings: [String] { options.warnings }
  /// Joiner: the host's terms its player is asked to accept (`answer(accept:)`).
  public var pendingTerms: HostTerms? { coordinator.termsAsked }

  // MARK: - Starting

  /// Host: listens for joiners.
  public func host(bind: String?, port: UInt16) throws(NetworkError) {
    let listener = try HostListener(bind: bind, port: port, network: network, log: log)
    self.listener = listener
    hostBind = bind
    self.port = listener.port
    log.write("hosting on \(bind ?? "*"):\(self.port)")
  }

  // MARK: - The event loop

  /// Host: whether a joiner may go in now (a pending place is free, or one makes room).
  private var mayAccept: Bool { host?.mayAccept(now: clock()) ?? false }
  /// Host: the pending connections from each address, so those at the door are let in fairly.
  private var pendingByAddress: [String: Int] { coordinator.connections.pendingByAddress }

  /// The next time `tick` must run.
  public var nextDeadline: Double? {
    // A wait at the pending cap ends when the oldest pending connection may make room: one at the door goes in.
    let door = listener?.nextDeadline(
      reopens: host?.acceptReopens.flatMap { $0 > clock() ? $0 : nil }, now: clock())
    return [coordinator.nextDeadline, sockets.nextDeadline, door, announcement?.watchersDue].compactMap { $0 }.min()
  }

  /// What the loop found ready in a round: the announcement, the listener and its door, then each connection
  /// in the order they were numbered; each connection is then watched for writing as its queue says.
  func handle(_ ready: ReadyRound) -> [MatchEvent] {
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
        if coordinator.connections[id]?.quiet == true { withHost { $0.heard(id) } }
        events += read(id, connection)
      }
    }
    return events
  }

  public func tick() -> [MatchEvent] {
    sockets.expireClosing()
    announcement?.publishDueWatchers(now: clock())
    let events = perform(coordinator.tick(now: clock()))
    let letIn = listener?.tick(
      now: clock(), mayAccept: { mayAccept }, pendingFrom: { pendingByAddress }, admit: { accepted($0, peer: $1) })
    return events + (letIn ?? [])
  }

  private func accepted(_ fd: Int32, peer: String) -> [MatchEvent] {
    guard let (id, commands) = withHost({ $0.accepted(peer: peer, now: clock()) }) else {
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

  /// Joiner: the TCP connection is set up, or failed. A connection to a relay (host or joiner) greets it.
  private func connected(_ id: ConnectionID, _ connection: PeerConnection) -> [MatchEvent] {
    if let events = connectedToRelay(id, connection) { return events }
    if let endpoint = joiner?.connectingEndpoint, let failure = Sockets.connectFailure(connection.fd, endpoint) {
      return perform(coordinator.failed(id, .network(failure), now: clock()))  // refused or unreachable
    }
    withJoiner { $0.connected(id, remote: Sockets.remoteEndpoint(connection.fd)) }
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
        if case .hello(_, let name, _, _, _) = message, let facts = coordinator.connections[id]?.facts {
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
    let host = lanGameName ?? endpoint.host
    var fd: Int32 = -1
    do {
      fd = try socket()
      let connection = try PeerConnection(
        fd: fd, context: try contexts.client(expectedHost: host, boundAddress: joiner?.boundAddress),
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

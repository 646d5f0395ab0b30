import GameCore
import Security
import Session
import Transport
import UntrustedText
import WireProtocol

/// The decisions of one networked match, host or joiner: which connection plays the game, whom to let in,
/// what to ask the player, when to give a connection up, how a dropped game is taken up again. Events in (a
/// connection accepted, secured, a message, a failure, the clock, the player's answer), commands out (send,
/// close, connect, remember, report). Pure: no sockets, no files, no clock of its own; `NetworkMatch` carries
/// the commands out.
struct MatchCoordinator {
  /// Seconds a connection has to connect and finish TLS.
  static let handshakeTimeout = 10.0
  /// Host: seconds a secured joiner has to say hello (its player may be reading the question about our key).
  static let helloTimeout = 60.0
  /// Host: connections not yet past hello beyond this many make room by closing the oldest (a joiner whose
  /// key the player is being asked about is never among them).
  static let maximumPending = 32

  struct Configuration {
    var role: Role
    var name: String
    var rules: Rules
    var gracePeriod: Double
  }

  let configuration: Configuration
  var role: Role { configuration.role }
  private let environment: MatchEnvironment
  /// Host: after an opponent leaves wait for the next one instead of ending, until the player quits.
  var keepsHosting = false
  /// Host: what the player is told when hosting begins, told again after each opponent.
  var welcome: [MatchEvent] = []
  /// Joiner: the fingerprint the LAN advertisement promised; the host's certificate must match it.
  var advertisedFingerprint: Fingerprint?
  /// Joiner: the key of the invite joined with; remembered once the host is reached.
  var inviteKey: Fingerprint?
  /// Where finished games are recorded (nil: not recorded).
  var records: MatchRecords?
  private(set) var finished: MatchEnd?
  private(set) var connections: [ConnectionID: MatchConnection] = [:]
  /// The connections in the order they came (the oldest first).
  private var order: [ConnectionID] = []
  private var lastID = 0
  /// The connection whose game this is (host: the joiner it let in or is asking about). While a dropped game
  /// is kept, its connection is closed but stays the active one.
  private(set) var active: ConnectionID?
  private(set) var question: TrustQuestion?
  /// The key of the peer the game is played with: a reconnection must present the same.
  private var gamePeerKey: Fingerprint?
  private(set) var route = JoinerRoute()
  /// Joiner: a host name to look up again before reconnecting; then `resolved` is called.
  private(set) var nameToResolve: Endpoint?

  init(configuration: Configuration, environment: MatchEnvironment) {
    self.configuration = configuration
    self.environment = environment
  }

  var session: NetSession? { active.flatMap { connections[$0]?.session } }
  var activeConnection: MatchConnection? { active.flatMap { connections[$0] } }

  /// A joiner's host as typed, to which its key is bound in known_peers. Not for a LAN join: there the
  /// advertised key decides, and the address is whatever the network handed out.
  var boundAddress: String? {
    guard role == .joiner, advertisedFingerprint == nil else { return nil }
    return route.endpoint?.description
  }

  /// The next time `tick` must run.
  var nextDeadline: Double? {
    var deadlines: [Double?] = [route.reconnectAt, waitingGame.flatMap { connections[$0]?.session?.nextDeadline }]
    for connection in connections.values {
      switch connection.phase {
      case .connecting, .handshaking, .awaitingResume: deadlines.append(connection.deadline)
      case .greeting: deadlines += [connection.deadline, connection.session?.nextDeadline]
      case .asking, .playing: deadlines.append(connection.session?.nextDeadline)
      case .closed: break
      }
    }
    return deadlines.compactMap { $0 }.min()
  }

  /// The game whose connection dropped, kept for the grace period (its connection is closed).
  private var waitingGame: ConnectionID? {
    guard let active, let connection = connections[active], connection.isClosed,
      case .lost = connection.session?.link
    else { return nil }
    return active
  }

  // MARK: - Connections

  private mutating func open(_ peer: String, _ phase: MatchConnection.Phase, deadline: Double) -> ConnectionID {
    lastID += 1
    let id = ConnectionID(value: lastID)
    connections[id] = MatchConnection(peer: peer, phase: phase, deadline: deadline)
    order.append(id)
    return id
  }

  private mutating func close(_ id: ConnectionID, graceful: Bool) -> [MatchCommand] {
    guard let connection = connections[id], !connection.isClosed else { return [] }
    connections[id]?.phase = .closed
    return [.close(id, graceful: graceful)]
  }

  /// Forgets closed connections other than the game's.
  private mutating func sweep() {
    for id in order where connections[id]?.isClosed == true && id != active { connections[id] = nil }
    order.removeAll { connections[$0] == nil }
  }

  /// Runs `outputs`-producing work on `id`'s session and carries out what the session said.
  private mutating func act(
    on id: ConnectionID, now: Double, _ body: (inout NetSession) -> [SessionOutput]
  ) -> [MatchCommand] {
    guard var session = connections[id]?.session else { return [] }
    let outputs = body(&session)
    connections[id]?.session = session
    return apply(outputs, on: id, now: now)
  }

  private func peer(_ id: ConnectionID) -> String { connections[id]?.peer ?? "?" }

  // MARK: - Events

  /// Host: a joiner connected from `peer`. At the cap the oldest pending connection makes room: a flood of
  /// silent connections only churns itself, and a real joiner (whose handshake takes milliseconds) gets in.
  mutating func accepted(peer: String, now: Double) -> (ConnectionID, [MatchCommand]) {
    var commands: [MatchCommand] = []
    let pending = order.filter { connections[$0]?.isPending == true }
    let droppable = pending.filter { [.handshaking, .greeting].contains(connections[$0]?.phase) }
    if pending.count >= MatchCoordinator.maximumPending, let oldest = droppable.first {
      let count = pending.count
      commands.append(
        .log(
          "\(count) connections are already setting up TLS or waiting for hello: dropping the oldest, \(self.peer(oldest))"
        ))
      commands += close(oldest, graceful: false)
    }
    commands.append(.log("connection from \(peer)"))
    let id = open(peer, .handshaking, deadline: now + MatchCoordinator.handshakeTimeout)
    sweep()
    return (id, commands)
  }

  /// Joiner: connect to the first of `candidates` that answers, in order (an invite gives several).
  mutating func join(_ candidates: [(Endpoint, Sockets.Address)], now: Double) -> [MatchCommand] {
    route.start(candidates)
    return connectToNextAddress(after: nil, now: now)
  }

  /// Joiner: the name could not be resolved (or another failure before any connection): the match ends.
  mutating func joinFailed(_ end: MatchEnd) -> [MatchCommand] {
    guard finished == nil else { return [] }
    finished = end
    return [.log("cannot join: \(end)"), .report(.finished(end))]
  }

  private mutating func connectToNextAddress(after failure: MatchEnd?, now: Double) -> [MatchCommand] {
    guard let endpoint = route.endpoint else { return [] }
    guard let (next, address) = route.nextAddress() else {
      return joinFailed(failure ?? .network(.unreachable(endpoint, reason: "no usable address")))
    }
    let id = open(next.description, .connecting, deadline: now + MatchCoordinator.handshakeTimeout)
    active = id
    let trying = failure.map { [MatchCommand.report(.status("\($0) Trying \(address)\u{2026}"))] } ?? []
    return trying + [.log("connecting to \(next) at \(address)"), .connect(id, address, for: next)]
  }

  /// Joiner: where the connection being set up goes (for naming a refusal).
  var connectingEndpoint: Endpoint? { route.hostAddress ?? route.endpoint }

  /// Joiner: the TCP connection is up (at `remote`); TLS starts.
  mutating func connected(_ id: ConnectionID, remote: Endpoint?) {
    guard connections[id]?.phase == .connecting else { return }
    connections[id]?.phase = .handshaking
    route.reached(remote)
  }

  /// TLS is set up.
  mutating func secured(_ id: ConnectionID, _ facts: PeerFacts, now: Double) -> [MatchCommand] {
    guard var connection = connections[id], !connection.isClosed else { return [] }
    connection.facts = facts
    connections[id] = connection
    let key = facts.certificate?.fingerprint
    var commands: [MatchCommand] = [
      .log("secured \(connection.peer): \(facts.protocolVersion) \(facts.cipher), peer \(key?.description ?? "?")")
    ]
    if connection.isReconnect { return commands + resecured(id, now: now) }
    if role == .host, let game = active, game != id, connections[game]?.session?.keepsGameOnDrop == true,
      let key, key == gamePeerKey
    {
      // The opponent's key while its game is kept: wait for its first message (resume, or a new hello).
      connections[id]?.phase = .awaitingResume
      connections[id]?.deadline = now + MatchCoordinator.handshakeTimeout
      return commands
    }
    let session = newSession(now: now)
    connections[id]?.session = session
    connections[id]?.phase = .greeting
    guard role == .joiner else {
      connections[id]?.deadline = now + MatchCoordinator.helloTimeout
      return commands + act(on: id, now: now) { $0.start(now: now) }
    }
    connections[id]?.deadline = nil
    gamePeerKey = key
    if let advertised = advertisedFingerprint, let key, advertised != key {
      return commands + fail(id, .impostor(advertised: advertised, presented: key), now: now)
    }
    commands.append(
      .report(.status("Connected to \(connection.peer) over \(facts.protocolVersion) (\(facts.cipher)).")))
    if let code = facts.verification { commands.append(.report(.verification(code))) }
    if case .askUser(let name, let fingerprint) = facts.trust {
      connections[id]?.phase = .asking
      let question = TrustQuestion(
        role: .joiner, peerName: PeerText(name), certificateName: PeerText(name), fingerprint: fingerprint,
        lookalikes: MatchTrust.lookalikes(facts, claiming: nil, known: environment.knownPeers()))
      self.question = question
      return commands + [.report(.ask(question))]
    }
    if case .trusted(.knownPeer) = facts.trust, let address = boundAddress, let key {
      commands.append(.bind(key, address: address))  // a known key met at a new address: the key decides
    }
    return commands + remembered(facts) + begin(id, now: now)
  }

  /// A message from the peer.
  mutating func received(_ id: ConnectionID, _ message: Message, now: Double) -> [MatchCommand] {
    guard let connection = connections[id], !connection.isClosed else { return [] }
    var commands: [MatchCommand] = []
    if connection.phase == .awaitingResume { commands += resumeOrGreet(id, first: message, now: now) }
    if case .recordSignature(let game, let date, let signature) = message, id == active, records != nil {
      commands += carry(records?.received(game: Int(game), date: date, signature: signature), on: id)
    }
    commands += act(on: id, now: now) { $0.receive(message, now: now) }
    sweep()
    return commands
  }

  /// A frame that could not be read.
  mutating func malformed(_ id: ConnectionID, _ error: WireError, now: Double) -> [MatchCommand] {
    defer { sweep() }
    return act(on: id, now: now) { $0.receiveMalformed(error, now: now) }
  }

  /// The peer closed the connection.
  mutating func ended(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    defer { sweep() }
    guard connections[id]?.session != nil else { return fail(id, .session(.connectionLost), now: now) }
    return act(on: id, now: now) { $0.connectionLost(now: now) }
  }

  /// The connection failed (a refused connect, a TLS error, a socket error).
  mutating func failed(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    defer { sweep() }
    return fail(id, end, now: now)
  }

  /// The clock moved on: deadlines, heartbeats, silence, the grace period, reconnections.
  mutating func tick(now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = []
    if let waiting = waitingGame { commands += act(on: waiting, now: now) { $0.tick(now: now) } }
    if let due = route.reconnectAt, now >= due, waitingGame != nil { commands += reconnect(now: now) }
    for id in order {
      guard let connection = connections[id] else { continue }
      let late = connection.deadline.map { now >= $0 } ?? false
      switch connection.phase {
      case .connecting where late, .handshaking where late, .awaitingResume where late:
        let seconds = Int(MatchCoordinator.handshakeTimeout)
        commands += fail(id, .network(.handshakeTimedOut(seconds: seconds)), now: now)
      case .greeting where late:
        commands.append(.log("\(connection.peer) did not say hello within \(Int(MatchCoordinator.helloTimeout)) s"))
        commands += fail(id, .network(.handshakeTimedOut(seconds: Int(MatchCoordinator.helloTimeout))), now: now)
      case .greeting, .asking, .playing:
        commands += act(on: id, now: now) { $0.tick(now: now) }
      case .connecting, .handshaking, .awaitingResume, .closed: break
      }
    }
    sweep()
    return commands
  }

  private func newSession(now: Double) -> NetSession {
    NetSession(
      configuration: .init(
        role: role, name: configuration.name, software: environment.software, rules: configuration.rules,
        gracePeriod: configuration.gracePeriod),
      coinBytes: environment.coin(), sha256: environment.sha256, now: now)
  }

  private func remembered(_ facts: PeerFacts?) -> [MatchCommand] {
    let command = MatchTrust.remembered(
      facts, inviteKey: inviteKey, boundAddress: boundAddress, known: environment.knownPeers)
    return command.map { [$0] } ?? []
  }

  // MARK: - Reconnecting (joiner)

  /// The next attempt to reach the host again while the game is kept. A host typed as an address is reached
  /// there; one typed as a name is looked up again first.
  private mutating func reconnect(now: Double) -> [MatchCommand] {
    route.attemptStarts()
    guard let endpoint = route.endpoint else { return [] }
    let status = MatchCommand.report(.status("Reconnecting to \(endpoint) (attempt \(route.attempts))\u{2026}"))
    let log = MatchCommand.log("reconnecting to \(endpoint), attempt \(route.attempts)")
    if !Sockets.isNumeric(endpoint.host) {
      nameToResolve = endpoint
      return [log, status]
    }
    let id = open(endpoint.description, .connecting, deadline: now + MatchCoordinator.handshakeTimeout)
    connections[id]?.isReconnect = true
    return [log, status, .reconnect(id, to: route.hostAddress ?? endpoint)]
  }

  /// The host's name looked up again (`nameToResolve`): connect to the first of the addresses.
  mutating func resolved(_ addresses: Result<[Sockets.Address], NetworkError>, now: Double) -> [MatchCommand] {
    guard let endpoint = nameToResolve else { return [] }
    nameToResolve = nil
    guard waitingGame != nil, finished == nil else { return [] }
    switch addresses {
    case .failure(let error):
      return reconnectFailed("\(error)", now: now)
    case .success(let found):
      guard let first = found.first else { return reconnectFailed("\(endpoint.host) has no address", now: now) }
      route.forgetHostAddress()  // wherever it is now
      let id = open(endpoint.description, .connecting, deadline: now + MatchCoordinator.handshakeTimeout)
      connections[id]?.isReconnect = true
      return [.connect(id, first, for: endpoint)]
    }
  }

  private mutating func reconnectFailed(_ reason: String, now: Double) -> [MatchCommand] {
    let delay = route.attemptFailed(now: now)
    let wait = delay < 1 ? "\(delay)" : "\(Int(delay))"  // "0.5", "2"
    let sentence = reason.hasSuffix(".") ? reason : reason + "."
    return [
      .log("reconnection attempt \(route.attempts) failed: \(reason)"),
      .report(.status("Reconnection attempt \(route.attempts) failed: \(sentence) Next try in \(wait) s.")),
    ]
  }

  /// A new connection to the host is secured. Only the key the game was played with may take it up.
  private mutating func resecured(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    let presented = connections[id]?.facts?.certificate?.fingerprint
    guard let old = waitingGame, let session = connections[old]?.session else { return close(id, graceful: true) }
    if let before = gamePeerKey, let presented, before != presented {
      route.stop()
      let end = MatchEnd.keyChangedOnReconnect(before: before, now: presented)
      finished = end
      return close(id, graceful: false) + [.log("\(end)"), .report(.finished(end))]
    }
    let attempts = route.attempts
    route.reconnected()
    connections[old]?.session = nil
    connections[id]?.session = session
    connections[id]?.phase = .playing
    connections[id]?.admitted = true
    connections[id]?.deadline = nil
    connections[id]?.isReconnect = false
    active = id
    return [.log("reconnected to \(peer(id)) after \(attempts) attempt(s): asking to resume")]
      + act(on: id, now: now) { $0.requestResume(now: now) }
  }

  // MARK: - Letting in (host)

  /// Host: the first message on a connection from the waiting game's key. A resume request takes the game
  /// over (dropping the old connection if it still looked alive); anything else is a new hello.
  private mutating func resumeOrGreet(_ id: ConnectionID, first message: Message, now: Double) -> [MatchCommand] {
    connections[id]?.phase = .greeting
    connections[id]?.deadline = now + MatchCoordinator.helloTimeout
    guard case .resume = message, let old = active, connections[old]?.session?.keepsGameOnDrop == true else {
      var commands: [MatchCommand] = []
      var kept: Bool?
      if case .hello(_, let name, _) = message, let old = active, connections[old]?.session?.keepsGameOnDrop == true {
        // The same player greets us afresh: its program lost the game (restarted, or gave up during the coin
        // toss). The kept game is over; this is a new match.
        let name = PeerText(name)
        kept = connections[old]?.session?.hostPlayedXLast
        commands.append(.log("\(name) at \(peer(id)) came back without the game: starting a new match"))
        commands += close(old, graceful: false)
        connections[old]?.session = nil
        active = nil
        commands.append(.report(.status("\(name) came back without the last game (restarted?): a new match begins.")))
      }
      var session = newSession(now: now)
      // Leaving and coming back must not re-roll the coin: the new match starts with the same first player.
      session.keptHostPlaysX = kept
      connections[id]?.session = session
      return commands + act(on: id, now: now) { $0.start(now: now) }
    }
    var commands: [MatchCommand] = [.log("\(peer(id)) is back with the same key: resuming the game")]
    commands += act(on: old, now: now) { $0.peerReconnected(now: now) }  // closes the old one if it looked alive
    let resumed = connections[old]?.session
    connections[id]?.session = resumed
    connections[old]?.session = nil
    connections[id]?.phase = .playing
    connections[id]?.admitted = true
    connections[id]?.deadline = nil
    active = id
    return commands
  }

  /// Host: a joiner said hello. A busy host refuses; new peers are asked about; known ones are let in.
  private mutating func hostDecides(_ id: ConnectionID, name: PeerText, now: Double) -> [MatchCommand] {
    guard active == nil || active == id else {
      let text = "\(configuration.name) is already playing; try again later"
      return act(on: id, now: now) { $0.decline(.busy, text: text, now: now) }
    }
    active = id
    connections[id]?.deadline = nil
    let facts = connections[id]?.facts
    let shown = MatchTrust.shownName(facts, claimed: name, known: environment.knownPeers)
    let software = connections[id]?.session?.peerSoftware ?? ""
    var commands: [MatchCommand] = [.report(.session(.peerHello(name: shown, software: software)))]
    if let code = facts?.verification { commands.append(.report(.verification(code))) }
    // A new key under a name like one the player knows is a new player, never that peer: say so, with both keys.
    let lookalikes = MatchTrust.lookalikes(facts, claiming: name, known: environment.knownPeers())
    if case .askUser(let certificateName, let fingerprint) = facts?.trust {
      connections[id]?.phase = .asking
      let question = TrustQuestion(
        role: .host, peerName: name, certificateName: PeerText(certificateName), fingerprint: fingerprint,
        lookalikes: lookalikes)
      self.question = question
      return commands + [.report(.ask(question))]
    }
    if let certificate = facts?.certificate, !lookalikes.isEmpty {
      let warning = TrustQuestion.notTheOneYouKnow(
        claimed: name, fingerprint: certificate.fingerprint, lookalikes: lookalikes)
      commands.append(.log(warning.joined(separator: " ")))
      commands += warning.map { .report(.status($0)) }
    }
    commands.append(.log("letting in \(shown) (\(facts?.certificate?.fingerprint.description ?? "?"))"))
    return commands + remembered(facts) + admit(id, now: now)
  }

  private mutating func admit(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard connections[id]?.session != nil else { return [] }
    connections[id]?.phase = .playing
    connections[id]?.admitted = true
    gamePeerKey = connections[id]?.facts?.certificate?.fingerprint
    return [.advertise(.playing)] + act(on: id, now: now) { $0.accept(now: now) }
  }

  /// Joiner: say hello once the host is trusted.
  private mutating func begin(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    connections[id]?.phase = .playing
    return act(on: id, now: now) { $0.start(now: now) }
  }

  /// Host that keeps hosting: forgets the opponent whose match is over and waits for the next one.
  private mutating func nextOpponent(after end: MatchEnd) -> [MatchCommand] {
    var commands: [MatchCommand] = [.log("match over (\(end)); hosting on for the next opponent")]
    if let active { commands += close(active, graceful: true) }
    active = nil
    question = nil
    gamePeerKey = nil
    return commands + [.advertise(.waiting), .report(.opponentGone(end))] + welcome.map { .report($0) }
  }

  private mutating func fail(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    guard let connection = connections[id] else { return [] }
    var commands: [MatchCommand] = [.log("\(connection.peer): \(end)")]
    if id == active, connection.session?.keepsGameOnDrop == true {
      // The connection broke in the middle of the match: the game is kept for the grace period.
      return commands + act(on: id, now: now) { $0.connectionLost(now: now) }
    }
    commands += close(id, graceful: false)
    if role == .joiner, id == active, connection.session == nil, !connection.isReconnect, route.hasUntried {
      active = nil  // the first connection: the host may answer at another of its addresses
      return commands + connectToNextAddress(after: end, now: now)
    }
    if connection.isReconnect {
      guard waitingGame != nil else { return commands }
      // Whoever answers there is not trusted (a changed key, a wrong pin): that will not pass by retrying.
      if case .network(.tls(.untrusted)) = end {
        route.stop()
        finished = end
        return commands + [.report(.finished(end))]
      }
      return commands + reconnectFailed("\(end)", now: now)
    }
    guard id == active || role == .joiner else { return commands }
    if id == active, role == .host, keepsHosting, connection.admitted { return commands + nextOpponent(after: end) }
    if id == active, role == .host, !connection.admitted {
      // The candidate went away before the game began: keep hosting.
      active = nil
      question = nil
      return commands + [.advertise(.waiting), .report(.status("A joiner from \(connection.peer) left: \(end)"))]
    }
    finished = end
    return commands + [.report(.finished(end))]
  }

  // MARK: - What the session says

  private mutating func apply(_ outputs: [SessionOutput], on id: ConnectionID, now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = []
    for output in outputs {
      guard let connection = connections[id] else { break }
      if id == active, let session = connection.session {
        let peerKey = connection.facts?.certificate?.publicKeyBase64
        commands += carry(records?.after(output, session: session, peerKey: peerKey), on: id)
      }
      switch output {
      case .send(let message):
        if !connection.isClosed { commands.append(.send(id, message)) }  // else sent again on resume
      case .connectionLost(let until):
        let seconds = Int((until - now).rounded())
        commands.append(.log("connection to \(connection.peer) lost mid-match: keeping the game \(seconds) s"))
        commands += close(id, graceful: false)
        guard id == active else { continue }
        if role == .joiner { route.dropped(now: now) }
        commands.append(.report(.session(output)))
      case .chat where question != nil:
        // Not admitted yet: its words must not appear under the question about its key.
        commands.append(.log("chat from \(connection.peer) dropped: the player has not decided on its key"))
      case .resumed(let game, let ply):
        commands.append(.log("resumed game \(game) at ply \(ply) with \(connection.peer)"))
        if id == active { commands.append(.report(.session(output))) }
      case .closed(let full):
        commands.append(.log("session with \(connection.peer) ended: \(full)"))
        commands += close(id, graceful: true)
        commands += closed(id, full, admitted: connection.admitted)
      case .peerHello(let name, let software):
        commands.append(.log("hello from \(name) (\(software)) at \(connection.peer)"))
        if role == .host {
          commands += hostDecides(id, name: name, now: now)
        } else {
          let shown = MatchTrust.shownName(connection.facts, claimed: name, known: environment.knownPeers)
          commands.append(.report(.session(.peerHello(name: shown, software: software))))
        }
        if records != nil, let key = connection.facts?.certificate?.fingerprint {
          commands += greeting(key, helloName: name)
        }
      case .gameStarted(1, let mark) where id == active && connection.session?.firstPlayerWasKept == true:
        let who = role == .host ? "Your opponent" : "You"
        commands += [
          .log("first player kept from the game left within the grace period: \(mark) here"),
          .report(
            .status("\(who) left a game here moments ago and came back: its first player is kept (no new coin toss).")),
          .report(.session(output)),
        ]
      default:
        if id == active { commands.append(.report(.session(output))) }
      }
    }
    return commands
  }

  /// The session on `id` ended with `full`.
  private mutating func closed(_ id: ConnectionID, _ full: SessionEnd, admitted: Bool) -> [MatchCommand] {
    // A peer not let in (or about whose key the player is still asked) is shown only its key and claimed name:
    // not its goodbye or error text.
    let asked = id == active && question != nil
    let end = (role == .host ? admitted && !asked : !asked) ? full : full.withoutPeerText
    if id != active, role == .host, end != .localQuit {
      // A joiner that was never let in: the host player hears what happened, and keeps hosting.
      return [.report(.status("A connection from \(peer(id)) was closed: \(end)"))]
    }
    guard id == active else { return [] }
    if role == .host, keepsHosting, end != .localQuit { return nextOpponent(after: .session(end)) }
    route.stop()
    finished = .session(end)
    return [.stopAdvertising, .report(.finished(.session(end)))]
  }

  /// The record against this opponent from the saved games, named as the player knows its key, or by the name
  /// it gave.
  private func greeting(_ key: Fingerprint, helloName: PeerText) -> [MatchCommand] {
    let known = environment.knownPeers()?.lookup(fingerprint: key)?.name
    let name = known.map { PeerText($0).description } ?? helloName.description
    return environment.opponentRecord(key, name).map { [.report(.opponentRecord($0))] } ?? []
  }

  /// Carries out a step of the record exchange: the signature to send, the problem to tell.
  private func carry(_ outcome: MatchRecords.Outcome?, on id: ConnectionID) -> [MatchCommand] {
    guard let outcome else { return [] }
    var commands: [MatchCommand] = []
    if let message = outcome.send, connections[id]?.isClosed == false { commands.append(.send(id, message)) }
    if let problem = outcome.problem { commands += [.log(problem), .report(.status(problem))] }
    return commands
  }

  // MARK: - The player's answers and actions

  /// The player's answer to the pending trust question.
  mutating func answer(accept: Bool, now: Double) -> [MatchCommand] {
    guard let question, let id = active else { return [] }
    self.question = nil
    defer { sweep() }
    if accept {
      let remember = MatchCommand.remember(
        name: question.certificateName.unsanitised, key: question.fingerprint, address: boundAddress)
      return [remember] + (role == .host ? admit(id, now: now) : begin(id, now: now))
    }
    if role == .host {
      active = nil
      let text = "\(configuration.name) declined"
      return act(on: id, now: now) { $0.decline(.declined, text: text, now: now) }
    }
    let end = MatchEnd.declinedByPlayer("You did not trust the host's key, so nothing was sent to it.")
    finished = end
    return close(id, graceful: true) + [.report(.finished(end))]
  }

  mutating func play(_ position: Position, now: Double) throws(PlayError) -> [MatchCommand] {
    guard let id = active, var session = connections[id]?.session else { throw .illegal(.gameOver) }
    let outputs = try session.play(position, now: now)
    connections[id]?.session = session
    defer { sweep() }
    return apply(outputs, on: id, now: now)
  }

  /// Runs an action that may be refused (chat, resign, rematch, claim) on the game's session.
  mutating func attempt(
    now: Double, _ action: (inout NetSession) throws(ActionRefusal) -> [SessionOutput]
  ) throws(ActionRefusal) -> [MatchCommand] {
    guard let id = active, var session = connections[id]?.session else {
      throw finished == nil ? .notStarted : .matchOver
    }
    let outputs = try action(&session)
    connections[id]?.session = session
    defer { sweep() }
    return apply(outputs, on: id, now: now)
  }

  /// The player leaves: a goodbye to the game's peer, and every connection closed.
  mutating func quit(now: Double) -> [MatchCommand] {
    route.stop()
    var commands: [MatchCommand] = [.stopAdvertising]
    if let active { commands += act(on: active, now: now) { $0.quit(text: "", now: now) } }
    for id in order { commands += close(id, graceful: true) }
    if finished == nil {
      finished = .session(.localQuit)
      commands.append(.report(.finished(.session(.localQuit))))
    }
    sweep()
    return commands
  }
}

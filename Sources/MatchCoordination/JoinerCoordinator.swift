import GameCore
import NetworkFacts
import PeerTrust
import Session
import UntrustedText
import WireProtocol

/// The joiner's side of a match: reaching the host (each of its addresses in turn), judging its key, and
/// reaching it again while a dropped game is kept, where only the key the game was played with may take the
/// game up. Pure (see `MatchRole`).
public struct JoinerCoordinator: MatchRole {
  public var core: MatchCore
  public var route = JoinerRoute()
  /// The fingerprint the LAN advertisement promised; the host's certificate must match it.
  public var advertisedFingerprint: Fingerprint?
  /// The key of the invite joined with; remembered once the host is reached.
  public var inviteKey: Fingerprint?
  /// The name of the LAN game chosen, which a CA-issued certificate must carry (unless --peer-name says another):
  /// the numeric address mDNS handed out proves nothing about who answers there.
  public var lanGameName: String?
  /// The key of the host the game is played with: a reconnection must present the same.
  private(set) var gamePeerKey: Fingerprint?
  /// While the player is asked about the host's key: when the host is told again that the player is deciding.
  private var decidingAgainAt: Double?
  /// The host's terms were put to the player (once a match), and what the host sent meanwhile.
  private var termsAnswered = false
  private var heldForTerms: [Message] = []
  /// The transit relay of the invite joined with, tried beside the direct addresses (nil: none named).
  public var relay: JoinerRelay?
  /// The connection the game is played on was chosen: with a relay, the first on which the host's hello came.
  public var decided = false
  /// A spectator: the game it watches, as the host last told it.
  public var watched: WatchedGame?
  /// Spectator: the latest game seen to its end (its record comes after its result), the parts of a record being
  /// gathered, and the record files kept in this match.
  var watchedEnded: WatchedGame?
  var watchedRecord = WatchedRecord()
  var recordsKept = 0
  /// Spectator: its way back to the host after a drop (rule 23).
  var watchResume = WatchResume()
  /// A spectator that asked for no game, of a host of several: its list of games as read so far.
  public var watchList: WatchGameList?

  public init(name: String, rules: Rules, gracePeriod: Double, environment: MatchEnvironment) {
    core = MatchCore(
      configuration: .init(role: .joiner, name: name, rules: rules, gracePeriod: gracePeriod),
      environment: environment)
  }

  /// The host as typed, to which its key is bound in known_peers. Not for a LAN join: there the advertised
  /// key decides, and the address is whatever the network handed out.
  /// Nor through a relay: the address reached is the relay's.
  public var boundAddress: String? {
    advertisedFingerprint == nil && relay?.won != true ? route.endpoint?.description : nil
  }
  /// Where the connection being set up goes (for naming a refusal).
  public var connectingEndpoint: Endpoint? { route.hostAddress ?? route.endpoint }
  /// A host name to look up again before reconnecting; then `resolved` is called.
  public var nameToResolve: Endpoint? { route.nameToResolve }
  public var ownDeadline: Double? {
    guard core.finished == nil else { return nil }
    let relayStart = decided ? nil : relay?.startAt
    let deciding = core.question == nil && core.termsAsked == nil ? nil : decidingAgainAt
    let givingUp = watchResume.droppedAt.map { $0 + core.configuration.gracePeriod }
    return [route.reconnectAt, deciding, relayStart, givingUp].compactMap { $0 }.min()
  }

  // MARK: - Reaching the host

  /// Connect to the first of `candidates` that answers, in order (an invite gives several).
  /// With `relay` (an invite's), the relay is tried too: after `JoinerRelay.delay`, or at once when every
  /// direct address failed or none resolved.
  public mutating func join(
    _ candidates: [(Endpoint, ResolvedAddress)], relay: JoinerRelay? = nil, now: Double
  ) -> [MatchCommand] {
    route.start(candidates)
    self.relay = relay
    // No direct address resolved (the front end said why): the relay, at once, is all there is.
    if candidates.isEmpty, let relay {
      return relay.isLive ? startRelay(now: now) : joinFailed(relay.failure ?? .session(.connectionLost))
    }
    return connectToNextAddress(after: nil, now: now)
  }

  /// The name could not be resolved (or another failure before any connection): the match ends.
  public mutating func joinFailed(_ end: MatchEnd) -> [MatchCommand] {
    guard core.finished == nil else { return [] }
    core.finished = end
    return [.log("cannot join: \(end)"), .report(.finished(end))]
  }

  private mutating func connectToNextAddress(after failure: MatchEnd?, now: Double) -> [MatchCommand] {
    guard let endpoint = route.endpoint else { return [] }
    guard let (next, address) = route.nextAddress() else {
      return directExhausted(failure ?? .network(.unreachable(endpoint, reason: "no usable address")), now: now)
    }
    let id = core.connections.open(next.description, .connecting, deadline: now + MatchCore.handshakeTimeout)
    core.active = id
    let trying = failure.map { [MatchCommand.report(.status("\($0) Trying \(address)\u{2026}"))] } ?? []
    return trying + [.log("connecting to \(next) at \(address)"), .connect(id, address, for: next)]
  }

  /// The TCP connection is up (at `remote`); TLS starts.
  public mutating func connected(_ id: ConnectionID, remote: Endpoint?) {
    guard core.connections[id]?.phase == .connecting else { return }
    core.connections[id]?.phase = .handshaking
    core.connections[id]?.remote = remote
  }

  public mutating func secured(_ id: ConnectionID, _ facts: PeerFacts, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], !connection.isClosed else { return [] }
    core.connections[id]?.facts = facts
    let key = facts.certificate?.fingerprint
    let via = connection.relay.map { " through the relay \($0)" } ?? ""
    let commands: [MatchCommand] = [
      .log(
        "secured \(connection.peer)\(via): \(facts.protocolVersion) \(facts.cipher), peer \(key?.description ?? "?")")
    ]
    if connection.isReconnect { return commands + resecured(id, now: now) }
    if relay != nil, !decided {
      // Racing the direct addresses and the relay: this one is played on only if the host's hello comes on it
      // first (`before`), so the host never hears this joiner on two connections.
      core.connections[id]?.held = true
      core.connections[id]?.phase = .greeting
      core.connections[id]?.deadline = now + MatchCore.handshakeTimeout
      return commands
    }
    return commands + welcomed(id, now: now)
  }

  /// The host on `id` is secured and this is the connection played on: its key is judged, and the player told.
  public mutating func welcomed(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], let facts = connection.facts else { return [] }
    let key = facts.certificate?.fingerprint
    var commands: [MatchCommand] = []
    gamePeerKey = key
    if let advertised = advertisedFingerprint, let key, advertised != key {
      return commands + fail(id, .impostor(advertised: advertised, presented: key), now: now)
    }
    var session = core.newSession(now: now)
    // A game this player's program kept with this host before it was restarted (PROTOCOL.md rule 19).
    session.journalGame = key.flatMap { core.journal?.found[$0] }
    core.connections[id]?.session = session
    core.connections[id]?.phase = .greeting
    core.connections[id]?.deadline = nil
    let place = connection.relay.map { "the host through the relay \($0)" } ?? connection.peer
    commands.append(.report(.status("Connected to \(place) over \(facts.protocolVersion) (\(facts.cipher)).")))
    if let code = facts.verification { commands.append(.report(.verification(code))) }
    let verdict = MatchTrust.joinerSecured(facts, boundAddress: boundAddress, known: core.knownPeers)
    let (said, asked) = core.apply(verdict, on: id)
    commands += said
    if asked { return commands + deciding(id, now: now) }
    let remember = MatchTrust.joinerRemembers(
      facts, inviteKey: inviteKey, boundAddress: boundAddress, known: core.knownPeers)
    return commands + remember + begin(id, now: now)
  }

  /// Says hello once the host is trusted, and puts the host's terms to the player if its hello has come.
  private mutating func begin(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], !connection.isClosed else { return [] }
    core.connections[id]?.phase = .playing
    // Not before: an address that answered TCP but not as the host is not it. Through a relay, the address
    // reached is the relay's: reconnections go back through the relay.
    if connection.relay == nil { route.reached(connection.remote) }
    return act(on: id, now: now) { $0.start(now: now) } + askTerms(id, now: now)
  }

  /// Once the host is trusted and its hello has come: a timed game (version 3 on both sides) is put to the player
  /// before anything the host sends after its hello is acted on (PROTOCOL.md, "The terms"); the host is told
  /// meanwhile that the player is deciding. Anything else is played at once.
  private mutating func askTerms(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard !termsAnswered, !isWatching, core.connections[id]?.phase == .playing,
      let session = core.connections[id]?.session,
      !session.isClosed, session.peerName != nil, session.hasGameFlow, let terms = session.hostTerms,
      terms.asksConsent
    else { return [] }
    termsAnswered = true
    core.termsAsked = terms
    // By the name trust was decided on, as everywhere else (a known key's hello may claim any name).
    let facts = core.connections[id]?.facts
    let host = session.peerName.map { "\(MatchTrust.shownName(facts, claimed: $0, known: core.knownPeers))" }
    return [.report(.askTerms(MatchWords.terms(terms, host: host ?? "The host")))] + deciding(id, now: now)
  }

  /// While the player reads the terms, what the host sends after its hello waits (liveness and goodbyes do not).
  /// The same while the player is asked about the host's key: a host's welcome and coin then must not start a
  /// game before the player has answered either question (a hostile host sending them straight after its hello).
  public mutating func holds(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]? {
    if let watching = watcherHolds(message, on: id, now: now) { return watching }
    guard id == core.active, let session = core.connections[id]?.session else { return nil }
    guard core.termsAsked != nil || (core.question != nil && session.peerName != nil) else { return nil }
    switch message {
    case .heartbeat, .deciding, .bye, .error: return nil
    default: break
    }
    guard heldForTerms.count < JoinerCoordinator.heldLimit else {
      core.termsAsked = nil
      core.question = nil
      let end = MatchEnd.session(
        .protocolViolation("more than \(JoinerCoordinator.heldLimit) messages before the game"))
      return fail(id, end, now: now)
    }
    heldForTerms.append(message)
    return []
  }

  /// What the host sent while the player read a question, acted on in order.
  private mutating func releaseHeld(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    let held = heldForTerms
    heldForTerms = []
    return held.flatMap { received(id, $0, now: now) }
  }

  /// The most messages held while the player reads the terms: a host sends a handful (welcome, the coin, a move).
  public static let heldLimit = 64

  /// The player is being asked about the host's key: the host is told so (PROTOCOL.md rule 13), and again every
  /// `PendingHandshakes.decidingInterval` until the player answers, so neither side's deadline races a person.
  private mutating func deciding(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    decidingAgainAt = now + PendingHandshakes.decidingInterval
    return act(on: id, now: now) { $0.playerDeciding(now: now) }
  }

  /// The host's first message on a connection held in the race: that connection wins.
  public mutating func before(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand] {
    guard core.connections[id]?.held == true else { return [] }
    return chosen(id, now: now)
  }

  public mutating func decide(_ left: MatchCore.LeftToDecide, on id: ConnectionID, now: Double) -> [MatchCommand] {
    switch left {
    case .hello(let name, let software):
      if let leaving = watcherHeardHello(id, now: now) { return leaving }
      let facts = core.connections[id]?.facts
      let shown = MatchTrust.shownName(facts, claimed: name, known: core.knownPeers)
      if isWatching { return [.report(.status("Watching \(shown)'s game (\(software)).")), .log("watching \(shown)")] }
      // Trusted already (no question up): the terms are put to the player now.
      return [.report(.session(.peerHello(name: shown, software: software)))]
        + MatchTrust.joinerHeard(name, facts: facts, known: core.knownPeers) + askTerms(id, now: now)
    case .dropped:
      route.dropped(now: now)
      return []
    case .closed(let full, let admitted):
      guard id == core.active else { return [] }
      let end = core.shown(full, on: id, admitted: admitted)
      if let resuming = watcherDropped(id, .session(end), now: now) { return resuming }
      route.stop()
      core.finished = .session(end)
      return watcherClosed(end) + [.stopAdvertising, .report(.finished(.session(end)))]
    }
  }

  public mutating func answer(accept: Bool, now: Double) -> [MatchCommand] {
    if core.keptAsked, let id = core.active {
      core.keptAsked = false
      return act(on: id, now: now) { $0.answerKeptGame(accept: accept, now: now) }
    }
    if core.termsAsked != nil, let id = core.active {
      core.termsAsked = nil
      decidingAgainAt = nil
      guard accept else {
        heldForTerms = []
        // A declined answer always ends the match: with a goodbye naming the terms, else an ordinary one.
        let declined = act(on: id, now: now) { $0.declineTerms(now: now) }
        return declined.isEmpty ? act(on: id, now: now) { $0.quit(text: "declined the terms", now: now) } : declined
      }
      return releaseHeld(id, now: now)
    }
    guard let question = core.question, let id = core.active else { return [] }
    core.question = nil
    decidingAgainAt = nil
    defer { core.connections.sweep() }
    if accept {
      let name = question.certificateName.unsanitised
      let commands = [.remember(name: name, key: question.fingerprint, address: boundAddress)] + begin(id, now: now)
      // No terms to read (or they came with the answer): what the host sent meanwhile is acted on now.
      return core.termsAsked == nil ? commands + releaseHeld(id, now: now) : commands
    }
    heldForTerms = []
    let end = MatchEnd.declinedByPlayer
    core.finished = end
    return core.connections.close(id, graceful: true) + [.report(.finished(end))]
  }

  public mutating func afterStep(now: Double) -> [MatchCommand] { [] }

  // MARK: - Reaching the host again

  public mutating func due(now: Double) -> [MatchCommand] {
    if let at = decidingAgainAt, now >= at {
      if core.question != nil, core.finished == nil, let id = core.active, core.connections[id]?.phase == .asking {
        return deciding(id, now: now)
      }
      if core.termsAsked != nil, core.finished == nil, let id = core.active { return deciding(id, now: now) }
      decidingAgainAt = nil
    }
    if !decided, core.finished == nil, let at = relay?.startAt, now >= at { return startRelay(now: now) }
    if let watching = watcherDue(now: now) { return watching }
    guard let at = route.reconnectAt, now >= at, core.connections.waitingGame != nil, core.finished == nil else {
      return []
    }
    return route.reconnect(in: &core.connections, deadline: now + MatchCore.handshakeTimeout)
  }

  /// The host's name looked up again (`nameToResolve`): connect to the first of the addresses.
  public mutating func resolved(_ addresses: Result<[ResolvedAddress], NetworkError>, now: Double) -> [MatchCommand] {
    guard route.nameToResolve != nil else { return [] }
    guard core.connections.waitingGame != nil || watchResume.isReconnecting, core.finished == nil else {
      route.nameLookedUp()
      return []
    }
    return route.resolved(addresses, in: &core.connections, deadline: now + MatchCore.handshakeTimeout, now: now)
  }

  /// A new connection to the host is secured. Only the key the game was played with may take it up.
  private mutating func resecured(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    if watchResume.isReconnecting { return watcherResecured(id, now: now) }
    let presented = core.connections[id]?.facts?.certificate?.fingerprint
    guard let old = core.connections.waitingGame, let session = core.connections[old]?.session else {
      return core.connections.close(id, graceful: true)
    }
    if let before = gamePeerKey, let presented, before != presented {
      route.stop()
      core.connections[old]?.session = nil  // the kept game is over: no grace period runs on, nothing to claim
      let end = MatchEnd.keyChangedOnReconnect(before: before, now: presented)
      core.finished = end
      return core.connections.close(id, graceful: false) + [.log("\(end)"), .report(.finished(end))]
    }
    let attempts = route.attempts
    route.reconnected()
    if core.connections[id]?.relay == nil { route.reached(core.connections[id]?.remote) }
    core.connections[old]?.session = nil
    core.connections[id]?.session = session
    core.connections[id]?.phase = .playing
    core.connections[id]?.admitted = true
    core.connections[id]?.deadline = nil
    core.connections[id]?.isReconnect = false
    core.active = id
    return [.log("reconnected to \(core.peer(id)) after \(attempts) attempt(s): asking to resume")]
      + act(on: id, now: now) { $0.requestResume(now: now) }
  }

  public mutating func fail(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    if !decided, let plan = relay, id == plan.connection { return relayFailed(id, end, now: now) }
    let (closed, gone) = giveUp(id, end, now: now)
    guard let connection = gone else { return closed }
    if id == core.active, connection.session == nil, !connection.isReconnect, route.hasUntried {
      core.active = nil  // the first connection: the host may answer at another of its addresses
      return closed + connectToNextAddress(after: end, now: now)
    }
    if id == core.active, !decided, !connection.isReconnect, relay != nil {
      core.active = nil  // every direct address failed: the relay is left
      return closed + directExhausted(end, now: now)
    }
    if connection.isReconnect {
      if watchResume.isReconnecting { return closed + watcherAttemptFailed(end, now: now) }
      guard core.connections.waitingGame != nil else { return closed }
      // Whoever answers there is not trusted (a changed key, a wrong pin): that will not pass by retrying.
      if case .network(.tls(.untrusted)) = end, let old = core.connections.waitingGame {
        route.stop()
        core.connections[old]?.session = nil  // the kept game is over: no grace period runs on, nothing to claim
        core.finished = end
        return closed + [.report(.finished(end))]
      }
      return closed + route.attemptFailed("\(end)", now: now)
    }
    if id == core.active, let resuming = watcherDropped(id, end, now: now) { return closed + resuming }
    core.finished = end
    return closed + [.report(.finished(end))]
  }
}

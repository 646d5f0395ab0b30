import GameCore
import PeerTrust
import Session
import UntrustedText
import WireProtocol

/// The host's side of a match: whom it lets in. Joiners connect; one at a time is asked about or let in, the
/// others are turned away as busy; the kept game's key may take the game over after a drop; a host that
/// keeps hosting waits for the next opponent when a match ends. Pure (see `MatchRole`).
public struct HostCoordinator: MatchRole {
  /// Connections not yet past hello (a joiner whose key the player is being asked about, or the kept game's key,
  /// is never among them): at most `pending.cap` at once, the oldest making room once it waited
  /// `pending.patience`; the time each has to say hello. The bot's door decides by the same policy.
  public static let pending = PendingHandshakes.host
  public static let maximumPending = pending.cap

  public var core: MatchCore
  /// After an opponent leaves wait for the next one instead of ending, until the player quits.
  public var keepsHosting = false
  /// What the player is told when hosting begins, told again after each opponent.
  public var welcome: [MatchEvent] = []
  /// The key of the opponent the game is played with: only it may take the game over after a drop.
  private var gamePeerKey: Fingerprint?
  /// Refusals logged per address: a client refused in a loop cannot fill the log.
  private var refusals = PerAddressLog()
  /// Pending connections dropped at the cap, logged as one source: a flood cannot fill the log.
  private var drops = PerAddressLog()
  /// Who watches the game (`HostCoordinator+Spectators`).
  public var spectators = Spectators()

  /// What each source address may do (`SourceLimits`: the deny list, connections, new keys); nil: no limits.
  public var limits: SourceLimits? {
    get { core.connections.limits }
    set { core.connections.limits = newValue }
  }

  public init(
    name: String, rules: Rules, gracePeriod: Double, timeControl: TimeControl = .none, opening: Opening = .standard,
    environment: MatchEnvironment
  ) {
    core = MatchCore(
      configuration: .init(
        role: .host, name: name, rules: rules, gracePeriod: gracePeriod, timeControl: timeControl, opening: opening),
      environment: environment)
  }

  /// The host's place at a transit relay (nil: it waits at none).
  public var relayWait: HostRelayWait?

  public var ownDeadline: Double? {
    [core.finished == nil ? relayWait?.retryAt : nil, spectators.nextDeadline].compactMap { $0 }.min()
  }
  public mutating func holds(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]? {
    spectatorHolds(message, on: id, now: now)
  }
  public mutating func afterStep(now: Double) -> [MatchCommand] { spectatorsAfterStep(now: now) }
  public mutating func due(now: Double) -> [MatchCommand] {
    let watching = spectatorsDue(now: now)
    guard let at = relayWait?.retryAt, at <= now else { return watching }
    return watching + waitAtRelay(now: now)
  }

  /// Whether the shell may accept the next waiting connection at `now` (`PendingHandshakes`): below the cap,
  /// or once the pending connection that would make room has waited its patience. Until then joiners wait in
  /// the listen queue, and every pending connection has its moment to finish TLS.
  public func mayAccept(now: Double) -> Bool {
    let (pending, makesRoom) = core.connections.pendingSince(HostCoordinator.pending)
    return pending < HostCoordinator.pending.cap || (makesRoom.map { $0 <= now } ?? false)
  }

  /// When a wait at the cap ends (nil: no wait).
  public var acceptReopens: Double? {
    let (pending, makesRoom) = core.connections.pendingSince(HostCoordinator.pending)
    return pending < HostCoordinator.pending.cap ? nil : makesRoom
  }

  /// A joiner connected from `peer`. At the cap the oldest pending connection makes room (the shell accepts at
  /// the cap only once it has waited `PendingHandshakes.patience`): a flood of silent connections only churns
  /// itself, and a real joiner (whose handshake takes milliseconds) gets in.
  public mutating func accepted(peer: String, now: Double) -> (ConnectionID, [MatchCommand]) {
    let made = makeRoom(now: now)
    let id = core.connections.open(peer, .handshaking, deadline: now + MatchCore.handshakeTimeout)
    return (id, made + arrived(id, peer: peer, now: now))
  }

  /// At the cap, the oldest pending connection makes room for one that arrives.
  public mutating func makeRoom(now: Double) -> [MatchCommand] {
    guard let (count, oldest) = core.connections.toDrop(atLimit: HostCoordinator.maximumPending, now: now) else {
      return []
    }
    let dropped = core.peer(oldest)
    let line = "\(count) connections are already setting up TLS or waiting for hello: dropping the oldest, \(dropped)"
    // One line per drop was 7,664 lines under a flood: a few, then one a minute with the count held back.
    let logged: [MatchCommand] = drops.line(line, about: "0.0.0.0", now: now).map { [.log($0)] } ?? []
    return logged + core.connections.close(oldest, graceful: false)
  }

  /// A joiner arrived on `id` (accepted, or glued to the host's wait at the relay) from `peer`: its address's
  /// limits decide whether TLS starts.
  public mutating func arrived(_ id: ConnectionID, peer: String, now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = []
    core.connections[id]?.acceptedAt = now
    if let refusal = core.connections.limits?.connected(peer, now: now) {
      // Closed before TLS: a denied or flooding address costs an accept and a close.
      if let line = refusals.line("refused a connection from \(peer): \(refusal)", about: peer, now: now) {
        commands.append(.log(line))
      }
      return commands + core.connections.close(id, graceful: false)
    }
    let limited = core.connections.limits != nil
    core.connections[id]?.counted = limited
    commands += core.log("connection from \(peer)", about: id, now: now)
    core.connections.sweep()
    return commands
  }

  public mutating func secured(_ id: ConnectionID, _ facts: PeerFacts, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], !connection.isClosed else { return [] }
    core.connections[id]?.facts = facts
    let key = facts.certificate?.fingerprint
    let line = "secured \(connection.peer): \(facts.protocolVersion) \(facts.cipher), peer \(key?.description ?? "?")"
    let log = core.log(line, about: id, now: now)
    if let game = core.active, game != id, core.connections[game]?.session?.keepsGameOnDrop == true, let key,
      key == gamePeerKey
    {
      // The opponent's key while its game is kept: wait for its first message (resume, or a new hello).
      core.connections[id]?.phase = .awaitingResume
      core.connections[id]?.deadline = now + MatchCore.handshakeTimeout
      return log
    }
    return log + greet(id, now: now)
  }

  /// Starts a session on `id` and says hello; the joiner has `helloTimeout` to answer.
  private mutating func greet(
    _ id: ConnectionID, keptHostPlaysX: Bool? = nil, offer: KeptOffer? = nil, now: Double
  ) -> [MatchCommand] {
    var session = core.newSession(now: now)
    // Leaving and coming back must not re-roll the coin: the new match starts with the same first player.
    session.keptHostPlaysX = keptHostPlaysX
    // A game in progress left by a program that restarted is offered back, not thrown away (rule 19).
    session.keptGameToOffer = offer
    // And one this host's program left when it restarted is taken back, checked against its journal (rule 19).
    session.takesKeptGameBack = true
    let key = core.connections[id]?.facts?.certificate?.fingerprint
    session.journalGame = key.flatMap { core.journal?.found[$0] }
    core.connections[id]?.session = session
    core.connections[id]?.phase = .greeting
    core.connections[id]?.securedAt = now
    let deadline = helloDeadline(id)
    core.connections[id]?.deadline = deadline
    return act(on: id, now: now) { $0.start(now: now) }
  }

  /// When the joiner on `id` must have said hello (`PendingHandshakes.helloDeadline`).
  private func helloDeadline(_ id: ConnectionID) -> Double? {
    guard let connection = core.connections[id] else { return nil }
    return HostCoordinator.pending.helloDeadline(
      accepted: connection.acceptedAt, secured: connection.securedAt, deciding: connection.decidingAt)
  }

  /// The first message on a connection from the kept game's key. A resume request takes the game over
  /// (dropping the old connection if it still looked alive); anything else is a new hello. Before hello, a
  /// joiner saying that its player is deciding about our key is given longer to say it (PROTOCOL.md rule 13).
  public mutating func before(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand] {
    if case .deciding = message, core.connections[id]?.phase == .greeting {
      let first = core.connections[id]?.decidingAt == nil
      core.connections[id]?.decidingAt = now
      let deadline = helloDeadline(id)
      core.connections[id]?.deadline = deadline
      return first ? [.log("\(core.peer(id)): its player is deciding about our key; waiting for its hello")] : []
    }
    guard core.connections[id]?.phase == .awaitingResume else { return [] }
    guard case .resume = message, let old = core.active, core.connections[old]?.session?.keepsGameOnDrop == true
    else {
      var commands: [MatchCommand] = []
      var kept: Bool?
      var offer: KeptOffer?
      if case .hello(_, let name, _, _, _, _) = message, let old = core.active,
        core.connections[old]?.session?.keepsGameOnDrop == true
      {
        // The same player greets us afresh: its program lost the game (restarted, or gave up during the coin
        // toss). The kept game is over; this is a new match.
        let name = PeerText(name)
        kept = core.connections[old]?.session?.hostPlayedXLast
        offer = core.connections[old]?.session?.keptOffer(now: now)
        if let peer = core.connections[old]?.facts?.certificate?.fingerprint,
          let command = core.journal?.ended(peer: peer)
        {
          commands.append(command)
        }
        commands += core.connections.close(old, graceful: false)
        core.connections[old]?.session = nil
        core.active = nil
        if let offer {
          let game = "game \(offer.game.gameNumber) at move \(offer.game.moves.count + 1)"
          commands.append(.log("\(name) at \(core.peer(id)) came back without the game: offering \(game)"))
          commands.append(.report(.status("\(name) came back after a restart: offering \(game), kept here.")))
        } else {
          commands.append(.log("\(name) at \(core.peer(id)) came back without the game: starting a new match"))
          commands.append(
            .report(.status("\(name) came back without the last game (restarted?): a new match begins.")))
        }
      }
      return commands + greet(id, keptHostPlaysX: kept, offer: offer, now: now)
    }
    var commands: [MatchCommand] = [.log("\(core.peer(id)) is back with the same key: resuming the game")]
    commands += act(on: old, now: now) { $0.peerReconnected(now: now) }  // closes the old one if it looked alive
    let resumed = core.connections[old]?.session
    core.connections[id]?.session = resumed
    core.connections[old]?.session = nil
    core.connections[id]?.phase = .playing
    core.connections[id]?.admitted = true
    core.connections[id]?.deadline = nil
    core.active = id
    return commands
  }

  public mutating func decide(_ left: MatchCore.LeftToDecide, on id: ConnectionID, now: Double) -> [MatchCommand] {
    switch left {
    case .hello(let name, _): return decide(id, name: name, now: now)
    case .dropped: return []
    case .closed(let full, let admitted):
      let end = core.shown(full, on: id, admitted: admitted)
      guard id == core.active else {
        // A joiner that was never let in: the host player hears what happened, and keeps hosting.
        return end == .localQuit ? [] : [.report(.status("A connection from \(core.peer(id)) was closed: \(end)"))]
      }
      if keepsHosting, end != .localQuit { return nextOpponent(after: .session(end)) }
      core.finished = .session(end)
      return [.stopAdvertising, .report(.finished(.session(end)))]
    }
  }

  /// A joiner said hello. A busy host refuses; new keys are asked about; known ones are let in.
  private mutating func decide(_ id: ConnectionID, name: PeerText, now: Double) -> [MatchCommand] {
    guard core.active == nil || core.active == id else {
      let text = "\(core.configuration.name) is already playing; try again later"
      return act(on: id, now: now) { $0.decline(.busy, text: text, now: now) }
    }
    let facts = core.connections[id]?.facts
    let peer = core.peer(id)
    if isNew(facts), let refusal = core.connections.limits?.newKey(from: peer, now: now) {
      // Too many new players from this address (or in all): one more question or known_peers line must wait.
      let text = "\(core.configuration.name) is not taking new players from your address just now: \(refusal)"
      return [.log("turned away a new key from \(core.peer(id)): \(refusal)")]
        + act(on: id, now: now) { $0.decline(.busy, text: text, now: now) }
    }
    core.active = id
    core.connections[id]?.deadline = nil
    let shown = MatchTrust.shownName(facts, claimed: name, known: core.knownPeers)
    let software = core.connections[id]?.session?.peerSoftware ?? ""
    var commands: [MatchCommand] = [.report(.session(.peerHello(name: shown, software: software)))]
    if let code = facts?.verification { commands.append(.report(.verification(code))) }
    let (said, asked) = core.apply(
      MatchTrust.hostHeard(name, facts: facts, known: core.knownPeers), on: id)
    commands += said
    if asked { return commands }
    commands.append(.log("letting in \(shown) (\(facts?.certificate?.fingerprint.description ?? "?"))"))
    let remember = MatchTrust.remembered(facts, inviteKey: nil, boundAddress: nil, known: core.knownPeers)
    return commands + (remember.map { [$0] } ?? []) + admit(id, now: now)
  }

  /// A key this host has not met: asked about, or let in by --accept-new.
  private func isNew(_ facts: PeerFacts?) -> Bool {
    switch facts?.trust {
    case .askUser, .trusted(.acceptedNew): return true
    default: return false
    }
  }

  private mutating func admit(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], connection.session != nil, !connection.isClosed else { return [] }
    core.connections[id]?.phase = .playing
    core.connections[id]?.admitted = true
    gamePeerKey = core.connections[id]?.facts?.certificate?.fingerprint
    return [.advertise(.playing, watchers: gameIsWatchable ? spectators.count : nil)]
      + act(on: id, now: now) { $0.accept(now: now) }
  }

  public mutating func answer(accept: Bool, now: Double) -> [MatchCommand] {
    guard let question = core.question, let id = core.active else { return [] }
    core.question = nil
    defer { core.connections.sweep() }
    if accept {
      let name = question.certificateName.unsanitised
      return [.remember(name: name, key: question.fingerprint, address: nil)] + admit(id, now: now)
    }
    core.active = nil
    let text = "\(core.configuration.name) declined"
    return act(on: id, now: now) { $0.decline(.declined, text: text, now: now) }
  }

  /// Forgets the opponent whose match is over and waits for the next one.
  private mutating func nextOpponent(after end: MatchEnd) -> [MatchCommand] {
    var commands: [MatchCommand] = [.log("match over (\(end)); hosting on for the next opponent")]
    if let active = core.active { commands += core.connections.close(active, graceful: true) }
    commands += spectatorsLeave("the match is over")
    core.active = nil
    core.question = nil
    gamePeerKey = nil
    return commands + [.advertise(.waiting, watchers: nil), .report(.opponentGone(end))]
      + welcome.map { .report($0) }
  }

  public mutating func fail(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    if id == relayWait?.waiting { return relayWaitFailed(id, end, now: now) }
    if spectators.contains(id) {
      return dropSpectator(id, note: "spectator at \(core.peer(id)) gone: \(end)", graceful: false, now: now)
    }
    let (closed, gone) = giveUp(id, end, now: now)
    guard let connection = gone else { return closed }
    guard id == core.active else { return closed }
    if !connection.admitted {
      // The candidate went away before the game began: keep hosting.
      core.active = nil
      core.question = nil
      return closed + [
        .advertise(.waiting, watchers: nil),
        .report(.status("A joiner from \(connection.peer) left: \(end)")),
      ]
    }
    if keepsHosting { return closed + nextOpponent(after: end) }
    core.finished = end
    return closed + [.report(.finished(end))]
  }
}

import GameCore
import GameRecords
import PeerTrust
import Session
import WireProtocol

/// One side of a networked match, host (`HostCoordinator`) or joiner (`JoinerCoordinator`): events in (a
/// connection secured, a message, a failure, the clock, the player's answer and actions), commands out (send,
/// close, connect, remember, report), which `NetworkMatch` carries out. Pure: no sockets, no files, no clock of
/// its own. What both sides do alike is here; each decides the rest.
public protocol MatchRole {
  var core: MatchCore { get set }
  /// TLS is set up on `id`.
  mutating func secured(_ id: ConnectionID, _ facts: PeerFacts, now: Double) -> [MatchCommand]
  /// What the side decides on what the session on `id` left to it (a hello, a close, a drop).
  mutating func decide(_ left: MatchCore.LeftToDecide, on id: ConnectionID, now: Double) -> [MatchCommand]
  /// The connection `id` failed or was given up.
  mutating func fail(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand]
  /// A message is about to reach the session on `id` (the host's chance to take a kept game over).
  mutating func before(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]
  /// The player's answer to the pending trust question.
  mutating func answer(accept: Bool, now: Double) -> [MatchCommand]
  /// A message the side keeps from its session for now (the joiner, while its player reads the host's terms): the
  /// commands then, or nil to pass it on.
  mutating func holds(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]?
  /// The clock moved on: what the side schedules itself (the joiner's reconnections).
  mutating func due(now: Double) -> [MatchCommand]
  /// After a step of a session: what else the side says of it (the host: to its spectators).
  mutating func afterStep(now: Double) -> [MatchCommand]
  /// The record of `game` is signed by both players now (the host: sent to its spectators, rule 28).
  mutating func recordSigned(_ record: GameRecord, game: Int, now: Double) -> [MatchCommand]
  /// Its own next deadline, beside the connections'.
  var ownDeadline: Double? { get }
  /// The connection `id` to a transit relay is up and has said its token: it waits there for the other side.
  mutating func reachedRelay(_ id: ConnectionID, now: Double) -> [MatchCommand]
  /// The relay glued the connection `id` to the other side's (with the same token): TLS starts on it.
  mutating func glued(_ id: ConnectionID, now: Double) -> [MatchCommand]
}

/// Host: seconds a secured joiner has to say hello (its player may be reading the question about our key).
public let helloTimeout = 60.0

extension MatchRole {
  public mutating func recordSigned(_ record: GameRecord, game: Int, now: Double) -> [MatchCommand] { [] }
  public var finished: MatchEnd? { core.finished }
  public var question: TrustQuestion? { core.question }
  public var termsAsked: HostTerms? { core.termsAsked }
  public var keptAsked: Bool { core.keptAsked }
  public var active: ConnectionID? { core.active }
  public var connections: MatchConnections { core.connections }
  public var session: NetSession? { core.connections.activeConnection?.session }
  public var activeConnection: MatchConnection? { core.connections.activeConnection }
  public var nextDeadline: Double? { [ownDeadline, core.connections.nextDeadline].compactMap { $0 }.min() }
  public var records: MatchRecords? {
    get { core.records }
    set { core.records = newValue }
  }
  public var journal: MatchJournal? {
    get { core.journal }
    set { core.journal = newValue }
  }

  /// The player's known peers as the shell read them again: at the start, and when the file changed (a write
  /// of ours, or another process's).
  public mutating func knownPeersChanged(_ peers: KnownPeers?) {
    core.knownPeers = peers
  }

  /// Something arrived on `id` (the start of TLS, perhaps): it is not a silent connection (`quiet`, which only
  /// the host's pending cap weighs).
  public mutating func heard(_ id: ConnectionID) {
    if core.connections[id]?.quiet == true { core.connections[id]?.quiet = false }
  }

  /// Runs work on `id`'s session and carries out what the session said.
  public mutating func act(on id: ConnectionID, now: Double, _ body: (inout NetSession) -> [SessionOutput])
    -> [MatchCommand]
  {
    guard var session = core.connections[id]?.session else { return [] }
    let outputs = body(&session)
    core.connections[id]?.session = session
    return apply(outputs, on: id, now: now)
  }

  public mutating func apply(_ outputs: [SessionOutput], on id: ConnectionID, now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = []
    for output in outputs where core.connections[id] != nil {
      let (said, left) = core.translate(output, on: id, now: now)
      commands += said
      guard let left else { continue }
      commands += decide(left, on: id, now: now)
      // The record against the opponent: not for a joiner turned away.
      if case .hello(let name, _) = left, id == core.active { commands += core.greeting(on: id, helloName: name) }
    }
    return commands + afterStep(now: now)
  }

  /// A message from the peer.
  public mutating func received(_ id: ConnectionID, _ message: Message, now: Double) -> [MatchCommand] {
    guard let connection = core.connections[id], !connection.isClosed else { return [] }
    if let held = holds(message, on: id, now: now) { return held }
    var commands = before(message, on: id, now: now)
    if case .recordSignature(let game, let date, let signature) = message {
      let signed = core.signature(game: Int(game), date: date, signature: signature, on: id)
      commands += signed
      for case .keepRecord(let record, _) in signed
      where record.black.signature != nil && record.white.signature != nil {
        commands += recordSigned(record, game: Int(game), now: now)
      }
    }
    commands += act(on: id, now: now) { $0.receive(message, now: now) }
    core.connections.sweep()
    return commands
  }

  /// A frame that could not be read.
  public mutating func malformed(_ id: ConnectionID, _ error: WireError, now: Double) -> [MatchCommand] {
    defer { core.connections.sweep() }
    if core.connections[id]?.session == nil, core.connections[id]?.isClosed == false {
      return fail(id, .session(.protocolViolation("malformed message: \(error)")), now: now)
    }
    return act(on: id, now: now) { $0.receiveMalformed(error, now: now) }
  }

  /// The peer closed the connection.
  public mutating func ended(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    defer { core.connections.sweep() }
    guard core.connections[id]?.session != nil else { return fail(id, .session(.connectionLost), now: now) }
    return act(on: id, now: now) { $0.connectionLost(now: now) }
  }

  /// What every side's `fail` does first: the failure is logged, and a game in the middle of the match is kept
  /// for the grace period (then `connection` is nil: nothing more to decide); else the connection is closed and
  /// the side decides the rest about `connection` (as it was).
  public mutating func giveUp(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> (
    commands: [MatchCommand], connection: MatchConnection?
  ) {
    guard let connection = core.connections[id] else { return ([], nil) }
    let logged = core.log("\(connection.peer): \(end)", about: id, now: now)
    if id == core.active, connection.session?.keepsGameOnDrop == true {
      // The connection broke in the middle of the match: the game is kept for the grace period.
      return (logged + act(on: id, now: now) { $0.connectionLost(now: now) }, nil)
    }
    return (logged + core.connections.close(id, graceful: false), connection)
  }

  /// The connection failed (a refused connect, a TLS error, a socket error).
  public mutating func failed(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    defer { core.connections.sweep() }
    return fail(id, end, now: now)
  }

  /// The clock moved on: deadlines, heartbeats, silence, the grace period, what the side scheduled.
  public mutating func tick(now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = []
    if let waiting = core.connections.waitingGame { commands += act(on: waiting, now: now) { $0.tick(now: now) } }
    commands += due(now: now)
    for id in core.connections.ids {
      guard let connection = core.connections[id] else { continue }
      let late = connection.deadline.map { now >= $0 } ?? false
      switch connection.phase {
      case .connecting where late && connection.relay != nil, .atRelay where late:
        commands += fail(id, .network(connection.relayLate(now: now)), now: now)
      case .connecting where late, .handshaking where late, .awaitingResume where late:
        let seconds = Int(MatchCore.handshakeTimeout)
        commands += fail(id, .network(.handshakeTimedOut(seconds: seconds)), now: now)
      case .greeting where late:
        // 60 s after TLS, or longer for a joiner whose player said it was deciding (`PendingHandshakes`).
        let seconds = Int(((connection.deadline ?? now) - (connection.securedAt ?? now - helloTimeout)).rounded())
        commands += core.log("\(connection.peer) did not say hello within \(seconds) s", about: id, now: now)
        commands += fail(id, .network(.handshakeTimedOut(seconds: seconds)), now: now)
      case .greeting, .asking, .playing:
        commands += act(on: id, now: now) { $0.tick(now: now) }
      case .connecting, .atRelay, .handshaking, .awaitingResume, .watching, .closed: break
      }
    }
    core.connections.sweep()
    return commands
  }

  // MARK: - The player's actions

  public mutating func play(_ position: Position, now: Double) throws(PlayError) -> [MatchCommand] {
    guard let id = core.active, var session = core.connections[id]?.session else { throw .illegal(.gameOver) }
    let outputs = try session.play(position, now: now)
    core.connections[id]?.session = session
    defer { core.connections.sweep() }
    return apply(outputs, on: id, now: now)
  }

  /// Makes a choice of the Swap2 opening in the game's session.
  public mutating func choose(_ choice: Swap2.Choice, now: Double) throws(PlayError) -> [MatchCommand] {
    guard let id = core.active, var session = core.connections[id]?.session else { throw .noOpeningChoice }
    let outputs = try session.choose(choice, now: now)
    core.connections[id]?.session = session
    defer { core.connections.sweep() }
    return apply(outputs, on: id, now: now)
  }

  /// Runs an action that may be refused (chat, resign, rematch, claim) on the game's session.
  public mutating func attempt(
    now: Double, _ action: (inout NetSession) throws(ActionRefusal) -> [SessionOutput]
  ) throws(ActionRefusal) -> [MatchCommand] {
    guard let id = core.active, var session = core.connections[id]?.session else {
      throw core.finished == nil ? .notStarted : .matchOver
    }
    let outputs = try action(&session)
    core.connections[id]?.session = session
    defer { core.connections.sweep() }
    return apply(outputs, on: id, now: now)
  }

  /// The player leaves: a goodbye to the game's peer, and every connection closed.
  public mutating func quit(now: Double) -> [MatchCommand] {
    var commands: [MatchCommand] = [.stopAdvertising]
    if let active = core.active { commands += act(on: active, now: now) { $0.quit(text: "", now: now) } }
    for id in core.connections.ids { commands += core.connections.close(id, graceful: true) }
    if core.finished == nil {
      core.finished = .session(.localQuit)
      commands.append(.report(.finished(.session(.localQuit))))
    }
    core.connections.sweep()
    return commands
  }
}

import GameCore
import UntrustedText
import WireProtocol

/// A networked match as a pure state machine: messages, local actions and the clock go in; messages to send,
/// events for the UI and the end of the session come out. It validates everything the peer sends.
public struct NetSession: Sendable {
  public let configuration: Configuration
  public internal(set) var phase = Phase.greeting
  public internal(set) var peerName: PeerText?
  public internal(set) var peerSoftware: PeerText?
  /// The peer's hello said it checks record signatures in the batch form (PROTOCOL.md rule 12).
  public internal(set) var peerTakesBatchSignatures = false
  public internal(set) var version: UInt16?
  /// The connection under the match: its clock, a drop and the resume after it.
  @usableFromInline var connection: SessionLink
  public var link: Link { connection.state }
  /// The connection has been down longer than the grace period: `claim()` may end the game.
  public var graceExpired: Bool { connection.graceExpired }
  /// Host: set before `accept` when this joiner's key left a game here within the grace period: whether the
  /// host played X in it. With protocol version 2 the first game then keeps that first player (`coin kept`)
  /// instead of a new toss, so leaving and coming back cannot re-roll the coin.
  public var keptHostPlaysX: Bool?
  /// A game kept through a restart (PROTOCOL.md rule 19): offered by the host, checked by the joiner's journal.
  var kept = KeptGameExchange()

  /// The games of the match: the rules, the current game, this player's mark, the score and the rematch offers.
  @usableFromInline var series: GameSeries
  public var rules: Rules { series.rules }
  public var game: Game? { series.game }
  public var myMark: Mark? { series.myMark }
  public var gameNumber: Int { series.gameNumber }
  public var score: Score { series.score }
  public var lastResult: GameResult? { series.lastResult }
  /// This player offered a rematch and waits for the answer.
  public var rematchOfferedByMe: Bool { series.rematchOfferedByMe }
  /// The peer offered a rematch.
  public var rematchOfferedByPeer: Bool { series.rematchOfferedByPeer }
  /// The Swap2 opening of the current game, when the host's terms name it (PROTOCOL.md, "Version 4"): played while
  /// `inOpening`, then kept as it settled the colours (what the game's record says of its opening).
  public internal(set) var swap2: NetSwap2?
  /// Who plays X in the first game.
  var coin: CoinToss
  /// The first game's first player came from the game the joiner left (`coin kept`), not from a toss.
  public var firstPlayerWasKept: Bool { coin.wasKept }

  var peerGreeted = false
  let sha256: @Sendable ([UInt8]) -> [UInt8]
  /// How fast the peer chats, offers rematches, resigns and signs records: shown, dropped or a flood.
  var peerPace: PeerPace
  /// This player's chats, sent at the pace the peer shows.
  var outbox: ChatOutbox
  /// Record signatures the peer sent: one a game that ended is expected.
  var peerSignatures = 0
  /// The host's terms: as this host offers them, or as the host's hello gave them to this joiner (nil from a
  /// host older than the terms).
  public internal(set) var hostTerms: HostTerms?
  /// The offers of the game in progress (version 3).
  var flow: GameFlow?
  /// The clocks of the current game (a timed version-3 game; kept, stopped, once it ended).
  public internal(set) var clock: GameClock?
  /// This side claimed the win on time at this ply and waits for the mover's answer.
  public internal(set) var flagClaimedAt: Int?
  /// The peer has made a move in this match (a takeback does not undo that): from then on a joiner's goodbye
  /// for declined terms is a quit.
  var peerMoved = false
  /// A claim that arrived among the messages sent again on a resume: answered once the resume is confirmed (no
  /// new counted message before, rule 11).
  var heldClaim: (ply: Int, timeLeft: Int, observed: Int)?
  /// The numbers of the claim this side sent, until the answer comes.
  var claimSent: (timeLeft: Int, observed: Int)?
  /// The flag claim that ended the current game and its answer, as both sides saw them (kept once it ended):
  /// what its records say of a loss on time or a disputed game.
  public internal(set) var flagFacts: FlagFacts?
  /// Whether version 3's game flow applies: draws, takebacks, abort, clocks, the dead position.
  public var hasGameFlow: Bool { (version ?? 0) >= 3 }
  /// The time control the games are played under: the host's, when both speak version 3; else none.
  public var timeControl: TimeControl { hasGameFlow ? hostTerms?.timeControl ?? .none : .none }
  /// The peer's draw offer stands.
  public var drawOfferedByPeer: Bool { flow?.drawOffer.contains(peerMark) ?? false }
  /// The ply the peer's takeback request goes back to, while it stands.
  public var takebackRequestedByPeer: Int? { flow?.takeback[peerMark] }
  /// This player's draw offer stands.
  public var drawOfferedByMe: Bool { myMark.map { flow?.drawOffer.contains($0) ?? false } ?? false }
  /// The ply this player's takeback request goes back to, while it stands.
  public var takebackRequestedByMe: Int? { myMark.flatMap { flow?.takeback[$0] } }
  var peerMark: Mark { myMark?.opponent ?? .o }
  /// More heartbeats than this within a second are a flood, not liveness.
  public static let heartbeatBurst = 20

  /// `coinBytes` are 32 fresh random bytes: the host's secret or the joiner's share of the coin toss.
  public init(
    configuration: Configuration, coinBytes: [UInt8], sha256: @escaping @Sendable ([UInt8]) -> [UInt8], now: Double
  ) {
    self.configuration = configuration
    series = GameSeries(rules: configuration.rules)
    coin = CoinToss(bytes: coinBytes, sha256: sha256)
    self.sha256 = sha256
    connection = SessionLink(configuration, now: now)
    if configuration.role == .host {
      hostTerms = HostTerms(
        rules: configuration.rules, timeControl: configuration.timeControl, opening: configuration.opening,
        watchable: configuration.watchable)
    }
    peerPace = PeerPace(chatBurst: configuration.chatBurst, seconds: configuration.chatWindow)
    outbox = ChatOutbox(
      limit: configuration.chatBurst, seconds: configuration.chatWindow, capacity: configuration.chatBurst)
  }

  public var isClosed: Bool {
    if case .closed = phase { return true }
    return false
  }

  /// Whether it is this player's move now.
  public var myTurn: Bool {
    if inOpening { return swap2?.myTurn == true && !isResuming }
    return movesInGame
  }

  /// Outside an opening: a game is being played, it is this player's move in it, and no resume is under way.
  @inlinable @inline(__always) var movesInGame: Bool {
    phase == .playing && series.game?.turn == series.myMark && !connection.isResuming
  }

  /// The game when it is this player's move in it, outside a Swap2 opening (`myTurn` and not `inOpening`): what a
  /// computer player needs to choose its move. Inlined (always: left to itself the optimizer called it), so that
  /// the practice bot reads the fields it needs where the session lies, every move: a call copies the whole session
  /// (1.8 kB) first.
  @inlinable @inline(__always) public var gameToMove: Game? { !inOpening && movesInGame ? series.game : nil }

  public var isResuming: Bool { connection.isResuming }

  /// When the grace period ends (or ended), while the connection is down.
  public var graceDeadline: Double? { connection.graceDeadline }

  /// Opens the conversation: both sides say hello at once.
  public mutating func start(now: Double) -> [SessionOutput] {
    if configuration.role == .host, kept.takesBack, configuration.versions.contains(3) {
      // Rule 19: this host takes back a game its joiner kept through our restart; the number is our journal's.
      hostTerms?.keptGame = UInt16(clamping: kept.journal?.gameNumber ?? 0)
    }
    let terms = configuration.role == .host ? hostTerms : nil
    let hello = Message.hello(
      versions: configuration.versions, name: configuration.name, software: configuration.software, terms: terms,
      watch: configuration.role == .joiner ? configuration.watch : nil,
      // A joiner checks the host's record signatures, in either form (rule 12); a spectator keeps them as sent.
      batchSignatures: configuration.role == .joiner && configuration.watch == nil)
    return [send(hello, now)]
  }

  // MARK: - Local actions

  /// Whether the host played X in the latest game begun (nil before the first): what `keptHostPlaysX` keeps.
  public var hostPlayedXLast: Bool? { myMark.map { ($0 == .x) == (configuration.role == .host) } }

  /// Host: let the joiner in (after the player accepted it).
  public mutating func accept(now: Double) -> [SessionOutput] {
    guard configuration.role == .host, phase == .awaitingDecision, let version else { return [] }
    phase = .tossing
    if kept.peerKeeps, version >= 3 {
      // The joiner kept the game through our restart and offers it after the welcome (rule 19): no coin.
      return [send(.welcome(version: version, rules: rules), now)]
    }
    if let offer = kept.toOffer, version >= 3 {
      kept.offered = offer
      kept.offeredAt = now
      return [send(.welcome(version: version, rules: rules), now), send(offer.message, now)]
    }
    if let kept = keptHostPlaysX, version >= 2 {
      coin.keep(hostPlaysX: kept)
      return [send(.welcome(version: version, rules: rules), now), send(.coinKept(hostPlaysX: kept), now)]
        + startGame(now)
    }
    return [send(.welcome(version: version, rules: rules), now), send(.coinCommit(digest: coin.digest), now)]
  }

  /// Host: turn the joiner away.
  public mutating func decline(_ reason: RefusalReason, text: String, now: Double) -> [SessionOutput] {
    guard configuration.role == .host, !isClosed else { return [] }
    return [send(.refuse(reason, text: text), now), close(.localQuit)]
  }

  /// Plays a move for this player, or throws why it is not allowed (nothing is sent then). While the connection
  /// is lost the move counts and is sent when the game resumes.
  public mutating func play(_ position: Position, now: Double) throws(PlayError) -> [SessionOutput] {
    guard !isResuming else { throw .reconnecting }
    if inOpening { return try placeOpeningStone(position, now) }
    // The number of moves, not a copy of the game: a copy alive while the move is played makes it copy the board.
    guard phase == .playing, let ply = game?.history.count, let myMark else { throw .illegal(.gameOver) }
    guard flow?.takeback[myMark] == nil else { throw .awaitingTakebackAnswer }
    // The clock's turn is worked out in a timed game only: the call copies the whole session (every move).
    let turn = clock == nil ? ply : clockTurn(ofStone: ply)
    guard clock?.myTimeIsUp(ply: turn, now: now) != true else { throw .outOfTime }
    do {
      try series.play(position, byPeer: false)
    } catch {
      throw .illegal(error)
    }
    flow?.moved(myMark)
    let fields = clock?.myMove(ply: turn, now: now)
    return [send(.move(ply: UInt16(ply), position: position, clock: fields), now)]
      + ended(series.finishIfOver(deadPositionDraws: hasGameFlow))
  }

  /// Sends a chat, or holds it for a moment when the player types faster than the peer shows chat (it goes
  /// out on a tick, at `nextDeadline`); refuses it when too many wait already.
  public mutating func chat(_ text: String, now: Double) throws(ActionRefusal) -> [SessionOutput] {
    guard !isClosed else { throw .matchOver }
    guard peerGreeted else { throw .notStarted }
    guard !isResuming else { throw .reconnecting }
    let clipped = UTF8Clip.clip(text, bytes: Message.maximumChatBytes)
    if connection.isLost {
      // Kept by the ledger and sent again on resume, where the peer does not count it.
      guard connection.chatTyped(limit: configuration.chatBurst) else {
        throw .chatHeldWhileDisconnected(limit: configuration.chatBurst)
      }
      return [send(.chat(clipped), now)]
    }
    guard let going = outbox.typed(clipped, now: now) else {
      throw .chatTooFast(waiting: outbox.held.count, perSecond: Double(outbox.limit) / outbox.seconds)
    }
    return going.map { send(.chat($0), now) }
  }

  public mutating func resign(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    guard !isClosed else { throw .matchOver }
    guard !isResuming else { throw .reconnecting }
    guard phase == .playing, let myMark else { throw .noGameInProgress }
    return [send(.resign, now)] + ended(series.end(.resigned(loser: myMark)))
  }

  /// Offers a rematch, or accepts the peer's offer.
  public mutating func offerRematch(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    guard !isClosed else { throw .matchOver }
    guard !isResuming else { throw .reconnecting }
    guard phase == .betweenGames else { throw phase == .playing ? .gameInProgress : .notStarted }
    guard !rematchOfferedByMe else { throw .rematchAlreadyOffered }
    if rematchOfferedByPeer { return [send(.rematchAccept, now)] + startGame(now) }
    series.offerRematch()
    return [send(.rematchOffer, now)]
  }

  /// Whether a game is being played: begun and not yet over.
  public var gameInProgress: Bool { phase == .playing && game?.isOver == false }

  /// Says goodbye and ends the session. Leaving a game in progress loses it (the peer scores it as a win).
  public mutating func quit(text: String, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    if gameInProgress { series.gameLeft(byMe: true) }
    // Chats still held go before the goodbye: the peer shows twice the pace, so none is lost.
    // During a drop or a resume they would be new counted messages the peer may not take yet: they go with it.
    let held = connection.state == .up ? outbox.flush().map { send(.chat($0), now) } : []
    return held + [send(.bye(.quit, text: text), now), close(.localQuit)]
  }

  /// Joiner: its player is being asked whether to trust the host's key, before this side's hello. Tells the host
  /// so (`deciding`, not counted; the caller repeats it while the player decides), and holds the host's silence
  /// meanwhile against nobody: a person deciding is not raced by the silence limit (a host gone meanwhile is
  /// found out once the player has answered, within the limit).
  public mutating func playerDeciding(now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, !isClosed else { return [] }
    connection.received(now)
    return [sendUncounted(.deciding, now)]
  }

  // MARK: - Time

  /// Sends a heartbeat when this side has been quiet, and declares the peer gone when it has been silent
  /// too long. Call it at `nextDeadline` at the latest.
  public mutating func tick(now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    let chats = connection.state == .up ? outbox.due(now).map { send(.chat($0), now) } : []
    return chats + flagDue(now) + due(now)
  }

  /// What the connection's clock says is due at `now`.
  mutating func due(_ now: Double) -> [SessionOutput] {
    switch connection.due(now) {
    case nil: return []
    case .graceOver:
      // Only a game in progress (or a kept game offered and not yet answered, rule 19) can be claimed; between
      // games there is nothing left to wait for.
      guard phase == .playing || kept.offered != nil else {
        return [close(.peerDidNotReturn(seconds: Int(configuration.gracePeriod), claimed: false))]
      }
      return [.graceExpired]
    case .resumeTooSlow:
      return connection.drop(now)  // the exchange takes one round trip; a resume that never finishes is dropped
    case .peerSilent:
      if canResume { return connection.drop(now) }
      return [close(.peerVanished(seconds: Int(configuration.silenceLimit.rounded())))]
    case .heartbeat:
      return [send(.heartbeat, now)]
    }
  }

  /// The next time `tick` has something to do.
  public var nextDeadline: Double? {
    guard !isClosed else { return nil }
    let release = connection.state == .up ? outbox.nextRelease : nil
    return [connection.nextDeadline, release, flagDeadline].compactMap { $0 }.min()
  }

  // MARK: - Helpers

  /// Begins the next game: the coin (or the kept first player) decides the first game's X.
  mutating func startGame(_ now: Double) -> [SessionOutput] {
    let mark = series.startGame(firstMark: coin.firstMark(of: configuration.role))
    phase = .playing
    beginOpening(usualMark: mark)
    // Draws and takebacks begin once a Swap2 opening has settled the colours; its clocks run from its first stone,
    // counting turns, each side's by its place in the opening (rule 14).
    flow = hasGameFlow && swap2 == nil ? GameFlow(myMark: mark) : nil
    clock = GameClock(timeControl, myMark: mark, now: now, freeTurns: swap2 == nil ? 2 : 0)
    flagClaimedAt = nil
    heldClaim = nil
    claimSent = nil
    flagFacts = nil
    return [.gameStarted(number: series.gameNumber, myMark: mark)]
  }

  /// The series ended the game with `result` (nothing when nil).
  mutating func ended(_ result: GameResult?) -> [SessionOutput] {
    guard let result else { return [] }
    phase = .betweenGames
    flow = nil
    flagClaimedAt = nil
    clock?.stop()
    return [.gameEnded(result)]
  }

  /// Counts a rematch offer, resignation or record signature that changed nothing: nothing while within the
  /// flood limit, else the violation. A resume replays each counted message once, so nothing it replays changes
  /// nothing; and record signatures are never replayed: a resume is no reason to stop counting.
  mutating func changedNothing(_ now: Double) -> [SessionOutput] {
    guard !peerPace.changedNothing(now) else { return [] }
    let what =
      "rematch offers, resignations and record signatures, draw offers and takeback requests that changed nothing"
    return violation("more than \(peerPace.changedNothingFlood) \(what) in \(Int(peerPace.seconds)) seconds", now)
  }

  mutating func unexpected(_ message: Message, _ now: Double) -> [SessionOutput] {
    violation("an unexpected \(message.name) (\(phase.moment))", now)
  }

  mutating func violation(_ text: String, _ now: Double) -> [SessionOutput] {
    [send(.error(text: text), now), close(.protocolViolation(text))]
  }

  /// Sends a counted message (kept to be sent again after a drop).
  mutating func send(_ message: Message, _ now: Double) -> SessionOutput {
    connection.ledger.sending(message)
    return sendUncounted(message, now)
  }

  mutating func sendUncounted(_ message: Message, _ now: Double) -> SessionOutput {
    connection.sent(now)
    return .send(message)
  }

  mutating func close(_ end: SessionEnd) -> SessionOutput {
    phase = .closed(end)
    return .closed(end)
  }
}

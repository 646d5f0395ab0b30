import GameCore
import UntrustedText
import WireProtocol

/// A networked match as a pure state machine: messages, local actions and the clock go in; messages to send,
/// events for the UI and the end of the session come out. It validates everything the peer sends.
public struct NetSession: Sendable {
  public let configuration: Configuration
  public private(set) var phase = Phase.greeting
  public private(set) var peerName: PeerText?
  public private(set) var peerSoftware: PeerText?
  public private(set) var version: UInt16?
  /// The connection under the match: its clock, a drop and the resume after it.
  private var connection: SessionLink
  public var link: Link { connection.state }
  /// The connection has been down longer than the grace period: `claim()` may end the game.
  public var graceExpired: Bool { connection.graceExpired }
  /// Host: set before `accept` when this joiner's key left a game here within the grace period: whether the
  /// host played X in it. With protocol version 2 the first game then keeps that first player (`coin kept`)
  /// instead of a new toss, so leaving and coming back cannot re-roll the coin.
  public var keptHostPlaysX: Bool?

  /// The games of the match: the rules, the current game, this player's mark, the score and the rematch offers.
  private var series: GameSeries
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
  /// Who plays X in the first game.
  private var coin: CoinToss
  /// The first game's first player came from the game the joiner left (`coin kept`), not from a toss.
  public var firstPlayerWasKept: Bool { coin.wasKept }

  private var peerGreeted = false
  private let sha256: @Sendable ([UInt8]) -> [UInt8]
  /// How fast the peer chats, offers rematches, resigns and signs records: shown, dropped or a flood.
  private var peerPace: PeerPace
  /// This player's chats, sent at the pace the peer shows.
  private var outbox: ChatOutbox
  /// Record signatures the peer sent: one a game that ended is expected.
  private var peerSignatures = 0
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
    peerPace = PeerPace(chatBurst: configuration.chatBurst, seconds: configuration.chatWindow)
    outbox = ChatOutbox(
      limit: configuration.chatBurst, seconds: configuration.chatWindow, capacity: configuration.chatBurst)
  }

  public var isClosed: Bool {
    if case .closed = phase { return true }
    return false
  }

  /// Whether it is this player's move now.
  public var myTurn: Bool { phase == .playing && game?.turn == myMark && !isResuming }

  public var isResuming: Bool { connection.isResuming }

  /// When the grace period ends (or ended), while the connection is down.
  public var graceDeadline: Double? { connection.graceDeadline }

  /// Opens the conversation: both sides say hello at once.
  public mutating func start(now: Double) -> [SessionOutput] {
    return [
      send(.hello(versions: configuration.versions, name: configuration.name, software: configuration.software), now)
    ]
  }

  // MARK: - Local actions

  /// Whether the host played X in the latest game begun (nil before the first): what `keptHostPlaysX` keeps.
  public var hostPlayedXLast: Bool? { myMark.map { ($0 == .x) == (configuration.role == .host) } }

  /// Host: let the joiner in (after the player accepted it).
  public mutating func accept(now: Double) -> [SessionOutput] {
    guard configuration.role == .host, phase == .awaitingDecision, let version else { return [] }
    phase = .tossing
    if let kept = keptHostPlaysX, version >= 2 {
      coin.keep(hostPlaysX: kept)
      return [send(.welcome(version: version, rules: rules), now), send(.coinKept(hostPlaysX: kept), now)]
        + startGame()
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
    guard phase == .playing, let game else { throw .illegal(.gameOver) }
    let ply = UInt16(game.history.count)
    do {
      try series.play(position, byPeer: false)
    } catch {
      throw .illegal(error)
    }
    return [send(.move(ply: ply, position: position), now)] + ended(series.finishIfOver())
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
    if rematchOfferedByPeer { return [send(.rematchAccept, now)] + startGame() }
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
    return chats + due(now)
  }

  /// What the connection's clock says is due at `now`.
  private mutating func due(_ now: Double) -> [SessionOutput] {
    switch connection.due(now) {
    case nil: return []
    case .graceOver:
      // Only a game in progress can be claimed; between games there is nothing left to wait for.
      guard phase == .playing else {
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
    guard connection.state == .up, let release = outbox.nextRelease else { return connection.nextDeadline }
    return connection.nextDeadline.map { min($0, release) } ?? release
  }

  // MARK: - From the peer

  /// A frame arrived that could not be decoded: tell the peer and close.
  public mutating func receiveMalformed(_ error: WireError, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    return violation("malformed message: \(error)", now)
  }

  /// The connection ended without a goodbye. In the middle of a match the game is kept for the grace period
  /// (`.connectionLost` tells the driver to close the socket and, on the joiner, to reconnect); before the
  /// game began the session ends.
  public mutating func connectionLost(now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    if connection.isLost { return [] }
    guard canResume else { return [close(.connectionLost)] }
    return connection.drop(now)
  }

  /// Whether a drop now keeps the game for the grace period (the match has begun and is not over).
  public var keepsGameOnDrop: Bool { !isClosed && canResume }

  /// Whether a drop now keeps the game: the match had begun (the host accepted, the rules are known).
  private var canResume: Bool {
    switch phase {
    case .tossing, .playing, .betweenGames: return true
    default: return false
    }
  }

  /// Joiner: a new connection to the host is secured; ask to resume the game.
  public mutating func requestResume(now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, let request = connection.requestResume(now, holding: holding) else {
      return []
    }
    return [sendUncounted(request, now)]
  }

  /// Host: the joiner came back on a new connection (its key already checked). The old connection may still
  /// look alive, or be half-way through an earlier resume: it is dropped and the resume starts over on the new
  /// one.
  public mutating func peerReconnected(now: Double) -> [SessionOutput] {
    guard configuration.role == .host, canResume, !isClosed else { return [] }
    return connection.peerReconnected(now)
  }

  /// The remaining player ends a game whose opponent did not come back within the grace period: a win.
  public mutating func claim(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    guard !isClosed else { throw .matchOver }
    guard graceExpired, connection.isLost, phase == .playing, let myMark else { throw .nothingToClaim }
    return ended(series.end(.abandoned(loser: myMark.opponent))) + [
      close(.peerDidNotReturn(seconds: Int(configuration.gracePeriod), claimed: true))
    ]
  }

  /// The game this side holds, as the resume messages say it.
  private var holding: HeldGame { series.holding(playing: phase == .playing, sha256: sha256) }

  private mutating func peerResume(received: UInt32, sent: UInt32, _ now: Double) -> [SessionOutput] {
    switch connection.peerResumes(received: received, sent: sent, holding: holding) {
    case .success(let messages): return messages.map { sendUncounted($0, now) } + checkIfCaughtUp(now)
    case .failure(let mismatch): return violation(mismatch.text, now)
    }
  }

  /// Once everything the peer sent before the drop has arrived, say which game this side holds.
  private mutating func checkIfCaughtUp(_ now: Double) -> [SessionOutput] {
    guard connection.caughtUp else { return [] }
    return [sendUncounted(connection.check(holding: holding), now)]
  }

  public mutating func receive(_ message: Message, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    if connection.isLost { return [] }  // nothing arrives on a dropped connection
    if let early = connection.arrived(message, now) { return violation(early, now) }
    let outputs = process(message, now)
    return outputs + checkIfCaughtUp(now)
  }

  private mutating func process(_ message: Message, _ now: Double) -> [SessionOutput] {
    switch message {
    case .heartbeat, .deciding:
      // One every 3 seconds keeps a connection alive; a peer that floods them only costs the other side. A
      // joiner's `deciding` is liveness here; how long the host waits for its hello is the match's business.
      guard connection.heartbeatArrived(now) else {
        return violation("more than \(NetSession.heartbeatBurst) heartbeats within a second", now)
      }
      return []
    case .resume(let received, let sent, _, _, _):
      guard peerGreeted, canResume else {
        return violation("a resume request, but there is no game to resume here", now)
      }
      return peerResume(received: received, sent: sent, now)
    case .resumeCheck(let gameNumber, let ply, let digest):
      switch connection.peerChecks(HeldGame(game: gameNumber, ply: ply, digest: digest), holding: holding) {
      case .success(let resumed): return [resumed]
      case .failure(let mismatch): return violation(mismatch.text, now)
      }
    case .bye(_, let text):
      // An opponent who leaves a game in progress loses it, as the leaver's own score says.
      if gameInProgress { series.gameLeft(byMe: false) }
      return [close(.peerQuit(PeerText(text)))]
    case .error(let text):
      return [close(.peerReportedError(PeerText(text)))]
    case .hello(let versions, let name, let software, _):
      if isResuming && configuration.role == .joiner {
        return [close(.gameNoLongerHeld)]  // a host greeting us afresh has no game to resume with us
      }
      return hello(versions: versions, name: name, software: software, now)
    default:
      break
    }
    guard peerGreeted else { return violation("\(message.name) before hello", now) }
    switch message {
    case .welcome(let version, let rules):
      guard configuration.role == .joiner, phase == .awaitingWelcome else { return unexpected(message, now) }
      guard configuration.versions.contains(version) else {
        return violation("the host chose protocol version \(version), which was not offered", now)
      }
      self.version = version
      series.rules = rules
      phase = .tossing
      return []
    case .refuse(let reason, let text):
      guard configuration.role == .joiner, phase == .awaitingWelcome else { return unexpected(message, now) }
      return [close(.refused(reason, PeerText(text)))]
    case .coinCommit(let digest):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment == nil else {
        return unexpected(message, now)
      }
      return [send(.coinShare(bytes: coin.committed(to: digest)), now)]
    case .coinKept(let hostPlaysX):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment == nil, (version ?? 0) >= 2 else {
        return unexpected(message, now)
      }
      coin.keep(hostPlaysX: hostPlaysX)
      return startGame()
    case .coinShare(let share):
      guard configuration.role == .host, phase == .tossing else { return unexpected(message, now) }
      return [send(.coinReveal(secret: coin.shared(share)), now)] + startGame()
    case .coinReveal(let secret):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment != nil else {
        return unexpected(message, now)
      }
      guard coin.revealed(secret) else {
        return [send(.error(text: "coin secret does not match"), now), close(.coinTossCheated)]
      }
      return startGame()
    case .move(let ply, let position, _):
      return peerMove(ply: ply, position: position, now)
    case .resign:
      if let myMark, phase == .playing { return ended(series.end(.resigned(loser: myMark.opponent))) }
      // Between games only one crossing the game's end counts (rule 6); the others change nothing.
      let crossed = phase == .betweenGames ? ended(series.resignationCrossed()) : []
      return crossed.isEmpty ? changedNothing(now) : crossed
    case .rematchOffer:
      guard phase == .betweenGames else { return unexpected(message, now) }
      if rematchOfferedByMe { return startGame() }
      // The offer stands: saying it again changes nothing, and is not reported again.
      guard !rematchOfferedByPeer else { return changedNothing(now) }
      series.peerOffersRematch()
      return [.rematchOffered]
    case .rematchAccept:
      guard phase == .betweenGames, rematchOfferedByMe else { return unexpected(message, now) }
      return startGame()
    case .chat(let text):
      // Chats sent again after a drop arrive together; only new ones count towards the pace.
      if connection.ledger.isReplaying { return [.chat(PeerText(text))] }
      switch peerPace.chat(now) {
      case .show: return [.chat(PeerText(text))]
      case .drop(let first): return first ? [.chatsDropped] : []
      case .flood:
        return violation(
          "chat flood: more than \(peerPace.chatFlood) messages in \(Int(peerPace.seconds)) seconds", now)
      }
    case .recordSignature:
      // A record signature is the match's business (MatchCore), not the game's: one a game ended is expected,
      // any more change nothing.
      peerSignatures += 1
      return peerSignatures > series.gameNumber - (phase == .playing ? 1 : 0) ? changedNothing(now) : []
    case .drawOffer, .drawAccept, .drawDecline, .takebackRequest, .takebackAccept, .takebackDecline, .abort,
      .flagClaim, .flagAnswer:
      return unexpected(message, now)
    case .hello, .heartbeat, .deciding, .bye, .error, .resume, .resumeCheck:
      return []
    }
  }

  private mutating func hello(versions: [UInt16], name: String, software: String, _ now: Double) -> [SessionOutput] {
    guard !peerGreeted else { return violation("a second hello", now) }
    peerGreeted = true
    peerName = PeerText(name)
    peerSoftware = PeerText(software)
    guard let chosen = ProtocolVersion.choose(ours: configuration.versions, theirs: versions) else {
      let ours = ProtocolVersion.describe(configuration.versions)
      let text = "this host speaks protocol \(ours); you speak \(ProtocolVersion.describe(versions))"
      let refusal =
        configuration.role == .host
        ? [send(.refuse(.versionMismatch, text: UTF8Clip.clip(text, bytes: Message.maximumTextBytes)), now)] : []
      return refusal + [close(.versionMismatch(ours: configuration.versions, theirs: versions))]
    }
    version = chosen
    phase = configuration.role == .host ? .awaitingDecision : .awaitingWelcome
    return [.peerHello(name: PeerText(name), software: PeerText(software))]
  }

  private mutating func peerMove(ply: UInt16, position: Position, _ now: Double) -> [SessionOutput] {
    if phase == .betweenGames, case .resigned = lastResult { return [] }  // crossed with a resignation
    guard phase == .playing, let game else { return violation("a move while no game is in progress", now) }
    guard Int(ply) == game.history.count else {
      return violation("a move for ply \(ply) when ply \(game.history.count) was next (repeated or out of order)", now)
    }
    do {
      try series.play(position, byPeer: true)
    } catch {
      return violation("an illegal move: \(error)", now)
    }
    return [.peerMoved(position)] + ended(series.finishIfOver())
  }

  // MARK: - Helpers

  /// Begins the next game: the coin (or the kept first player) decides the first game's X.
  private mutating func startGame() -> [SessionOutput] {
    let mark = series.startGame(firstMark: coin.firstMark(of: configuration.role))
    phase = .playing
    return [.gameStarted(number: series.gameNumber, myMark: mark)]
  }

  /// The series ended the game with `result` (nothing when nil).
  private mutating func ended(_ result: GameResult?) -> [SessionOutput] {
    guard let result else { return [] }
    phase = .betweenGames
    return [.gameEnded(result)]
  }

  /// Counts a rematch offer, resignation or record signature that changed nothing: nothing while within the
  /// flood limit, else the violation. A resume replays each counted message once, so nothing it replays changes
  /// nothing; and record signatures are never replayed: a resume is no reason to stop counting.
  private mutating func changedNothing(_ now: Double) -> [SessionOutput] {
    guard !peerPace.changedNothing(now) else { return [] }
    let what = "rematch offers, resignations and record signatures that changed nothing"
    return violation("more than \(peerPace.changedNothingFlood) \(what) in \(Int(peerPace.seconds)) seconds", now)
  }

  private mutating func unexpected(_ message: Message, _ now: Double) -> [SessionOutput] {
    violation("an unexpected \(message.name) (\(phase.moment))", now)
  }

  private mutating func violation(_ text: String, _ now: Double) -> [SessionOutput] {
    [send(.error(text: text), now), close(.protocolViolation(text))]
  }

  /// Sends a counted message (kept to be sent again after a drop).
  private mutating func send(_ message: Message, _ now: Double) -> SessionOutput {
    connection.ledger.sending(message)
    return sendUncounted(message, now)
  }

  private mutating func sendUncounted(_ message: Message, _ now: Double) -> SessionOutput {
    connection.sent(now)
    return .send(message)
  }

  private mutating func close(_ end: SessionEnd) -> SessionOutput {
    phase = .closed(end)
    return .closed(end)
  }
}

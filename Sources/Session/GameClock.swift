import GameCore
import WireProtocol

/// Both clocks of one timed game as this side keeps them (PROTOCOL.md rule 14): what this player's moves
/// cost (its own thinking time C, replaced by the peer's echoed charge), what the peer's moves are charged
/// (Q = min(O, max(C, O − A)) within the lag budget), when a flag falls and how a claim is answered. Times are
/// milliseconds; the session's clock (seconds) is given to each call, so a test drives it by hand. Pure.
public struct GameClock: Sendable, Equatable {
  /// A: how much network delay a mover is believed about, per move.
  public static let lagAllowance = 1_000

  /// B: the most allowance a side is given in one game: min(15 s, max(2 s, base ÷ 4)).
  public static func lagBudget(_ control: TimeControl) -> Int { min(15_000, max(2_000, control.base / 4)) }

  public let control: TimeControl
  /// This player's side: its mark, or in a Swap2 game its place in the opening (the first player as X) whatever
  /// colour it ends with, the clock counting turns (PROTOCOL.md rule 14).
  public let myMark: Mark
  /// How many turns are played before the clocks charge: 2 (each side's first move is free), 0 in a Swap2 game.
  public let freeTurns: Int
  /// Time left for each side (for a fixed time per move: that time, always).
  public private(set) var left: [Mark: Int]
  /// The allowance the peer may still be given in this game.
  public private(set) var peerBudgetLeft: Int
  /// When the turn came to this player (the arrival of the peer's move or of a takeback accept), while it moves.
  private var turnSince: Double?
  /// When this side last gave the peer the turn (its move or takeback accept went out), while the peer moves.
  private var gaveTurnAt: Double?
  /// The charge for the peer's last move, to echo with this player's next move.
  private var echoDue: Int?
  /// The peer's last move, while this player has not moved since: its C and the time the peer had before it (a
  /// takeback of that move charges it at C, as the peer's own clock does, since no echo will come).
  private var lastPeerMove: (thinking: Int, leftBefore: Int)?
  /// This player's last move as charged by itself (C), until the peer's echo replaces it; and the time it had
  /// left before it (a claim that crossed the move is judged on that).
  private var awaitingEcho: (thinking: Int, leftBefore: Int)?
  /// Each move's times as this side knows them, by ply: what the game's records keep (`agreedTimes`).
  private var log: [LoggedMove] = []
  /// The ply of the peer's move `echoDue` charges, and of this player's move `awaitingEcho` is.
  private var echoDuePly: Int?
  private var awaitingEchoPly: Int?

  public static func == (a: GameClock, b: GameClock) -> Bool {
    a.control == b.control && a.myMark == b.myMark && a.freeTurns == b.freeTurns && a.left == b.left
      && a.peerBudgetLeft == b.peerBudgetLeft
      && a.turnSince == b.turnSince && a.gaveTurnAt == b.gaveTurnAt && a.echoDue == b.echoDue
      && a.lastPeerMove?.thinking == b.lastPeerMove?.thinking
      && a.lastPeerMove?.leftBefore == b.lastPeerMove?.leftBefore
      && a.awaitingEcho?.thinking == b.awaitingEcho?.thinking
      && a.awaitingEcho?.leftBefore == b.awaitingEcho?.leftBefore && a.log == b.log
      && a.echoDuePly == b.echoDuePly && a.awaitingEchoPly == b.awaitingEchoPly
  }

  /// A new game begun at `now`; X moves first (in a Swap2 game, the first player), and the first `freeTurns` turns
  /// are not charged. nil for an untimed control.
  public init?(_ control: TimeControl, myMark: Mark, now: Double, freeTurns: Int = 2) {
    guard control.isTimed else { return nil }
    self.control = control
    self.myMark = myMark
    self.freeTurns = freeTurns
    left = [.x: control.base, .o: control.base]
    peerBudgetLeft = Self.lagBudget(control)
    if myMark == .x { turnSince = now } else { gaveTurnAt = now }
  }

  /// A game taken up at `ply` after a restart (PROTOCOL.md rule 19): each side's time left as the side that kept
  /// the game offered it, the earlier moves' agreed `times` as it offered them (each charge, and the time left after
  /// it; without them, from an older program, 0 and the increment), the clock of the side to move running from
  /// `now`. nil for an untimed control.
  public init?(
    restoring control: TimeControl, myMark: Mark, left offered: [Mark: Int], ply: Int, times: [AgreedTime] = [],
    now: Double, freeTurns: Int = 2
  ) {
    self.init(control, myMark: myMark, now: now, freeTurns: freeTurns)
    for mark in [Mark.x, .o] { left[mark] = min(offered[mark] ?? control.base, Self.ceiling(control)) }
    log = (0..<ply).map { ply in
      guard ply < times.count else { return LoggedMove(thinking: 0, charged: 0, leftBefore: 0, agreed: true) }
      let time = times[ply]
      // The time before the move, as `agreedTimes` gives back `time.left` after it.
      var before = time.left + time.charged
      if case .fischer(_, let increment) = control { before -= increment }
      return LoggedMove(thinking: time.charged, charged: time.charged, leftBefore: before, agreed: true)
    }
    let myTurn = ply.isMultiple(of: 2) == (myMark == .x)
    turnSince = myTurn ? now : nil
    gaveTurnAt = myTurn ? nil : now
  }

  /// The most time a side can have: a day, as time controls are bounded.
  static func ceiling(_ control: TimeControl) -> Int { TimeControl.maximumMilliseconds }

  /// Milliseconds between two readings of the session's clock.
  static func milliseconds(_ from: Double, _ to: Double) -> Int { max(0, Int(((to - from) * 1_000).rounded())) }

  /// Whether a move at `ply` (a turn, in a Swap2 game) is charged: a clock starts after each side's first move,
  /// at once in a Swap2 game.
  func charges(ply: Int) -> Bool { ply >= freeTurns }

  /// This player's thinking time so far (0 when it is not its turn).
  public func myThinking(now: Double) -> Int { turnSince.map { Self.milliseconds($0, now) } ?? 0 }

  /// Whether this player's own clock has run out for a move at `ply` (it may not move then: it waits for the
  /// claim).
  public func myTimeIsUp(ply: Int, now: Double) -> Bool {
    charges(ply: ply) && myThinking(now: now) > left[myMark, default: 0]
  }

  /// Time left for `mark` at `now`, its running move counted (never below 0): what a screen shows.
  public func remaining(_ mark: Mark, now: Double) -> Int {
    let running = mark == myMark ? myThinking(now: now) : gaveTurnAt.map { Self.milliseconds($0, now) } ?? 0
    return max(0, left[mark, default: 0] - running)
  }

  /// This player moves at `ply` at `now`: the clock fields to send with the move.
  public mutating func myMove(ply: Int, now: Double) -> MoveClock {
    let thinking = myThinking(now: now)
    let echo = echoDue
    if echo != nil, let echoed = echoDuePly, echoed < ply, echoed < log.count { log[echoed].agreed = true }
    logMove(
      ply: ply,
      LoggedMove(
        thinking: thinking, charged: thinking, leftBefore: left[myMark, default: 0], agreed: !charges(ply: ply),
        echoed: echo == nil ? nil : echoDuePly))
    awaitingEchoPly = charges(ply: ply) ? ply : nil
    echoDuePly = nil
    echoDue = nil
    lastPeerMove = nil
    turnSince = nil
    gaveTurnAt = now
    if charges(ply: ply) {
      let before = left[myMark, default: 0]
      awaitingEcho = (thinking, before)
      left[myMark] = after(before, charged: thinking)
    }
    return MoveClock(thinking: thinking, echo: echo)
  }

  /// This player's last move was void (a claim crossed it): its time is taken back too.
  public mutating func myMoveVoided() {
    if let awaiting = awaitingEcho { left[myMark] = awaiting.leftBefore }
    awaitingEcho = nil
    // The echo the void move carried never counted on the peer's side.
    if let ply = awaitingEchoPly, ply < log.count, let echoed = log[ply].echoed, echoed < log.count {
      log[echoed].agreed = false
    }
    awaitingEchoPly = nil
  }

  /// Why the peer's clock fields cannot be right.
  public enum Violation: Error, Sendable, Equatable {
    case missing
    case overTime(thinking: Int, left: Int)
  }

  /// The peer's move at `ply` arrived at `now` with `fields`: the charge made for it (0 for an uncharged first
  /// move). The peer's echo of this player's last move is adopted.
  public mutating func peerMove(ply: Int, fields: MoveClock?, now: Double) -> Result<Int, Violation> {
    guard let fields else { return .failure(.missing) }
    let peer = myMark.opponent
    var charge = 0
    var logged = LoggedMove(
      thinking: fields.thinking, charged: 0, leftBefore: left[peer, default: 0], agreed: true, echoed: nil)
    if charges(ply: ply) {
      let had = left[peer, default: 0]
      guard fields.thinking <= had else { return .failure(.overTime(thinking: fields.thinking, left: had)) }
      let observed = gaveTurnAt.map { Self.milliseconds($0, now) } ?? 0
      charge = self.charge(thinking: fields.thinking, observed: observed)
      peerBudgetLeft -= observed - charge
      // A move that arrived before the claim went counts, charged at most the time its mover had.
      charge = min(charge, had)
      left[peer] = after(had, charged: charge)
      echoDue = charge
      echoDuePly = ply
      lastPeerMove = (fields.thinking, had)
      logged.charged = charge
      logged.agreed = false
    }
    logMove(ply: ply, logged)
    if let echo = fields.echo { adopt(echo, before: ply) }
    gaveTurnAt = nil
    turnSince = now
    return .success(charge)
  }

  /// Q = min(O, max(C, O − A)), the allowance O − Q taken from the budget (the charge raised when it is spent).
  func charge(thinking: Int, observed: Int) -> Int {
    let believed = min(observed, max(thinking, observed - Self.lagAllowance))
    return max(believed, observed - peerBudgetLeft)
  }

  private func after(_ had: Int, charged: Int) -> Int {
    switch control {
    case .none, .perMove: return had
    case .fischer(_, let increment): return had - charged + increment
    }
  }

  /// The peer's charge for this player's last move replaces the thinking time it was counted at.
  private mutating func adopt(_ echo: Int, before ply: Int) {
    guard let awaiting = awaitingEcho else { return }
    awaitingEcho = nil
    left[myMark] = after(awaiting.leftBefore, charged: echo)
    // A move of this player's taken back since is no longer in the game.
    if let mine = awaitingEchoPly, mine < ply, mine < log.count {
      log[mine].charged = echo
      log[mine].agreed = true
    }
    awaitingEchoPly = nil
  }

  /// When the peer's flag falls on this side's clock, while the peer is to move at `ply` (nil when no claim can
  /// come: this player's turn, or a first move).
  public func flagDeadline(ply: Int) -> Double? {
    guard charges(ply: ply), let since = gaveTurnAt else { return nil }
    return since + Double(left[myMark.opponent, default: 0] + Self.lagAllowance) / 1_000
  }

  /// The claim to send at `now` for ply `ply`: the time the peer had and the time seen.
  public func claim(ply: Int, now: Double) -> Message {
    let seen = gaveTurnAt.map { Self.milliseconds($0, now) } ?? 0
    return .flagClaim(ply: UInt16(clamping: ply), timeLeft: left[myMark.opponent, default: 0], observed: seen)
  }

  /// This player's answer to a claim: its own thinking time for the move in question (`crossed`: the C of a move
  /// the claim crossed; else the time since its turn came), and whether its own clock contradicts the claim by
  /// more than A.
  public func answer(crossed: (thinking: Int, leftBefore: Int)?, now: Double) -> (thinking: Int, disputed: Bool) {
    let thinking = crossed?.thinking ?? myThinking(now: now)
    let had = crossed?.leftBefore ?? left[myMark, default: 0]
    return (thinking, had - thinking > Self.lagAllowance)
  }

  /// The move of this player's awaiting the peer's echo, if any: what a crossing claim is judged on.
  var unechoedMove: (thinking: Int, leftBefore: Int)? { awaitingEcho }

  /// A takeback was accepted: the requester moves next, from `now` (the clocks are not restored). When it takes
  /// back only the requester's own last move, no echo of that move will come: both sides keep the requester's C
  /// for it.
  public mutating func turnAfterTakeback(requesterIsMe: Bool, now: Double) {
    if requesterIsMe {
      turnSince = now
      gaveTurnAt = nil
      awaitingEcho = nil
      awaitingEchoPly = nil
    } else {
      gaveTurnAt = now
      turnSince = nil
      if let last = lastPeerMove { left[myMark.opponent] = after(last.leftBefore, charged: last.thinking) }
      lastPeerMove = nil
      echoDue = nil
      echoDuePly = nil
    }
  }

  /// The game ended: neither clock runs.
  public mutating func stop() {
    turnSince = nil
    gaveTurnAt = nil
  }

  /// The message that gave the peer the turn went out again on a resume at `now`: O counts from there.
  public mutating func turnGivenAgain(now: Double) {
    if gaveTurnAt != nil { gaveTurnAt = now }
  }
}

extension GameClock {
  /// One move as this side logged it: the mover's thinking time C, the charge (this side's Q for a peer's move,
  /// the peer's echo for this player's own, C until it comes), the mover's time before it, whether both sides
  /// hold the same charge (the echo crossed), and the ply of the peer's move whose echo it carried.
  struct LoggedMove: Sendable, Equatable {
    var thinking: Int
    var charged: Int
    var leftBefore: Int
    var agreed: Bool
    var echoed: Int?
  }

  /// One move's time as both sides agree on it: the charge and the mover's time left after it (for a fixed time
  /// per move, what was left of that move's time). Milliseconds.
  public struct AgreedTime: Sendable, Equatable {
    public let charged: Int
    public let left: Int

    public init(charged: Int, left: Int) {
      self.charged = charged
      self.left = left
    }
  }

  /// A move played (again, after a takeback) at `ply`: later plies are gone.
  fileprivate mutating func logMove(ply: Int, _ move: LoggedMove) {
    if log.count > ply { log.removeSubrange(ply...) }
    while log.count < ply { log.append(LoggedMove(thinking: 0, charged: 0, leftBefore: 0, agreed: true)) }
    log.append(move)
  }

  /// The times of the first `plies` moves as both sides hold them (PROTOCOL.md rule 14): the charge the echo
  /// settled, or, for a move no echo followed (the game's last), its mover's own C, which both sides know. Each
  /// side's first move is free.
  public func agreedTimes(plies: Int) -> [AgreedTime] {
    log.prefix(plies).enumerated().map { ply, move in
      guard charges(ply: ply) else { return AgreedTime(charged: 0, left: control.base) }
      let charged = move.agreed ? move.charged : move.thinking
      // A false echo is adopted (rule 15) and may charge more than there was: a record shows no time below 0.
      if case .perMove(let time) = control { return AgreedTime(charged: charged, left: max(0, time - charged)) }
      return AgreedTime(charged: charged, left: max(0, after(move.leftBefore, charged: charged)))
    }
  }
}

/// The flag claim that ended a game and its answer, as both sides saw them (PROTOCOL.md rule 15): the claimant,
/// the time the mover had on the claimant's clock, the time the claimant saw pass, the mover's own thinking time.
public struct FlagFacts: Sendable, Equatable {
  public let claimant: Mark
  public let timeLeft: Int
  public let observed: Int
  public let thinking: Int

  public init(claimant: Mark, timeLeft: Int, observed: Int, thinking: Int) {
    self.claimant = claimant
    self.timeLeft = timeLeft
    self.observed = observed
    self.thinking = thinking
  }
}

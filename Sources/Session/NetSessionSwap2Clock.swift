import GameCore
import WireProtocol

/// The clocks of a timed game that opens with Swap2 (PROTOCOL.md rule 14, "Version 4: rule variants and
/// openings"): the clock counts turns, each a run of one player's actions (the first player's three stones; the
/// second's choice, with its stone 4 when it takes white or its stones 4 and 5 when it places two more; the first's
/// choice, with stone 6 when it takes white; then each move), every turn charged from the first, the side that acts
/// being the one whose clock runs. `GameClock` keeps them with this player's place in the opening as its mark (the
/// first player as X), whatever colour it ends with; this maps the board's plies and colours to it. Pure.
extension NetSession {
  /// Whether the clock counts the turns of a Swap2 game: a timed game that opened with Swap2 here (a game kept
  /// through a restart and taken up after its opening counts moves again, as both sides restore it so).
  var clockCountsTurns: Bool { swap2 != nil && clock?.freeTurns == 0 }

  /// The clock's turn of the stone at board ply `ply`: the ply itself in a game whose clock counts moves.
  func clockTurn(ofStone ply: Int) -> Int {
    guard clockCountsTurns, let swap2 else { return ply }
    return swap2.turn(ofStone: ply)
  }

  /// The clock's turn in progress (the ply in a game whose clock counts moves).
  var clockTurn: Int { clockTurn(ofStone: game?.history.count ?? 0) }

  /// Whether the turn in progress is this player's: it places the next stone or makes the next choice.
  var myClockRuns: Bool { inOpening ? swap2?.myTurn == true : game?.turn == myMark }

  /// Whose clock runs now (nil when none does: no game in progress, a claim made, or a free first move).
  public var runningClock: RunningClock? {
    guard let clock, gameInProgress, flagClaimedAt == nil, clock.charges(ply: clockTurn) else { return nil }
    return myClockRuns ? .mine : .peer
  }

  /// Whose clock runs.
  public enum RunningClock: Sendable, Equatable {
    case mine
    case peer
  }

  /// This player's clock and the peer's as `clock` keeps them (its marks are the places in a Swap2 opening).
  public var clockMarks: (mine: Mark, peer: Mark)? { clock.map { ($0.myMark, $0.myMark.opponent) } }

  /// The clock's mark of the side playing `colour` (they differ in a Swap2 game whose first player took white).
  func clockMark(of colour: Mark) -> Mark {
    guard clockCountsTurns, swap2?.opening.mark(of: .first) == .o else { return colour }
    return colour.opponent
  }

  /// Each stone's agreed time, for the records, the journal, a kept game and spectators (rule 14): the time of the
  /// turn a stone ended on it, and on the turn's other stones no charge and the time left before it. A turn that
  /// was only a choice has no stone: its charge shows in the time its chooser has left at its next stone.
  public func agreedTimes(plies: Int) -> [GameClock.AgreedTime] {
    guard let clock else { return [] }
    guard clockCountsTurns, let opening = swap2 else { return clock.agreedTimes(plies: plies) }
    let turns = opening.opening.stoneTurns(plies: plies, current: opening.turn, now: clockTurn)
    let agreed = clock.agreedTimes(plies: (turns.last?.turn ?? -1) + 1)
    return turns.map { stone in
      let turn = stone.turn
      if stone.endsTurn, turn < agreed.count { return agreed[turn] }
      let mover = turn.isMultiple(of: 2) ? Mark.x : .o
      guard turn < agreed.count else { return GameClock.AgreedTime(charged: 0, left: clock.left[mover, default: 0]) }
      return GameClock.AgreedTime(charged: 0, left: clock.timeBefore(agreed[turn]))
    }
  }

  /// The clock fields of this player's stone or choice at `turn` when it ends the turn (it gives the peer the
  /// turn); the message as it was otherwise.
  mutating func clocked(_ message: Message, turn: Int, _ now: Double) -> Message {
    guard var timed = clock, let swap2, swap2.turn != turn else { return message }
    let fields = timed.myMove(ply: turn, now: now)
    clock = timed
    switch message {
    case .move(let ply, let position, _): return .move(ply: ply, position: position, clock: fields)
    case .openingChoice(let ply, let choice, _): return .openingChoice(ply: ply, choice: choice, clock: fields)
    default: return message
    }
  }

  /// The peer's stone or choice at `turn` was applied: charged when it ended the turn, with the clock fields it
  /// must then carry (and may carry only then). The violation's words, or nil.
  mutating func chargePeer(_ message: Message, turn: Int, _ now: Double) -> String? {
    guard var timed = clock, let swap2 else { return nil }
    let fields: MoveClock?
    switch message {
    case .move(_, _, let clock), .openingChoice(_, _, let clock): fields = clock
    default: fields = nil
    }
    guard swap2.turn != turn else {
      return fields == nil ? nil : "\(NetSwap2.article(message)) \(message.name) with clock fields within its turn"
    }
    switch timed.peerMove(ply: turn, fields: fields, now: now) {
    case .success: clock = timed
    case .failure(.missing):
      return "\(NetSwap2.article(message)) \(message.name) that ends its turn without its thinking time"
    case .failure(.overTime(let thinking, let left)):
      return "\(NetSwap2.article(message)) \(message.name) after \(thinking) ms of thinking when \(left) ms were left"
    }
    return nil
  }

  /// A flag claim voids the claimed turn on both sides (rule 15): the stones and choices of turn `turn` are taken
  /// back, the colours unsettled again when its choice had settled them.
  mutating func voidTurn(_ turn: Int) {
    guard clockCountsTurns, var opening = swap2 else {
      series.takeBack(to: turn)
      return
    }
    let actions = opening.actionsBefore(turn: turn)
    guard turn <= opening.turn, actions < opening.opening.log.count else {
      series.takeBack(to: Int(opening.ply) + max(0, turn - opening.turn))
      return
    }
    opening.rewind(toActions: actions)
    swap2 = opening
    series.takeOpeningBoard(opening.opening.game)
    if !opening.opening.isSettled {
      series.settle(myMark: opening.me == .first ? .x : .o)
      flow = nil
    }
  }
}

extension GameClock {
  /// The mover's time before a move whose agreed time is `time`.
  func timeBefore(_ time: AgreedTime) -> Int {
    switch control {
    case .none: return time.left
    case .perMove(let each): return each
    case .fischer(_, let increment): return time.left + time.charged - increment
    }
  }
}

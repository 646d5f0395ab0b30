/// Both clocks of a timed game played on this machine (against the computer, or two players at one keyboard):
/// one referee, so each move costs exactly the time its side took, with no charges to agree on. X moves first; a
/// clock starts after each side's first move (as lichess, and as network games). A game that opens with Swap2
/// counts turns as a network game does (PROTOCOL.md rule 14, `Swap2.turn`): its sides are the players' places in
/// the opening (X the first player) whatever colours they end with, each turn is charged from the first and earns
/// one increment, and the caller calls `moved` as each turn ends. Times are milliseconds; `now` is a monotonic
/// reading in seconds given to each call, so a test drives it by hand. Pure.
public struct LocalClock: Sendable, Equatable {
  /// One move's charge and its mover's time left after it (for Fischer its clock with the increment added; for
  /// a fixed time per move, what was left of that move's time): what a record writes as TTQ and BL/WL.
  public struct Charge: Sendable, Equatable {
    public var charged: Int
    public var left: Int

    public init(charged: Int, left: Int) {
      self.charged = charged
      self.left = left
    }
  }

  public let control: TimeControl
  /// How many turns are played before the clocks charge: 2 (each side's first move is free), 0 in a Swap2 game.
  public let freeTurns: Int
  /// Each side's time left as of its last move (for a fixed time per move: that time, always).
  public private(set) var left: [Mark: Int]
  /// Each move's charge, by ply (in a Swap2 game each turn's, by turn).
  public private(set) var charges: [Charge] = []
  /// The side whose time ran out, once it has: the game is lost on time.
  public private(set) var flagged: Mark?
  /// Whether the game ended on the board (a line, a full board): no clock runs any more.
  public private(set) var stopped = false
  /// When the side to move began its move: the last move's time, or the game's start.
  private var turnSince: Double

  /// A game begun at `now`, whose first `freeTurns` turns are not charged (0 for a Swap2 game, whose turns are
  /// all charged, the first player's clock running from `now`); nil for an untimed control (an untimed game has no
  /// clock at all, and so nothing wakes its screen).
  public init?(_ control: TimeControl, now: Double, freeTurns: Int = 2) {
    guard control.isTimed else { return nil }
    self.control = control
    self.freeTurns = freeTurns
    left = [.x: control.base, .o: control.base]
    turnSince = now
  }

  /// Whether the move (turn) at `ply` is charged: each side's first move is free, in a Swap2 game none.
  public func charges(ply: Int) -> Bool { ply >= freeTurns }

  /// The side to move.
  public var toMove: Mark { charges.count.isMultiple(of: 2) ? .x : .o }

  /// The side whose clock runs now, or nil (before each side's first move, after the game's end).
  public var running: Mark? {
    guard flagged == nil, !stopped, charges(ply: charges.count) else { return nil }
    return toMove
  }

  private static func milliseconds(_ from: Double, _ to: Double) -> Int { max(0, Int(((to - from) * 1_000).rounded())) }

  /// Time left for `mark` at `now`, its running move counted (0 once its flag fell): what a screen shows.
  public func remaining(_ mark: Mark, now: Double) -> Int {
    if flagged == mark { return 0 }
    let had = left[mark, default: 0]
    guard running == mark else { return had }
    return max(0, had - Self.milliseconds(turnSince, now))
  }

  /// When the running clock's flag falls, or nil when none runs.
  public var flagDeadline: Double? {
    running.map { turnSince + Double(left[$0, default: 0]) / 1_000 }
  }

  /// When the running clock's face (whole seconds, rounded down) next changes after `now`, or its flag falls if
  /// that comes first; nil when no clock runs.
  public func nextFaceChange(now: Double) -> Double? {
    guard let mark = running, let deadline = flagDeadline else { return nil }
    let shown = remaining(mark, now: now)
    return min(deadline, now + Double(shown % 1_000 + 1) / 1_000)
  }

  /// The running clock's flag falls if its time is out at `now` (as `moved` would find it): returns the side
  /// that lost on time, once.
  public mutating func flagIfDue(now: Double) -> Mark? {
    guard let mark = running, Self.milliseconds(turnSince, now) >= left[mark, default: 0] else { return nil }
    flagged = mark
    return mark
  }

  /// The side to move moved at `now`: its time is charged (nothing for a first move), the increment added, and
  /// the other side's clock starts. `ends`: the move ended the game on the board, so no clock runs after it.
  /// A move after the mover's flag fell is not taken: the caller asks `flagIfDue` first, so it is refused here.
  @discardableResult
  public mutating func moved(now: Double, ends: Bool = false) -> Charge? {
    guard flagged == nil, !stopped else { return nil }
    let mover = toMove
    let had = left[mover, default: 0]
    var charge = Charge(charged: 0, left: had)
    if charges(ply: charges.count) {
      let took = Self.milliseconds(turnSince, now)
      guard took < had else {
        flagged = mover
        return nil
      }
      switch control {
      case .none: charge.charged = took
      case .fischer(_, let increment):
        left[mover] = had - took + increment
        charge = Charge(charged: took, left: had - took + increment)
      case .perMove(let time): charge = Charge(charged: took, left: time - took)
      }
    }
    charges.append(charge)
    turnSince = now
    stopped = ends
    return charge
  }

  /// The game ended otherwise than by a move (the player left it): no clock runs any more.
  public mutating func stop() { stopped = true }

  /// The most the side to move may spend searching at `now`, in milliseconds, for a computer whose usual budget
  /// is `usual`: never more than `usual`, and on a running clock no more than a share of its time left (its time
  /// over the moves that may still come, counted as half the empty cells, between 10 and 30, plus the increment,
  /// as a Gomocup manager's `time_left` is shared out), and always short of its flag by a margin for choosing,
  /// handing over and playing the move: a tenth of what is left, at least 50 ms. At least 1 ms.
  public func searchBudget(now: Double, emptyCells: Int, usual: Int) -> Int {
    guard let mark = running else { return usual }
    let left = remaining(mark, now: now)
    let margin = max(left / 10, 50)
    let share: Int
    switch control {
    case .none: share = usual
    case .fischer(_, let increment): share = left / min(max(emptyCells / 2, 10), 30) + increment
    case .perMove: share = left
    }
    return max(1, min(usual, share, left - margin))
  }
}

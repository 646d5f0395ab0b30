/// The judge of a board under its rules' variant: whether a move is forbidden (renju's fouls, for X only) and
/// whether a line wins (five or more, or exactly five, as the variant says).
public enum Referee {
  /// Why `mark` may not play the empty `position` on `board`, or nil when it may (also nil for a taken or
  /// off-board cell: those are other errors). `fivePointMakesThree` false reads threes as the Piskvork
  /// manager's judge does (`FoulCheck`), for comparing with it; the game always follows the rules' text.
  public static func foul(_ position: Position, by mark: Mark, on board: Board, fivePointMakesThree: Bool = true)
    -> Foul?
  {
    guard board.rules.variant.restricts(mark), board.rules.contains(position), board[position] == nil else {
      return nil
    }
    var check = FoulCheck(board)
    check.fivePointMakesThree = fivePointMakesThree
    return check.foul(at: board.index(position))
  }

  /// Every empty cell `mark` may play on `board`.
  public static func allowedMoves(for mark: Mark, on board: Board) -> [Position] {
    guard board.rules.variant.restricts(mark) else { return board.emptyPositions }
    var check = FoulCheck(board)
    return board.emptyPositions.filter { check.foul(at: board.index($0)) == nil }
  }

  /// Whether `mark` has any cell it may play on `board`.
  public static func hasAllowedMove(for mark: Mark, on board: Board) -> Bool {
    guard board.rules.variant.restricts(mark) else { return !board.isFull }
    var check = FoulCheck(board)
    return board.emptyPositions.contains { check.foul(at: board.index($0)) == nil }
  }

  /// The winning run through `position`'s mark, if the variant counts one there: the first direction whose run
  /// wins (every cell of it).
  public static func winningLine(through position: Position, on board: Board) -> [Position]? {
    guard let mark = board[position] else { return nil }
    let rules = board.rules
    for (dr, dc) in Board.directions {
      // Counted first, and the run made only when it wins: this runs after every move (a practice bot's
      // thousands a second), and almost every move wins nothing.
      let before = run(from: position, by: (-dr, -dc), of: mark, on: board)
      let after = run(from: position, by: (dr, dc), of: mark, on: board)
      if rules.variant.wins(runOf: before + 1 + after, by: mark, k: rules.k) {
        return (-before...after).map { Position(row: position.row + $0 * dr, column: position.column + $0 * dc) }
      }
    }
    return nil
  }

  /// How many of `mark`'s stones follow `position` in direction `step`, without a gap.
  private static func run(from position: Position, by step: (Int, Int), of mark: Mark, on board: Board) -> Int {
    var count = 0
    var p = Position(row: position.row + step.0, column: position.column + step.1)
    while board[p] == mark {
      count += 1
      p = Position(row: p.row + step.0, column: p.column + step.1)
    }
    return count
  }
}

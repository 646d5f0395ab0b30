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
      var run = [position]
      for sign in [-1, 1] {
        var p = Position(row: position.row + sign * dr, column: position.column + sign * dc)
        while board[p] == mark {
          if sign < 0 { run.insert(p, at: 0) } else { run.append(p) }
          p = Position(row: p.row + sign * dr, column: p.column + sign * dc)
        }
      }
      if rules.variant.wins(runOf: run.count, by: mark, k: rules.k) { return run }
    }
    return nil
  }
}

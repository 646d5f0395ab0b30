/// Exact play on the boards past ExactSolver's reach that have an `ExactOpenings` table (5×5 with 4 in a row):
/// the table's move in the early plies, `LineSolver`'s win/draw/loss search after them. The search runs to the
/// end, with no deadline: on these boards its worst move was measured within the usual 250 ms (BENCHMARKS.md),
/// and a move cut short could lose.
enum TableSolvedPlay {
  /// Every move that keeps the position's value, or the table's one move; nil when `game` has no table.
  static func perfectMoves(in game: Game) -> [Position]? {
    guard let table = ExactOpenings.table(for: game.rules) else { return nil }
    let cells = game.board.cells
    if game.history.count < table.plies, let cell = table.move(for: cells) {
      return [game.board.position(cell)]
    }
    let (mine, theirs) = sides(of: game)
    let solver = LineSolver(rows: game.rules.rows, columns: game.rules.columns, k: game.rules.k)
    return solver.keepingMoves(mine: mine, theirs: theirs)?.cells.map { game.board.position($0) }
  }

  /// The side to move's value (1 win, 0 draw, -1 loss); nil when `game` has no table.
  static func value(of game: Game) -> Int? {
    guard ExactOpenings.table(for: game.rules) != nil else { return nil }
    let (mine, theirs) = sides(of: game)
    return LineSolver(rows: game.rules.rows, columns: game.rules.columns, k: game.rules.k)
      .value(mine: mine, theirs: theirs)
  }

  private static func sides(of game: Game) -> (mine: UInt64, theirs: UInt64) {
    let (x, o) = LineSolver.masks(game.board.cells)
    return game.turn == .x ? (x, o) : (o, x)
  }
}

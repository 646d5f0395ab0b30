/// What the threat search says the side to move should do before any other search: win by continuous fours,
/// keep to the moves that stop the opponent's, or nothing in particular.
enum ThreatPlan: Equatable {
  /// The first move of a forced win by continuous fours.
  case win(Int, line: [Int])
  /// The opponent would win by continuous fours if we passed; these moves (in the order found) stop it.
  case defend([Int])
  /// No forced win by fours either way was found in time (or nothing stops the opponent's: any move then).
  case none

  /// Shares of the time between `start` and `deadline`: our own win is looked for until the first mark, the
  /// opponent's until the second, and moves that stop it are tried until the third; the rest is left to the
  /// searches that follow.
  static let shares = (own: 0.25, opponent: 0.4, defence: 0.7)

  /// The plan for `mark` to move on `board` (which must not be over, and where the opponent must not have a
  /// cell that wins at once: that is answered before).
  static func make(
    board: Board, mark: UInt8, start: ContinuousClock.Instant, deadline: ContinuousClock.Instant
  ) -> ThreatPlan {
    let total = deadline - start
    var search = ThreatSearch(board: board)
    if let win = search.victoryByFours(for: mark, deadline: start + total * shares.own) {
      return .win(win.move, line: win.line)
    }
    let opponent = 3 - mark
    guard let threat = search.victoryByFours(for: opponent, deadline: start + total * shares.opponent) else {
      return .none
    }
    // Moves on the opponent's line or that make a four of our own are the likeliest to stop it: try them first,
    // then every other cell near the marks.
    let defenceDeadline = start + total * shares.defence
    var tried = Set<Int>()
    var candidates: [Int] = []
    for cell in threat.line + search.fourMoves(for: mark) + nearCells(board) where tried.insert(cell).inserted {
      candidates.append(cell)
    }
    var stopping: [Int] = []
    for cell in candidates where !search.isForbidden(mark, at: cell) {
      if ContinuousClock.now >= defenceDeadline { break }
      search.place(mark, at: cell)
      let answer = search.victoryByFours(for: opponent, deadline: defenceDeadline)
      search.clear(cell)
      if answer == nil, !search.gaveUp { stopping.append(cell) }
    }
    return stopping.isEmpty ? .none : .defend(stopping)
  }

  /// Empty cells within two steps of a mark.
  static func nearCells(_ board: Board) -> [Int] {
    let rows = board.rules.rows
    let columns = board.rules.columns
    var near = [Bool](repeating: false, count: board.cells.count)
    for i in board.cells.indices where board.cells[i] != 0 {
      let r = i / columns
      let c = i % columns
      for rr in max(0, r - 2)...min(rows - 1, r + 2) {
        for cc in max(0, c - 2)...min(columns - 1, c + 2) { near[rr * columns + cc] = true }
      }
    }
    return board.cells.indices.filter { near[$0] && board.cells[$0] == 0 }
  }
}

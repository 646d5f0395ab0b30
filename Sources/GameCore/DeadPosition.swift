extension Game {
  /// Whether no line of k can still be completed by either side: every k cells in a row, column or diagonal
  /// hold marks of both sides, or need more marks of the one side that has some there (or of either, when
  /// empty) than that side still has moves on the board. Such a game can only end in a draw (PROTOCOL.md rule
  /// 18 ends it at once). False once the game is over.
  public var noLineCanBeCompleted: Bool {
    guard !isOver else { return false }
    // Counted, and the moves left worked out, without building arrays or a dictionary: this runs after every
    // move of a version-3 game.
    let empty = board.cells.reduce(0) { $1 == 0 ? $0 + 1 : $0 }
    let turn = self.turn
    // The side to move gets the odd move out.
    func movesLeft(_ mark: Mark) -> Int { mark == turn ? (empty + 1) / 2 : empty / 2 }
    let rules = board.rules
    for row in 0..<rules.rows {
      for column in 0..<rules.columns {
        for (dr, dc) in Board.directions {
          if let needs = windowNeeds(row: row, column: column, dr: dr, dc: dc),
            needs.empty <= movesLeft(needs.mark ?? turn)
              || (needs.mark == nil && needs.empty <= movesLeft(turn.opponent))
          {
            return false
          }
        }
      }
    }
    return true
  }

  /// The k cells from (row, column) in direction (dr, dc): nil when they leave the board or hold both marks;
  /// else the one mark they hold (nil for none) and how many of them are empty.
  private func windowNeeds(row: Int, column: Int, dr: Int, dc: Int) -> (mark: Mark?, empty: Int)? {
    let k = board.rules.k
    let end = Position(row: row + dr * (k - 1), column: column + dc * (k - 1))
    guard board.rules.contains(end) else { return nil }
    var mark: Mark?
    var empty = 0
    for step in 0..<k {
      guard let cell = board[Position(row: row + dr * step, column: column + dc * step)] else {
        empty += 1
        continue
      }
      if let seen = mark, seen != cell { return nil }
      mark = cell
    }
    return (mark, empty)
  }
}

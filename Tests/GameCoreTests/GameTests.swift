import Testing

@testable import GameCore

@Suite struct GameTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  @Test func xMovesFirstAndTurnsAlternate() throws {
    var game = Game()
    #expect(game.turn == .x)
    try game.play(p(1, 1))
    #expect(game.turn == .o)
    #expect(game.board[p(1, 1)] == .x)
    try game.play(p(0, 0))
    #expect(game.turn == .x)
    #expect(game.history == [p(1, 1), p(0, 0)])
    #expect(game.legalMoves.count == 7)
  }

  @Test func illegalMovesAreTypedErrorsAndChangeNothing() throws {
    var game = Game()
    try game.play(p(0, 0))
    let before = game
    #expect(throws: MoveError.occupied(p(0, 0), by: .x)) { try game.play(p(0, 0)) }
    #expect(throws: MoveError.outOfRange(p(3, 0), .standard)) { try game.play(p(3, 0)) }
    #expect(throws: MoveError.outOfRange(p(0, -1), .standard)) { try game.play(p(0, -1)) }
    #expect(throws: MoveError.notYourTurn(expected: .o)) { try game.play(p(1, 1), by: .x) }
    #expect(game == before)
  }

  @Test func noMoveAfterTheGameEnds() throws {
    var game = try Game(rules: .standard, moves: [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)])
    #expect(game.outcome == .win(.x, line: [p(0, 0), p(0, 1), p(0, 2)]))
    #expect(game.legalMoves.isEmpty)
    #expect(throws: MoveError.gameOver) { try game.play(p(2, 2)) }
  }

  @Test func aFullBoardWithoutALineIsADraw() throws {
    // X O X / X O O / O X X
    let moves = [p(0, 0), p(0, 1), p(0, 2), p(1, 1), p(1, 0), p(1, 2), p(2, 1), p(2, 0), p(2, 2)]
    let game = try Game(rules: .standard, moves: moves)
    #expect(game.outcome == .draw)
  }

  @Test func undoTakesBackMovesAndReopensTheGame() throws {
    var game = try Game(rules: .standard, moves: [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)])
    #expect(game.undo() == p(0, 2))
    #expect(game.outcome == nil)
    #expect(game.turn == .x)
    #expect(game.board[p(0, 2)] == nil)
    try game.play(p(2, 2))
    #expect(game.history.count == 5)
    var empty = Game()
    #expect(empty.undo() == nil)
  }

  @Test func errorMessagesNameTheCell() {
    #expect(MoveError.occupied(p(0, 1), by: .o).description == "row 1, column 2 is already taken by O")
    #expect(MoveError.outOfRange(p(3, 0), .standard).description == "row 4, column 1 is off the 3×3 board")
    #expect(MoveError.notYourTurn(expected: .x).description == "it is X's turn")
  }

  /// Win detection on every board shape and k: a line of k in each direction, at the edges and in the
  /// middle, wins; the same line one short does not; runs longer than k are reported whole.
  @Test func winDetectionOnEveryShape() throws {
    var shapes = 0
    for rows in Rules.sideRange {
      for columns in Rules.sideRange {
        for k in 3...min(rows, columns) {
          let rules = try Rules(rows: rows, columns: columns, k: k)
          shapes += 1
          for (dr, dc) in Board.directions {
            let starts = lineStarts(rules: rules, dr: dr, dc: dc)
            for start in starts {
              let line = (0..<k).map { p(start.row + dr * $0, start.column + dc * $0) }
              try expectWin(rules: rules, line: line)
            }
          }
        }
      }
    }
    #expect(shapes == 819)  // Σ over rows, columns of (min(rows, columns) - 2)
  }

  private func lineStarts(rules: Rules, dr: Int, dc: Int) -> [Position] {
    let k = rules.k
    let rowRange = 0...(rules.rows - 1 - dr * (k - 1))
    let columnRange = dc >= 0 ? 0...(rules.columns - 1 - dc * (k - 1)) : (k - 1)...(rules.columns - 1)
    let rowsToTry = Set([rowRange.lowerBound, rowRange.upperBound, (rowRange.lowerBound + rowRange.upperBound) / 2])
    let columnsToTry = Set([
      columnRange.lowerBound, columnRange.upperBound, (columnRange.lowerBound + columnRange.upperBound) / 2,
    ])
    return rowsToTry.flatMap { r in columnsToTry.map { c in p(r, c) } }
  }

  /// Marks `line` on an empty board: every cell of it reports the whole line; without its last cell, none does.
  private func expectWin(rules: Rules, line: [Position]) throws {
    var board = Board(rules: rules)
    for cell in line.dropLast() { board.set(.o, at: cell) }
    #expect(line.allSatisfy { board.winningLine(through: $0) == nil }, "k-1 counted as a win on \(rules)")
    #expect(board.anyWinningLine() == nil)
    if let last = line.last { board.set(.o, at: last) }
    for cell in line {
      #expect(board.winningLine(through: cell) == line, "\(line) on \(rules)")
    }
    #expect(board.anyWinningLine()?.0 == .o)
  }

  @Test func runsLongerThanKAreReportedWhole() throws {
    let rules = try Rules(size: 7, k: 3)
    // X: (3,0) (3,1) (3,3) (3,4), then (3,2) joins them into a run of five.
    let moves = [p(3, 0), p(0, 0), p(3, 1), p(0, 3), p(3, 3), p(6, 0), p(3, 4)]
    var game = try Game(rules: rules, moves: moves)
    #expect(game.outcome == nil)
    try game.play(p(6, 6))
    try game.play(p(3, 2))
    #expect(game.outcome == .win(.x, line: (0...4).map { p(3, $0) }))
  }

  @Test func oneShortOfKIsNoWin() throws {
    let rules = try Rules(size: 9, k: 5)
    let game = try Game(rules: rules, moves: [p(4, 0), p(0, 8), p(4, 1), p(1, 8), p(4, 2), p(2, 8), p(4, 3)])
    #expect(game.outcome == nil)
  }
}

import Testing

@testable import GameCore

/// Renju when every empty cell is forbidden to X, the side to move: there is no pass in this program, so the
/// referee ends the game drawn (renju's own rules let black pass; here the game cannot go on and no one has
/// won), says why, and neither the computer nor anyone else is asked for a move.
@Suite struct RenjuOnlyForbiddenTests {
  /// A 7×7 position with one empty cell, d4, where X's stone would make seven in a row (an overline), and no
  /// line of five anywhere; O has just moved. Made by a random search for such a filling.
  static let rows = [
    "OXXOXOX",
    "XOOOXOX",
    "OXOXOOO",
    "XXX.XXX",
    "XOXOXOO",
    "OOXXXOX",
    "OXOXOOO",
  ]

  /// The stones of `rows` in an order that alternates X and O, O last.
  static func stones() -> [Position] {
    var x: [Position] = []
    var o: [Position] = []
    for (row, text) in rows.enumerated() {
      for (column, mark) in text.enumerated() {
        if mark == "X" { x.append(Position(row: row, column: column)) }
        if mark == "O" { o.append(Position(row: row, column: column)) }
      }
    }
    return zip(x, o).flatMap { [$0, $1] }
  }

  static let rules = try! Rules(size: 7, k: 5, variant: .renju)
  static let empty = Position(row: 3, column: 3)

  @Test func theGameIsDrawnWhenXIsLeftOnlyForbiddenCells() throws {
    let stones = Self.stones()
    #expect(stones.count == 48)
    // Before O's last stone X still had a cell it may play; after it, none.
    var game = try Game(rules: Self.rules, position: Array(stones.dropLast()))
    #expect(game.outcome == nil && game.turn == .o)
    try game.play(stones[47])
    #expect(Referee.foul(Self.empty, by: .x, on: game.board) == .overline)
    #expect(game.outcome == .draw && game.legalMoves.isEmpty && !game.board.isFull)
    #expect(game.endedWithOnlyForbiddenCells)
    var rng = SplitMix(seed: 1)
    #expect(AIPlayer(level: .perfect).chooseMove(in: game, using: &rng) == nil)
    #expect(throws: MoveError.gameOver) { try game.play(Self.empty) }
    // Taken back, the game goes on; under freestyle the same cell simply wins nothing and is played.
    game.undo()
    #expect(game.outcome == nil && !game.endedWithOnlyForbiddenCells)
    var free = try Game(rules: try Rules(size: 7, k: 5), position: stones)
    #expect(free.outcome == nil && free.legalMoves == [Self.empty] && !free.endedWithOnlyForbiddenCells)
    try free.play(Self.empty)
    #expect(free.outcome?.winner == .x, "freestyle: seven in a row wins")
  }

  @Test func aFullBoardIsAnOrdinaryDraw() throws {
    var game = try Game(
      rules: try Rules(size: 3, k: 3),
      moves: [0, 1, 2, 4, 3, 5, 7, 6, 8].map {
        Position(row: $0 / 3, column: $0 % 3)
      })
    #expect(game.outcome == .draw && game.board.isFull && !game.endedWithOnlyForbiddenCells)
    game.undo()
    #expect(!game.endedWithOnlyForbiddenCells)
  }
}

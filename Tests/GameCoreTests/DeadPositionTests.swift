import GameCore
import Testing

/// PROTOCOL.md rule 18: a game in which no line of k can still be completed by either side.
@Suite struct DeadPositionTests {
  static func game(_ rules: Rules, _ cells: [(Int, Int)]) throws -> Game {
    try Game(rules: rules, moves: cells.map { Position(row: $0.0, column: $0.1) })
  }

  @Test func anOpenBoardIsNotDead() throws {
    #expect(!(try Self.game(.standard, [])).noLineCanBeCompleted)
    #expect(!(try Self.game(.standard, [(1, 1), (0, 0)])).noLineCanBeCompleted)
  }

  /// X O X / X O O / O X _ : every line holds both marks, one cell before the board is full.
  @Test func aBlockedTicTacToeIsDeadBeforeTheBoardIsFull() throws {
    // X: (0,0) (0,2) (1,0) (2,1); O: (0,1) (1,1) (1,2) (2,0); empty: (2,2), X to move.
    let game = try Self.game(.standard, [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0)])
    #expect(!game.isOver)
    #expect(game.noLineCanBeCompleted)
  }

  /// The last empty cell still completes a line of X's: not dead.
  @Test func oneCellFromALineIsAlive() throws {
    // X: (0,0) (1,1) (0,2) (2,1); O: (0,1) (1,0) (1,2) (2,0) ... X to move at (2,2) completes the diagonal.
    let game = try Self.game(.standard, [(0, 0), (0, 1), (1, 1), (1, 0), (0, 2), (1, 2), (2, 1), (2, 0)])
    #expect(!game.isOver)
    #expect(!game.noLineCanBeCompleted)
  }

  /// A line open only to the side that has no moves left to fill it counts as closed.
  @Test func aLineNeedingMoreMovesThanTheSideHasIsClosed() throws {
    // 3×4, k 3, after 9 moves, O to move; empty: (0,0) (0,3) (1,0). O gets 2 of them, X 1.
    //   . X O .
    //   . O X X
    //   X O X O
    // Only the column (0,0) (1,0) (2,0) is free of O; X needs 2 more there and has 1 move left.
    let rules = try Rules(rows: 3, columns: 4, k: 3)
    let game = try Self.game(rules, [(1, 3), (0, 2), (1, 2), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3), (0, 1)])
    #expect(!game.isOver)
    #expect(game.turn == .o)
    #expect(game.noLineCanBeCompleted)
    // One move earlier (X to move, 4 empty: 2 each) the same window is still open.
    var earlier = game
    earlier.undo()
    #expect(!earlier.noLineCanBeCompleted)
  }

  @Test func aFinishedGameIsNotReportedDead() throws {
    let game = try Self.game(.standard, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    #expect(game.isOver && !game.noLineCanBeCompleted)
  }
}

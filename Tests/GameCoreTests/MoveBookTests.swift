import TestSupport
import Testing

@testable import GameCore

@Suite struct MoveBookTests {
  @Test func theBookAgreesWithTheSolverOnEvery3x3PositionAndStoresEachOnce() throws {
    let book = MoveBook()
    let games = try everyPosition(rules: .standard)
    for game in games {
      #expect(book.perfectMoves(in: game) == AIPlayer.perfectMoves(in: game), "\(game.history)")
    }
    #expect(book.count == games.count)
    // Asking again answers the same and stores nothing new.
    for game in games.prefix(200) { #expect(book.perfectMoves(in: game) == AIPlayer.perfectMoves(in: game)) }
    #expect(book.count == games.count)
  }

  @Test func aBoardTooBigToSolveIsNotStored() throws {
    let book = MoveBook()
    var game = Game(rules: try Rules(size: 9, k: 5))
    try game.play(Position(row: 4, column: 4))
    #expect(book.perfectMoves(in: game) == nil)
    #expect(book.count == 0)
  }

  @Test func aFullBookStartsAgain() throws {
    let book = MoveBook(capacity: 3)
    var game = Game()
    var counts: [Int] = []
    for move in [Position(row: 1, column: 1), Position(row: 0, column: 0), Position(row: 2, column: 2)] {
      _ = book.perfectMoves(in: game)
      counts.append(book.count)
      try game.play(move)
    }
    _ = book.perfectMoves(in: game)
    counts.append(book.count)
    #expect(counts == [1, 2, 3, 1])
  }

  @Test(arguments: [Mark.x, .o])
  func aPerfectPlayerWithABookKeepsTheBestResultOn3x3(side: Mark) throws {
    let ai = AIPlayer(level: .perfect, book: MoveBook())
    let walk = try AIProof(rules: .standard, aiPlays: side) { game in
      var rng = AIProof.generator(for: game)
      return [ai.chooseMove(in: game, using: &rng)].compactMap { $0 }
    }
    walk.expectNoFindings()
    #expect(walk.aiLosses == 0)
    // The same walk as without a book: the book answers what the solver would.
    #expect(walk.positions == (side == .x ? 285 : 856))
  }
}

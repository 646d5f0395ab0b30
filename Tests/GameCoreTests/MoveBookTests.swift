import Testing

@testable import GameCore

@Suite struct MoveBookTests {
  /// Every 3×3 position reachable in play, each once.
  private func every3x3Position() -> [Game] {
    var seen = Set<Board>()
    var games: [Game] = []
    func visit(_ game: Game) {
      guard seen.insert(game.board).inserted else { return }
      games.append(game)
      for move in game.legalMoves {
        var next = game
        try? next.play(move)
        visit(next)
      }
    }
    visit(Game())
    return games
  }

  @Test func theBookAgreesWithTheSolverOnEvery3x3PositionAndStoresEachOnce() {
    let book = MoveBook()
    let games = every3x3Position()
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
  func aPerfectPlayerWithABookNeverLosesOn3x3(side: Mark) {
    let ai = AIPlayer(level: .perfect, book: MoveBook())
    var seen = Set<Board>()
    var losses = 0
    func visit(_ game: Game) {
      guard seen.insert(game.board).inserted else { return }
      if let outcome = game.outcome {
        if outcome.winner == side.opponent { losses += 1 }
        return
      }
      var rng = SplitMix(seed: UInt64(truncatingIfNeeded: game.board.hashValue))
      let moves = game.turn == side ? [ai.chooseMove(in: game, using: &rng)].compactMap { $0 } : game.legalMoves
      #expect(!moves.isEmpty)
      for move in moves {
        var next = game
        try? next.play(move)
        visit(next)
      }
    }
    visit(Game())
    #expect(losses == 0)
  }
}

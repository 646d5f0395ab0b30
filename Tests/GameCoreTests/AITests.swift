import Testing

@testable import GameCore

@Suite struct AITests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// A plain minimax over the whole 3×3 tree, written independently of the solver, as the reference.
  private func minimax(_ game: Game) -> Int {
    if let outcome = game.outcome { return outcome.winner == nil ? 0 : -1 }
    var best = -2
    for move in game.legalMoves {
      var next = game
      try? next.play(move)
      best = max(best, -minimax(next))
    }
    return best
  }

  @Test func solverAgreesWithPlainMinimaxOnEvery3x3Position() throws {
    var seen = Set<Board>()
    var checked = 0
    func visit(_ game: Game) {
      guard seen.insert(game.board).inserted else { return }
      #expect(AIPlayer.solvedValue(of: game) == minimax(game), "\(game.history)")
      checked += 1
      for move in game.legalMoves {
        var next = game
        try? next.play(move)
        visit(next)
      }
    }
    visit(Game())
    #expect(checked == 5478)  // every legal 3×3 position
  }

  /// Plays `ai` against every possible opponent strategy: at each opponent turn every legal move is tried.
  /// At the AI's turns, `aiMoves` gives the moves to follow; when `checkValue` is set, each AI move must keep
  /// the value of the position (a won position stays won, a drawn one drawn). Returns the outcomes seen.
  private func everyOpponent(
    rules: Rules, aiPlays mark: Mark, checkValue: Bool = false, aiMoves: (Game) -> [Position]
  ) -> (aiWins: Int, aiLosses: Int, draws: Int, positions: Int) {
    var seen = Set<Board>()
    var result = (aiWins: 0, aiLosses: 0, draws: 0, positions: 0)
    func visit(_ game: Game) {
      guard seen.insert(game.board).inserted else { return }
      result.positions += 1
      if let outcome = game.outcome {
        switch outcome.winner {
        case mark: result.aiWins += 1
        case nil: result.draws += 1
        default: result.aiLosses += 1
        }
        return
      }
      let moves = game.turn == mark ? aiMoves(game) : game.legalMoves
      #expect(!moves.isEmpty)
      if checkValue && game.turn == mark, let before = AIPlayer.solvedValue(of: game) {
        for move in moves {
          var next = game
          try? next.play(move)
          #expect(AIPlayer.solvedValue(of: next).map { -$0 } == before, "\(game.history) + \(move)")
        }
      }
      for move in moves {
        var next = game
        try? next.play(move)
        visit(next)
      }
    }
    visit(Game(rules: rules))
    return result
  }

  @Test(arguments: [Mark.x, .o])
  func everyPerfectMoveNeverLosesOn3x3(side: Mark) {
    // Stronger than one fixed strategy: every move the perfect AI might pick is followed.
    let result = everyOpponent(rules: .standard, aiPlays: side) { AIPlayer.perfectMoves(in: $0) ?? [] }
    #expect(result.aiLosses == 0)
    #expect(result.aiWins > 0 && result.draws > 0)
  }

  @Test(arguments: [Mark.x, .o])
  func perfectPlayerNeverLosesOn3x3(side: Mark) {
    // The real entry point, as the game calls it, with randomness fixed per position.
    let ai = AIPlayer(level: .perfect)
    let result = everyOpponent(rules: .standard, aiPlays: side) { game in
      var rng = SplitMix(seed: UInt64(truncatingIfNeeded: game.board.hashValue))
      return [ai.chooseMove(in: game, using: &rng)].compactMap { $0 }
    }
    #expect(result.aiLosses == 0)
  }

  @Test(arguments: [(3, Mark.x), (3, .o), (4, .x), (4, .o)])
  func perfectPlayerIsPerfectOn4x4(k: Int, side: Mark) throws {
    let rules = try Rules(size: 4, k: k)
    let ai = AIPlayer(level: .perfect)
    // The value of the empty board for X: 4×4 with 3 in a row is a first-player win, with 4 a draw.
    let value = try #require(AIPlayer.solvedValue(of: Game(rules: rules)))
    #expect(value == (k == 3 ? 1 : 0))
    let result = everyOpponent(rules: rules, aiPlays: side, checkValue: true) { game in
      var rng = SplitMix(seed: UInt64(truncatingIfNeeded: game.board.hashValue))
      return [ai.chooseMove(in: game, using: &rng)].compactMap { $0 }
    }
    switch (k, side) {
    case (3, .x):
      // A won position is never thrown away: every game ends in an AI win.
      #expect(result.aiLosses == 0 && result.draws == 0)
    case (3, _):
      // O cannot avoid losing to perfect play, but punishes every opponent mistake that lets it win.
      #expect(result.aiWins > 0)
    default:
      #expect(result.aiLosses == 0)
    }
  }

  @Test func easyCanBeBeatenByAChild() {
    // A child's plan: take the centre, then a corner, then complete any line of two.
    var childWins = 0
    for seed in 0..<200 {
      var rng = SplitMix(seed: UInt64(seed))
      var game = Game()
      let easy = AIPlayer(level: .easy)
      while !game.isOver {
        if game.turn == .x {
          let search = SearchBoard(game.board)
          let win = search.winningCells(for: Mark.x.rawValue).first.map(game.board.position)
          let plan = [p(1, 1), p(0, 0), p(2, 2), p(0, 2), p(2, 0)].first { game.board[$0] == nil }
          try? game.play(win ?? plan ?? game.legalMoves[0])
        } else if let move = easy.chooseMove(in: game, using: &rng) {
          try? game.play(move)
        }
      }
      if game.outcome?.winner == .x { childWins += 1 }
    }
    #expect(childWins > 100)
  }

  @Test func normalAlwaysTakesAWinAndBlocksALoss() {
    let normal = AIPlayer(level: .normal)
    for seed in 0..<100 {
      var rng = SplitMix(seed: UInt64(seed))
      // O to move can win at (0,2); X threatens (2,2) as well: winning comes first.
      let winning = try? Game(rules: .standard, moves: [p(1, 1), p(0, 0), p(2, 0), p(0, 1), p(2, 1)])
      if let game = winning { #expect(normal.chooseMove(in: game, using: &rng) == p(0, 2)) }
      // O to move must block X's (0,2).
      let blocking = try? Game(rules: .standard, moves: [p(0, 0), p(1, 1), p(0, 1)])
      if let game = blocking { #expect(normal.chooseMove(in: game, using: &rng) == p(0, 2)) }
    }
  }

  @Test(arguments: [(9, 5), (15, 5)])
  func bigBoardsTakeWinsAndBlockLosses(size: Int, k: Int) throws {
    let rules = try Rules(size: size, k: k)
    let ai = AIPlayer(level: .perfect, budget: .milliseconds(100))
    var rng = SplitMix(seed: 7)
    // X has four in a row on row 4 (open at both ends); O to move must block one end.
    let threat = [p(4, 2), p(0, 0), p(4, 3), p(0, 2), p(4, 4), p(8, 0), p(4, 5)]
    let blocking = try Game(rules: rules, moves: threat)
    let block = try #require(ai.chooseMove(in: blocking, using: &rng))
    #expect([p(4, 1), p(4, 6)].contains(block))
    // X to move with four in a row wins at once instead of blocking anything.
    let winning = try Game(rules: rules, moves: threat + [p(8, 8)])
    let win = try #require(ai.chooseMove(in: winning, using: &rng))
    #expect([p(4, 1), p(4, 6)].contains(win))
  }

  @Test func bigBoardSearchRespectsItsBudget() throws {
    let rules = try Rules(size: 15, k: 5)
    var game = Game(rules: rules)
    var rng = SplitMix(seed: 11)
    let ai = AIPlayer(level: .perfect, budget: .milliseconds(100))
    for _ in 0..<6 {
      let move = try #require(ai.chooseMove(in: game, using: &rng))
      try game.play(move)
    }
    #expect(game.history.count == 6)
    #expect(Set(game.history).count == 6)
  }

  @Test func perfectBeatsEasyOnBigBoards() throws {
    let rules = try Rules(size: 9, k: 5)
    var rng = SplitMix(seed: 3)
    var game = Game(rules: rules)
    let strong = AIPlayer(level: .perfect, budget: .milliseconds(50))
    let weak = AIPlayer(level: .easy)
    while !game.isOver {
      let player = game.turn == .x ? strong : weak
      let move = try #require(player.chooseMove(in: game, using: &rng))
      try game.play(move)
    }
    #expect(game.outcome?.winner == .x)
  }
}

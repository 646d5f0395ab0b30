import GameCore

/// Times `AIPlayer(level: .perfect).chooseMove` over whole games between two perfect players.
enum AIBenchmark {
  struct Board {
    var label: String
    var size: Int
    var k: Int
    /// Random moves played before the timed moves start, so games differ.
    var openingMoves: Int
    /// Games played (each from its own opening).
    var games: Int
    /// At most this many timed moves per game (nil: to the end).
    var movesPerGame: Int? = nil
  }

  /// Every move's duration, in nanoseconds.
  static func run(_ board: Board, seed: UInt64) throws -> Samples {
    var samples = Samples()
    let rules = try Rules(size: board.size, k: board.k)
    let player = AIPlayer(level: .perfect)
    for gameIndex in 0..<board.games {
      var rng = SplitMix(seed: seed &+ UInt64(gameIndex) &* 0x9E37_79B9)
      var game = Game(rules: rules)
      for _ in 0..<board.openingMoves {
        guard let move = game.legalMoves.randomElement(using: &rng) else { break }
        try game.play(move)
      }
      var timed = 0
      while !game.isOver, timed < board.movesPerGame ?? Int.max {
        var move: Position?
        samples.append(Clock.measure { move = player.chooseMove(in: game, using: &rng) })
        guard let move else { break }
        try game.play(move)
        timed += 1
      }
    }
    return samples
  }
}

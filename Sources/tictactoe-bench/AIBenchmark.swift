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
    /// When set, only the level's moves are timed, and it plays from the first move, X in even games and O in
    /// odd ones; the opening's random moves are its opponent's (the positions a game against a player gives it).
    var levelFromTheStart = false
  }

  /// Every move's duration, in nanoseconds.
  static func run(_ board: Board, seed: UInt64) throws -> Samples {
    var samples = Samples()
    let rules = try Rules(size: board.size, k: board.k)
    let player = AIPlayer(level: .perfect)
    for gameIndex in 0..<board.games {
      var rng = SplitMix(seed: seed &+ UInt64(gameIndex) &* 0x9E37_79B9)
      var game = Game(rules: rules)
      let level: Mark = gameIndex.isMultiple(of: 2) ? .x : .o
      var randomLeft = board.openingMoves
      var timed = 0
      while !game.isOver, timed < board.movesPerGame ?? Int.max {
        let levelMoves = !board.levelFromTheStart || game.turn == level
        if randomLeft > 0, !(board.levelFromTheStart && levelMoves) {
          guard let move = game.legalMoves.randomElement(using: &rng) else { break }
          try game.play(move)
          randomLeft -= 1
          continue
        }
        var move: Position?
        if levelMoves {
          samples.append(Clock.measure { move = player.chooseMove(in: game, using: &rng) })
          timed += 1
        } else {
          move = player.chooseMove(in: game, using: &rng)
        }
        guard let move else { break }
        try game.play(move)
      }
    }
    return samples
  }
}

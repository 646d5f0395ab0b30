@_spi(Benchmark) import GameCore

/// How much the Swap2 computer's opening choices are worth: each game opens with Swap2 between `Swap2Computer`
/// and a naive chooser (three random stones within two cells of the centre; a random choice among those
/// offered; random stones for "two more"), then both sides are played by the same search (the perfect level)
/// at the same time per move, so only the opening differs. Every seed is played twice, the computer the first
/// player and then the second. Scored from the computer's side.
enum Swap2StrengthBenchmark {
  /// The naive chooser's answer where `opening` stands: random stones near the centre, or a random choice.
  static func naive(_ opening: Swap2, using rng: inout SplitMix) -> [Swap2.Action] {
    if !opening.choices.isEmpty { return [.choice(opening.choices.randomElement(using: &rng) ?? .black)] }
    let left = opening.placing.map { $0.of - $0.placed } ?? 0
    let centre = opening.rules.rows / 2
    var stones: [Position] = []
    while stones.count < left {
      let cell = Position(
        row: centre + Int.random(in: -2...2, using: &rng), column: centre + Int.random(in: -2...2, using: &rng))
      if opening.game.board[cell] == nil, !stones.contains(cell) { stones.append(cell) }
    }
    return stones.map { .stone($0) }
  }

  /// Plays `seeds` pairs of games on `size`×`size`, five in a row, at `milliseconds` a move (the Swap2 computer's
  /// answers get one move's time too).
  static func play(size: Int, seeds: Int, milliseconds: Int, progress: (String) -> Void) throws
    -> StrengthBenchmark.Pairing
  {
    let rules = try Rules(size: size, k: 5)
    var pairing = StrengthBenchmark.Pairing(
      first: "Swap2 computer's opening", second: "a naive chooser's (games by the perfect level)",
      board: "\(size)×\(size)", milliseconds: milliseconds)
    let computer = Swap2Computer(budget: .milliseconds(milliseconds))
    let search = AIPlayer(level: .perfect, budget: .milliseconds(milliseconds))
    for seed in 0..<seeds {
      for place in Swap2.Player.allCases {
        var rng = SplitMix(seed: UInt64(seed * 2 + (place == .first ? 0 : 1)))
        let opening = try open(rules, computer: computer, playing: place, using: &rng)
        let game = try playOut(opening.game, search: search, using: &rng)
        let mine: Mark = opening.mark(of: place) ?? .x
        let winner = game.outcome?.winner
        if winner == nil {
          pairing.draws += 1
        } else if winner == mine {
          pairing.wins += 1
        } else {
          pairing.losses += 1
        }
        let result = winner == nil ? "draw" : winner == mine ? "won" : "lost"
        progress(
          "Swap2 computer as the \(place == .first ? "first" : "second") player, seed \(seed) "
            + "(\(choices(opening))), played \(mine): \(result) in \(game.history.count) moves")
      }
    }
    return pairing
  }

  /// The opening played to its settled colours: the computer in `place`, the naive chooser in the other.
  static func open(
    _ rules: Rules, computer: Swap2Computer, playing place: Swap2.Player, using rng: inout SplitMix
  ) throws -> Swap2 {
    var opening = try Swap2(rules: rules)
    while !opening.isSettled, let actor = opening.actor {
      let actions = actor == place ? computer.answer(to: opening, using: &rng) : naive(opening, using: &rng)
      if actions.isEmpty { throw BenchError("no answer in the opening") }
      for action in actions { try opening.apply(Swap2.Entry(actor, action)) }
    }
    return opening
  }

  /// `game` played to its end by `search` for both sides.
  static func playOut(_ start: Game, search: AIPlayer, using rng: inout SplitMix) throws -> Game {
    var game = start
    while !game.isOver {
      guard let move = search.chooseMove(in: game, using: &rng) else { throw BenchError("no move") }
      try game.play(move)
    }
    return game
  }

  /// The opening's choices in order: "place-two, white".
  static func choices(_ opening: Swap2) -> String {
    var words: [String] = []
    for entry in opening.log {
      if case .choice(let choice) = entry.action { words.append(choice.rawValue) }
    }
    return words.joined(separator: ", ")
  }
}

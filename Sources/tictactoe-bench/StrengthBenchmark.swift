@_spi(Benchmark) import GameCore

#if canImport(Glibc)
  import Glibc
#endif

/// How strong the big-board computer is: whole games from fixed openings, each played twice with the colours
/// swapped, at a fixed time per move, between our levels and against outside engines (Gomocup brains).
enum StrengthBenchmark {
  /// One side of a game.
  enum Player {
    /// The perfect level with the threat search at one of its stages.
    case own(Threats)
    /// An outside engine, run as a brain.
    case engine(BrainEngine)

    var name: String {
      switch self {
      case .own(let threats): threats.rawValue
      case .engine(let engine): engine.name
      }
    }
  }

  /// How much of the threat search the perfect level uses.
  enum Threats: String {
    /// Wins by fours and threes (VCT), its own and the opponent's: the game's level.
    case threes = "perfect + VCT/threat search (new)"
    /// Wins by fours only (VCF): the level before VCT.
    case fours = "perfect + VCF only (before VCT)"
    /// No threat search: the heuristic search alone, as it was before either.
    case none = "perfect, search only (before)"
  }

  /// One pairing's games and what they came to, from the first player's side.
  struct Pairing {
    var first: String
    var second: String
    var board: String
    var milliseconds: Int
    var wins = 0
    var draws = 0
    var losses = 0
    /// Games the engine lost by not answering a legal move (counted in the results as losses).
    var forfeits = 0

    var games: Int { wins + draws + losses }
    var score: Double { games == 0 ? .nan : (Double(wins) + Double(draws) / 2) / Double(games) }
  }

  /// The openings: three stones (X, O, X) each, as (row, column); O moves next. No two are the same game under
  /// the board's eight symmetries (turns and mirrors about the centre).
  static func openings(size: Int, count: Int) -> [[Position]] {
    Array(allOpenings(size: size).prefix(count))
  }

  /// Every opening the generator makes on `size`×`size`, in a fixed order. First the 24 of the earlier runs: O
  /// beside X ("direct") or diagonal to it, X's second stone in 12 places for each; then, for O beside,
  /// diagonal, two cells away straight, a knight's move away and two cells away diagonally, X's second stone on
  /// every cell within two of the centre, nearest first; each kept only when no earlier opening is the same game
  /// under a symmetry.
  static func allOpenings(size: Int) -> [[Position]] {
    let direct = [
      (-1, -1), (-1, 0), (-1, 1), (-1, 2), (-2, -2), (-2, -1), (-2, 0), (-2, 1), (-2, 2), (-2, 3), (0, -1),
      (0, -2),
    ]
    let diagonal = [
      (-1, 0), (-1, 1), (0, 1), (-2, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (-1, -1),
      (-2, -2),
    ]
    var offsets: [[(Int, Int)]] = []
    for i in direct.indices {
      offsets.append([(0, 0), (0, 1), direct[i]])
      offsets.append([(0, 0), (1, 1), diagonal[i]])
    }
    // Nearest the centre first: by the larger of the two distances, then by their sum.
    let rank = { (p: (Int, Int)) -> Int in
      let (a, b) = (abs(p.0), abs(p.1))
      return max(a, b) * 10 + a + b
    }
    let ring = (-2...2).flatMap { dr in (-2...2).map { dc in (dr, dc) } }.sorted { rank($0) < rank($1) }
    for o in [(0, 1), (1, 1), (0, 2), (1, 2), (2, 2)] {
      for x in ring where x != (0, 0) && x != o { offsets.append([(0, 0), o, x]) }
    }
    var seen = Set<[Int]>()
    var result: [[Position]] = []
    let c = size / 2
    for opening in offsets where opening.allSatisfy({ abs($0.0) <= c && abs($0.1) <= c }) {
      guard seen.insert(canonical(opening)).inserted else { continue }
      result.append(opening.map { Position(row: c + $0.0, column: c + $0.1) })
    }
    return result
  }

  /// The smallest form of an opening (X, O, X as offsets from the centre) under the eight symmetries: the two
  /// X stones are one set, O apart.
  static func canonical(_ opening: [(Int, Int)]) -> [Int] {
    let transforms: [((Int, Int)) -> (Int, Int)] = [
      { ($0.0, $0.1) }, { ($0.0, -$0.1) }, { (-$0.0, $0.1) }, { (-$0.0, -$0.1) },
      { ($0.1, $0.0) }, { ($0.1, -$0.0) }, { (-$0.1, $0.0) }, { (-$0.1, -$0.0) },
    ]
    return transforms.map { t -> [Int] in
      let xs = [t(opening[0]), t(opening[2])].map { $0.0 * 100 + $0.1 }.sorted()
      let o = t(opening[1])
      return xs + [o.0 * 100 + o.1]
    }.min { $0.lexicographicallyPrecedes($1) } ?? []
  }

  /// Plays every opening twice (`first` as X, then as O) on `size`×`size`, five in a row.
  static func play(
    _ first: Player, _ second: Player, size: Int, openings count: Int, milliseconds: Int,
    progress: (String) -> Void
  ) throws -> Pairing {
    let rules = try Rules(size: size, k: 5)
    var pairing = Pairing(
      first: first.name, second: second.name, board: "\(size)×\(size)", milliseconds: milliseconds)
    for (n, opening) in openings(size: size, count: count).enumerated() {
      for firstIsX in [true, false] {
        var game = try Game(rules: rules, moves: opening)
        var rng = SplitMix(seed: UInt64(n * 2 + (firstIsX ? 0 : 1)))
        var forfeit: Mark?
        for player in [first, second] {
          if case .engine(let engine) = player { try engine.start(rules, milliseconds: milliseconds) }
        }
        while !game.isOver {
          let mover = game.turn
          let player = (mover == .x) == firstIsX ? first : second
          do {
            let move = try choose(player, in: game, milliseconds: milliseconds, rng: &rng)
            try game.play(move)
          } catch {
            progress("\(player.name) forfeits: \(error)")
            forfeit = mover
            break
          }
        }
        let firstMark: Mark = firstIsX ? .x : .o
        let winner = forfeit.map(\.opponent) ?? game.outcome?.winner
        if forfeit != nil { pairing.forfeits += 1 }
        switch winner {
        case .none: pairing.draws += 1
        case firstMark: pairing.wins += 1
        default: pairing.losses += 1
        }
        progress(
          "\(pairing.first) (\(firstMark)) vs \(pairing.second), opening \(n + 1): "
            + "\(winner.map { $0 == firstMark ? "won" : "lost" } ?? "draw") in \(game.history.count) moves")
      }
    }
    return pairing
  }

  private static func choose(
    _ player: Player, in game: Game, milliseconds: Int, rng: inout SplitMix
  ) throws -> Position {
    switch player {
    case .own(let threats):
      var ai = AIPlayer(level: .perfect, budget: .milliseconds(milliseconds))
      ai.threatSearch = threats != .none
      ai.threeThreats = threats == .threes
      guard let move = ai.chooseMove(in: game, using: &rng) else { throw BenchError("no move in a game not over") }
      return move
    case .engine(let engine):
      return try engine.move(in: game)
    }
  }

  /// The Elo difference a score stands for (±∞ at 0 and 1).
  static func elo(_ score: Double) -> Double {
    if score <= 0 { return -.infinity }
    if score >= 1 { return .infinity }
    return -400 * log10(1 / score - 1)
  }

  /// The Wilson 95 % interval of a score from `games` games (draws as half a point), as Elo differences.
  static func eloInterval(score: Double, games: Int) -> (low: Double, high: Double) {
    let z = 1.96
    let n = Double(games)
    let centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    let half = z * (score * (1 - score) / n + z * z / (4 * n * n)).squareRoot() / (1 + z * z / n)
    // At a score of 0 or 1 the interval's far end is exactly that score (rounding could leave it just short).
    return (score <= 0 ? -.infinity : elo(centre - half), score >= 1 ? .infinity : elo(centre + half))
  }

  /// The pairings as a Markdown table.
  static func table(_ pairings: [Pairing]) -> String {
    var lines = [
      "| Pairing | Board | Time per move | Games | Won–drawn–lost | Score | Elo difference | 95 % interval |",
      "|---|---|---|---|---|---|---|---|",
    ]
    for p in pairings {
      let interval = eloInterval(score: p.score, games: p.games)
      let forfeits = p.forfeits > 0 ? " (\(p.forfeits) by forfeit)" : ""
      lines.append(
        "| \(p.first) vs \(p.second) | \(p.board) | \(p.milliseconds) ms | \(p.games) | "
          + "\(p.wins)–\(p.draws)–\(p.losses)\(forfeits) | \(Table.significant(p.score)) | \(signed(elo(p.score))) | "
          + "\(signed(interval.low)) to \(signed(interval.high)) |")
    }
    return lines.joined(separator: "\n")
  }

  static func signed(_ value: Double) -> String {
    if value == .infinity { return "+∞" }
    if value == -.infinity { return "−∞" }
    let rounded = Int(value.rounded())
    return rounded > 0 ? "+\(rounded)" : rounded < 0 ? "−\(-rounded)" : "0"
  }
}

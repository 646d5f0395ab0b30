@_spi(Benchmark) import GameCore

#if canImport(Glibc)
  import Glibc
#endif

/// How strong the big-board computer is: whole games from fixed openings, each played twice with the colours
/// swapped, at a fixed time per move, between our levels and against outside engines (Gomocup brains).
enum StrengthBenchmark {
  /// One side of a game.
  enum Player {
    /// The perfect level with the threat search, or without it (the search as it was before).
    case own(threats: Bool)
    /// An outside engine, run as a brain.
    case engine(BrainEngine)

    var name: String {
      switch self {
      case .own(let threats): threats ? "perfect + threat search" : "perfect, search only (before)"
      case .engine(let engine): engine.name
      }
    }
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

  /// The openings: three stones (X, O, X) each, as (row, column); O moves next.
  static func openings(size: Int, count: Int) -> [[Position]] {
    let c = size / 2
    let p = { (dr: Int, dc: Int) in Position(row: c + dr, column: c + dc) }
    // O beside X ("direct") or diagonal to it; X's second stone on one side of the opening's mirror line, so
    // no two openings are the same game seen in a mirror.
    let direct = [
      (-1, -1), (-1, 0), (-1, 1), (-1, 2), (-2, -2), (-2, -1), (-2, 0), (-2, 1), (-2, 2), (-2, 3), (0, -1),
      (0, -2),
    ]
    let diagonal = [
      (-1, 0), (-1, 1), (0, 1), (-2, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (-1, -1),
      (-2, -2),
    ]
    var result: [[Position]] = []
    for i in 0..<max(direct.count, diagonal.count) {
      result.append([p(0, 0), p(0, 1), p(direct[i].0, direct[i].1)])
      result.append([p(0, 0), p(1, 1), p(diagonal[i].0, diagonal[i].1)])
    }
    return Array(
      result.filter { $0.allSatisfy { (0..<size).contains($0.row) && (0..<size).contains($0.column) } }
        .prefix(count))
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
      ai.threatSearch = threats
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

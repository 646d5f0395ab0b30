import TestSupport
import Testing

@testable import GameCore

/// Every position of `rules` reachable in play, each once (a board stands for every order of reaching it).
func everyPosition(rules: Rules) throws -> [Game] {
  var seen = Set<Board>()
  var games: [Game] = []
  var stack = [Game(rules: rules)]
  while let game = stack.popLast() {
    guard seen.insert(game.board).inserted else { continue }
    games.append(game)
    for move in game.legalMoves {
      var next = game
      try next.play(move)
      stack.append(next)
    }
  }
  return games
}

/// Plays an AI against every possible opponent strategy and checks each AI move against the reference solver.
///
/// At each opponent turn every legal move is followed; at each AI turn, every move `aiMoves` gives. Each AI move
/// must be legal (a refused move is a finding, not a silent end of the walk) and must keep the value of the
/// position as the reference solver sees it: a won position stays won, a drawn one drawn. The walk counts the
/// positions it visits, so a test can assert that the walk covered what it should.
struct AIProof {
  private(set) var positions = 0
  private(set) var aiTurns = 0
  private(set) var aiWins = 0
  private(set) var aiLosses = 0
  private(set) var draws = 0
  /// How many AI moves were wrong, and the first few of them.
  private(set) var findingCount = 0
  private(set) var firstFindings: [String] = []

  init(
    rules: Rules, aiPlays mark: Mark, reference: ReferenceSolver? = nil, aiMoves: (Game) -> [Position]
  ) throws {
    let reference = reference ?? ReferenceSolver(rows: rules.rows, columns: rules.columns, k: rules.k)
    var seen = Set<Board>()
    var stack = [Game(rules: rules)]
    // A wrong AI is shown well enough by a hundred wrong moves; stopping there keeps a broken AI's run short.
    while findingCount < 100, let game = stack.popLast() {
      guard seen.insert(game.board).inserted else { continue }
      positions += 1
      if let outcome = game.outcome {
        switch outcome.winner {
        case mark: aiWins += 1
        case nil: draws += 1
        default: aiLosses += 1
        }
        continue
      }
      guard game.turn == mark else {
        for move in game.legalMoves {
          var next = game
          try next.play(move)
          stack.append(next)
        }
        continue
      }
      aiTurns += 1
      let moves = aiMoves(game)
      if moves.isEmpty { note("no move after \(game.history)") }
      let before = reference.value(of: game.board.cells)
      for move in moves {
        var next = game
        do {
          try next.play(move)
        } catch {
          note("illegal move \(move) after \(game.history): \(error)")
          continue
        }
        let after = -reference.value(of: next.board.cells)
        if after != before { note("\(move) after \(game.history) turns value \(before) into \(after)") }
        stack.append(next)
      }
    }
  }

  private mutating func note(_ finding: String) {
    findingCount += 1
    if firstFindings.count < 5 { firstFindings.append(finding) }
  }

  func expectNoFindings(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      findingCount == 0, "\(findingCount) wrong AI moves; the first: \(firstFindings)", sourceLocation: sourceLocation)
  }

  /// The generator an AI uses at `game`: seeded by the position alone, so every run (and every process) makes
  /// the same choices there and a failure comes back. (`Board.hashValue` differs from process to process.)
  static func generator(for game: Game) -> SeededGenerator {
    SeededGenerator(seed: game.board.cells.reduce(UInt64(game.rules.k)) { $0 &* 3 &+ UInt64($1) })
  }
}

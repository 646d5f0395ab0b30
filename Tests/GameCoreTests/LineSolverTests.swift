import Foundation
import TestSupport
import Testing

@testable import GameCore

/// Exact play on 5×5 with 4 in a row: LineSolver against solvers written apart from it, the shipped table of
/// early plies, and the perfect level in whole games.
@Suite struct LineSolverTests {
  private static let rules: Rules = {
    do { return try Rules(size: 5, k: 4) } catch { fatalError("\(error)") }
  }()

  /// One position solved by scripts/reference-line-solver.py (a Python minimax sharing no code with GameCore).
  struct Reference {
    var cells: [UInt8]
    var value: Int
    var keeping: Set<Int>
  }

  static func references() throws -> [Reference] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Data/line-solver-5x5k4.txt")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      line in
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      let cells = fields[0].map { character -> UInt8 in character == "x" ? 1 : (character == "o" ? 2 : 0) }
      let keeping = fields[2].split(separator: ",").compactMap { Int($0) }
      return Reference(cells: cells, value: Int(fields[1]) ?? 9, keeping: Set(keeping))
    }
  }

  private static func game(_ cells: [UInt8]) throws -> Game {
    // X's marks first, then O's, alternately: the order does not change the position.
    let xs = cells.indices.filter { cells[$0] == 1 }
    let os = cells.indices.filter { cells[$0] == 2 }
    var moves: [Position] = []
    for i in 0..<xs.count {
      moves.append(Position(row: xs[i] / 5, column: xs[i] % 5))
      if i < os.count { moves.append(Position(row: os[i] / 5, column: os[i] % 5)) }
    }
    return try Game(rules: rules, moves: moves)
  }

  @Test func agreesWithTheIndependentSolverOnRandomPositions() throws {
    let references = try Self.references()
    #expect(references.count >= 250)
    #expect(Set(references.map(\.value)) == [-1, 0, 1], "the data should hold wins, draws and losses")
    var disagreements: [String] = []
    for reference in references {
      let (x, o) = LineSolver.masks(reference.cells)
      let xToMove = reference.cells.filter { $0 != 0 }.count.isMultiple(of: 2)
      let solver = LineSolver(rows: 5, columns: 5, k: 4)
      let solved = xToMove ? solver.keepingMoves(mine: x, theirs: o) : solver.keepingMoves(mine: o, theirs: x)
      if solved?.value != reference.value || solved.map({ Set($0.cells) }) != reference.keeping {
        disagreements.append("\(reference.cells): \(String(describing: solved)), not \(reference.value)")
      }
      // The level as the game calls it: its move keeps the value.
      let game = try Self.game(reference.cells)
      var rng = SplitMix(seed: UInt64(reference.keeping.count))
      if let move = AIPlayer(level: .perfect).chooseMove(in: game, using: &rng),
        !reference.keeping.contains(move.row * 5 + move.column)
      {
        disagreements.append("\(reference.cells): the level played \(move)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
  }

  @Test func agreesWithTheDistanceSolverNearTheEnd() throws {
    // ExactSolver (negamax on scores with distance) solves positions with up to 10 empty cells on any board.
    var rng = SplitMix(seed: 28)
    var checked = 0
    while checked < 150 {
      var game = Game(rules: Self.rules)
      while !game.isOver, game.board.emptyPositions.count > 9 + checked % 2,
        let move = game.legalMoves.randomElement(using: &rng)
      {
        try game.play(move)
      }
      guard !game.isOver else { continue }
      let distance = ExactSolver(board: game.board).scoreMoves().map(\.score).max()?.signum()
      #expect(TableSolvedPlay.value(of: game) == distance, "\(game.history)")
      checked += 1
    }
  }

  @Test func agreesWithTheReferenceOnEvery3x3PositionAndOn4x4() throws {
    // ReferenceSolver (Tests/Support): plain minimax over a base-3 table, no pruning.
    let reference = ReferenceSolver(rows: 3, columns: 3, k: 3)
    let solver = LineSolver(rows: 3, columns: 3, k: 3)
    for game in try everyPosition(rules: .standard) where !game.isOver {
      let (x, o) = LineSolver.masks(game.board.cells)
      let value = game.turn == .x ? solver.value(mine: x, theirs: o) : solver.value(mine: o, theirs: x)
      #expect(value == reference.value(of: game.board.cells), "\(game.history)")
    }
    let rules = try Rules(size: 4, k: 4)
    let reference4 = ReferenceSolver(rows: 4, columns: 4, k: 4)
    var rng = SplitMix(seed: 44)
    for index in 0..<300 {
      var game = Game(rules: rules)
      for _ in 0..<(6 + index % 6) {
        guard !game.isOver, let move = game.legalMoves.randomElement(using: &rng) else { break }
        try game.play(move)
      }
      guard !game.isOver else { continue }
      let (x, o) = LineSolver.masks(game.board.cells)
      let fresh = LineSolver(rows: 4, columns: 4, k: 4)
      let value = game.turn == .x ? fresh.value(mine: x, theirs: o) : fresh.value(mine: o, theirs: x)
      #expect(value == reference4.value(of: game.board.cells), "\(game.history)")
    }
  }

  @Test func theEmptyBoardIsADraw() throws {
    // Winning Ways: 5×5 with 4 in a row is a draw.
    #expect(AIPlayer.solvedValue(of: Game(rules: Self.rules)) == 0)
    #expect(AILevel.playsExactly(Self.rules))
    #expect(!AILevel.playsExactly(try Rules(size: 5, k: 5)))
  }
}

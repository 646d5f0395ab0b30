import TestSupport
import Testing

@_spi(Benchmark) @testable import GameCore

/// The plan the perfect level makes from the threat searches with threes (VCT) on: its own win by threats found
/// within the fixed node budget and played, and, against the opponent's, only the moves shown to lose refused,
/// each checked against the brute force of VictoryByThreatsTests.
@Suite struct ThreatPlanTests {
  private static let x = Mark.x.rawValue
  private static let o = Mark.o.rawValue

  private func index(_ row: Int, _ column: Int) -> Int { row * 9 + column }

  @Test func aWinByThreatsIsFoundWithinTheNodeBudgetAndPlayed() throws {
    let game = try ThreatSearchTests.game(VictoryByThreatsTests.doubleThree, k: 5)
    #expect(game.turn == .x)
    var search = ThreatSearch(board: game.board)
    let found = ThreatPlan.deepening(
      &search, for: Self.x, depths: ThreatPlan.ownThreats, nodes: ThreatPlan.nodes.ownThreats, .now + .seconds(20))
    let (win, depth) = try #require(found)
    // The shortest win comes first: one three (the crossing), then a double, then five.
    #expect(win.move == index(4, 4) && depth == 1, "\(win.line) at depth \(depth)")
    #expect(search.nodes <= ThreatPlan.nodes.ownThreats)
    #expect(BruteForceThreats(game.board).winsAfter(index(4, 4), by: Self.x))
    let plan = ThreatPlan.make(board: game.board, mark: Self.x, start: .now, deadline: .now + .seconds(20))
    guard case .win(let move, _) = plan else {
      Issue.record("plan was \(plan)")
      return
    }
    #expect(move == index(4, 4))
    var ai = AIPlayer(level: .perfect, budget: .milliseconds(500))
    ai.threeThreats = true
    for seed in 0..<3 {
      var rng = SplitMix(seed: UInt64(seed))
      #expect(ai.chooseMove(in: game, using: &rng) == Position(row: 4, column: 4))
    }
  }

  @Test func onlyTheMovesShownToLoseAreRefused() throws {
    // The double three with O to move: O must stop X's crossing, and many moves do.
    guard let (board, kept) = try VictoryByThreatsTests.doubleThreeDefence() else { return }
    #expect(kept.count > 1 && kept.contains(index(4, 4)), "\(kept)")
    // Near the marks, the first moves refused leave X a win within three moves; the crossing and the first few
    // kept leave it none (the brute force is slow on 9×9, so not every move is checked).
    let near = ThreatPlan.nearCells(board)
    let checked = near.filter { !kept.contains($0) }.prefix(6) + [index(4, 4)] + kept.prefix(3)
    for cell in checked {
      var after = board
      after.set(.o, at: board.position(cell))
      let loses = BruteForceThreats(after).wins(Self.x, moves: 3)
      #expect(kept.contains(cell) == !loses, "cell \(cell): kept \(kept.contains(cell)), loses \(loses)")
    }
  }

  /// Fourteen plies of a 15×15 game of the VCF-only level against itself (X to move). Neither side wins by fours;
  /// the VCF-only level, given 300 ms, chose (8,6) here, after which O wins by threats (a three first).
  static let walkInto = [
    (7, 7), (7, 8), (6, 8), (5, 9), (6, 7), (6, 9), (8, 7), (5, 7), (10, 7), (9, 7), (6, 6), (6, 4), (5, 5), (8, 8),
  ]

  @Test func aMoveThatWalksIntoTheOpponentsWinByThreatsIsRefused() throws {
    let rules = try Rules(size: 15, k: 5)
    let game = try Game(rules: rules, moves: Self.walkInto.map { Position(row: $0.0, column: $0.1) })
    #expect(game.turn == .x)
    let looksGood = Position(row: 8, column: 6)
    let plan = ThreatPlan.make(board: game.board, mark: Self.x, start: .now, deadline: .now + .seconds(20))
    guard case .defend(let kept) = plan else {
      Issue.record("plan was \(plan)")
      return
    }
    #expect(!kept.contains(game.board.index(looksGood)), "\(kept)")
    // After it, O's win by threats is found, and O playing with VCT wins against the VCF-only level.
    var after = game
    try after.play(looksGood)
    var search = ThreatSearch(board: after.board)
    #expect(search.victoryByFours(for: Self.o) == nil && !search.gaveUp)
    #expect(search.victoryByThreats(for: Self.o, maximumThreats: ThreatPlan.opponentThreats) != nil)
    var attacker = AIPlayer(level: .perfect, budget: .milliseconds(300))
    attacker.threeThreats = true
    var defender = AIPlayer(level: .perfect, budget: .milliseconds(300))
    defender.threeThreats = false
    var rng = SplitMix(seed: 3)
    let start = after.history.count
    while !after.isOver, after.history.count < start + 30 {
      let player = after.turn == .o ? attacker : defender
      try after.play(try #require(player.chooseMove(in: after, using: &rng)))
    }
    #expect(after.outcome?.winner == .o, "\(after.history.dropFirst(start))")
    // The level with VCT, playing X, keeps to the moves not shown to lose.
    var ai = AIPlayer(level: .perfect, budget: .milliseconds(300))
    ai.threeThreats = true
    for seed in 0..<2 {
      var rng = SplitMix(seed: UInt64(seed))
      let choice = try #require(ai.chooseMove(in: game, using: &rng))
      #expect(kept.contains(game.board.index(choice)), "\(choice)")
    }
  }
}

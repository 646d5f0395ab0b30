import Testing

@testable import GameCore

/// The computer under exact five and renju: its searches judge wins by the variant, and X never plays a foul.
@Suite struct VariantAITests {
  /// Row 7 holds O x x x . and column 6 O x x x above row 7: X's cell (7,6) would make two fours at once.
  static func doubleFourBoard(_ variant: RuleVariant, attacker: Mark = .x) throws -> Board {
    var board = Board(rules: try Rules(size: 15, k: 5, variant: variant))
    let defender = attacker.opponent
    for column in 3...5 { board.set(attacker, at: Position(row: 7, column: column)) }
    for row in 4...6 { board.set(attacker, at: Position(row: row, column: 6)) }
    board.set(defender, at: Position(row: 7, column: 2))
    board.set(defender, at: Position(row: 3, column: 6))
    // Stones far away keep the counts of a real game (X moves first, so X to move has as many as O).
    for column in [0, 2, 4, 6] { board.set(defender, at: Position(row: 14, column: column)) }
    return board
  }

  static let doubleFourCell = Position(row: 7, column: 6)

  @Test func renjuTakesAwayXsWinByADoubleFourButNotOs() throws {
    let free = try Self.doubleFourBoard(.freestyle)
    let index = free.index(Self.doubleFourCell)
    var freeSearch = ThreatSearch(board: free)
    #expect(freeSearch.victoryByFours(for: Mark.x.rawValue)?.line == [index])
    let renju = try Self.doubleFourBoard(.renju)
    #expect(Referee.foul(Self.doubleFourCell, by: .x, on: renju) == .doubleFour)
    var renjuSearch = ThreatSearch(board: renju)
    #expect(renjuSearch.victoryByFours(for: Mark.x.rawValue) == nil)
    // O may make the same double four under renju.
    var white = ThreatSearch(board: try Self.doubleFourBoard(.renju, attacker: .o))
    #expect(white.victoryByFours(for: Mark.o.rawValue)?.line == [index])
  }

  @Test func noSearchOrLevelPlaysXsFoul() throws {
    let board = try Self.doubleFourBoard(.renju)
    let index = board.index(Self.doubleFourCell)
    for _ in 0..<5 {
      let search = HeuristicSearch(board: board, deadline: .now + .milliseconds(60))
      let move = try #require(search.bestMove())
      #expect(move != index)
      #expect(Referee.foul(board.position(move), by: .x, on: board) == nil)
    }
    // The cell is the heuristic's favourite in freestyle: the filter is what keeps it away under renju.
    let free = HeuristicSearch(board: try Self.doubleFourBoard(.freestyle), deadline: .now + .milliseconds(60))
    #expect(free.bestMove() == index)
    let game = try Self.game(on: board)
    var rng = SplitMix(seed: 28)
    for level in AILevel.allCases {
      for _ in 0..<4 {
        let ai = AIPlayer(level: level, budget: .milliseconds(40))
        let move = try #require(ai.chooseMove(in: game, using: &rng))
        #expect(move != Self.doubleFourCell, "\(level)")
      }
    }
  }

  /// A game holding `board`'s stones (X's and O's interleaved).
  static func game(on board: Board) throws -> Game {
    let xs = board.cells.indices.filter { board.cells[$0] == 1 }.map(board.position)
    let os = board.cells.indices.filter { board.cells[$0] == 2 }.map(board.position)
    var moves: [Position] = []
    for i in 0..<max(xs.count, os.count) {
      if i < xs.count { moves.append(xs[i]) }
      if i < os.count { moves.append(os[i]) }
    }
    return try Game(rules: board.rules, position: moves)
  }

  @Test func whereOnlyFiveWinsSixIsNoWinForTheSearches() throws {
    // x x x x . x across row 7: the gap makes six.
    for (variant, wins) in [(RuleVariant.freestyle, true), (.exactFive, false), (.renju, false)] {
      var board = Board(rules: try Rules(size: 15, k: 5, variant: variant))
      for column in [2, 3, 4, 5, 7] { board.set(.x, at: Position(row: 7, column: column)) }
      let gap = board.index(Position(row: 7, column: 6))
      #expect(SearchBoard(board).winningCells(for: 1).contains(gap) == wins, "\(variant)")
      #expect(ThreatBoard(board).winningCells(for: 1).contains(gap) == wins, "\(variant)")
      #expect(ThreatBoard(board).completes(1, at: gap) == wins, "\(variant)")
    }
    // Under renju O's six still wins.
    var board = Board(rules: try Rules(size: 15, k: 5, variant: .renju))
    for column in [2, 3, 4, 5, 7] { board.set(.o, at: Position(row: 7, column: column)) }
    #expect(ThreatBoard(board).completes(2, at: board.index(Position(row: 7, column: 6))))
  }

  @Test func gamesBetweenLevelsUnderRenjuHoldOnlyLegalMoves() throws {
    // Whole games on 9×9 and 15×15: every move is played through Game, which refuses a foul; the level's own
    // choice (before chooseMove's last check) is checked too.
    var rng = SplitMix(seed: 2028)
    for size in [9, 15] {
      for pairing in [(AILevel.perfect, AILevel.normal), (.normal, .perfect), (.perfect, .perfect)] {
        var game = Game(rules: try Rules(size: size, k: 5, variant: .renju))
        while !game.isOver {
          let level = game.turn == .x ? pairing.0 : pairing.1
          let ai = AIPlayer(level: level, budget: .milliseconds(20))
          let move = try #require(ai.levelMove(in: game, using: &rng))
          #expect(Referee.foul(move, by: game.turn, on: game.board) == nil, "\(size) \(level) \(game.history)")
          try game.play(try #require(ai.chooseMove(in: game, using: &rng)))
        }
        if let winner = game.outcome?.winner, winner == .x, case .win(_, let line) = game.outcome {
          #expect(line.count == 5)
        }
      }
    }
  }
}

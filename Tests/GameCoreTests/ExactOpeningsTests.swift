import Testing

@testable import GameCore

/// The shipped table of early plies for 5×5 with 4 in a row, and the perfect level playing whole games there.
@Suite struct ExactOpeningsTests {
  private static let rules: Rules = {
    do { return try Rules(size: 5, k: 4) } catch { fatalError("\(error)") }
  }()

  @Test func theTableIsShippedAndReads() throws {
    let table = try #require(ExactOpenings.table(for: Self.rules))
    #expect(table.plies == 7)
    #expect(table.moves.count == 1_930)
    // The empty board's move is the centre.
    #expect(table.move(for: [UInt8](repeating: 0, count: 25)) == 12)
    #expect(ExactOpenings(text: "5 5 4 7\n00000000000000") == nil, "an entry cut short is refused")
  }

  @Test func everyTurnAndMirrorOfAPositionGetsTheSameMoveTurned() throws {
    let table = try #require(ExactOpenings.table(for: Self.rules))
    let symmetry = BoardSymmetry(rows: 5, columns: 5)
    var rng = SplitMix(seed: 5)
    var checked = 0
    let keys = table.moves.keys.sorted { ($0.mine, $0.theirs) < ($1.mine, $1.theirs) }
    for key in keys.shuffled(using: &rng).prefix(60) {
      let stored = try #require(table.moves[key])
      // A position its own turn or mirror maps onto itself may get the move so turned: all are as good.
      let fixing = symmetry.images.filter { image in
        (0..<25).allSatisfy { cell in
          (key.mine >> UInt64(cell) & 1, key.theirs >> UInt64(cell) & 1)
            == (key.mine >> UInt64(image[cell]) & 1, key.theirs >> UInt64(image[cell]) & 1)
        }
      }
      for image in symmetry.images {
        var cells = [UInt8](repeating: 0, count: 25)
        for cell in 0..<25 {
          if key.mine & (1 << UInt64(cell)) != 0 { cells[image[cell]] = 1 }
          if key.theirs & (1 << UInt64(cell)) != 0 { cells[image[cell]] = 2 }
        }
        let allowed = Set(fixing.map { image[$0[Int(stored)]] })
        #expect(allowed.contains(table.move(for: cells) ?? -1), "\(key)")
        checked += 1
      }
    }
    #expect(checked == 480)
  }

  @Test func everyTableMoveKeepsThePositionsValue() throws {
    let table = try #require(ExactOpenings.table(for: Self.rules))
    let solver = LineSolver(rows: 5, columns: 5, k: 4)
    var rng = SplitMix(seed: 7)
    var values: [Int: Int] = [:]
    let entries = table.moves.sorted { ($0.key.mine, $0.key.theirs) < ($1.key.mine, $1.key.theirs) }
    for (key, cell) in entries.shuffled(using: &rng).prefix(300) {
      let xToMove = (key.mine | key.theirs).nonzeroBitCount.isMultiple(of: 2)
      let (mine, theirs) = xToMove ? (key.mine, key.theirs) : (key.theirs, key.mine)
      #expect(mine & (1 << UInt64(cell)) == 0 && theirs & (1 << UInt64(cell)) == 0, "the cell is empty")
      let value = try #require(solver.value(mine: mine, theirs: theirs))
      #expect(solver.value(after: Int(cell), mine: mine, theirs: theirs) == value)
      values[value, default: 0] += 1
    }
    // Opponents' mistakes in the first plies give the level won positions; it never meets a lost one.
    #expect(values[-1] == nil && values[1, default: 0] > 0 && values[0, default: 0] > 0, "\(values)")
  }

  /// The opponent's and the referee's solver: LineSolver itself, not the level's way to it.
  private static func keepingMoves(in game: Game) -> [Position]? {
    let (x, o) = LineSolver.masks(game.board.cells)
    let solver = LineSolver(rows: 5, columns: 5, k: 4)
    let solved = game.turn == .x ? solver.keepingMoves(mine: x, theirs: o) : solver.keepingMoves(mine: o, theirs: x)
    return solved?.cells.map { Position(row: $0 / 5, column: $0 % 5) }
  }

  private static func value(of game: Game) -> Int? {
    let (x, o) = LineSolver.masks(game.board.cells)
    let solver = LineSolver(rows: 5, columns: 5, k: 4)
    return game.turn == .x ? solver.value(mine: x, theirs: o) : solver.value(mine: o, theirs: x)
  }

  /// Plays the level against an opponent that plays a value-keeping move `strength` times in ten and a random
  /// one otherwise; checks after every opponent move that the game ends as well as the position allows.
  private func playGames(count: Int, strength: Int, seed: UInt64) throws -> (wins: Int, draws: Int, losses: Int) {
    var wins = 0
    var draws = 0
    var losses = 0
    let level = AIPlayer(level: .perfect)
    for index in 0..<count {
      var rng = SplitMix(seed: seed &+ UInt64(index))
      var game = Game(rules: Self.rules)
      let levelMark: Mark = index.isMultiple(of: 2) ? .x : .o
      var best = 0
      while !game.isOver {
        if game.turn == levelMark {
          try game.play(try #require(level.chooseMove(in: game, using: &rng)))
          continue
        }
        let move: Position
        if Int.random(in: 0..<10, using: &rng) < strength, let keeping = Self.keepingMoves(in: game) {
          move = try #require(keeping.randomElement(using: &rng))
        } else {
          move = try #require(game.legalMoves.randomElement(using: &rng))
        }
        try game.play(move)
        if !game.isOver, Self.value(of: game) == 1 { best = 1 }
      }
      let winner = game.outcome?.winner
      #expect(winner != levelMark.opponent, "the level lost: \(game.history)")
      if best == 1 { #expect(winner == levelMark, "a win given away: \(game.history)") }
      switch winner {
      case levelMark: wins += 1
      case nil: draws += 1
      default: losses += 1
      }
    }
    return (wins, draws, losses)
  }

  @Test func theLevelNeverLosesAndTakesEveryWinItIsGiven() throws {
    let careless = try playGames(count: 8, strength: 3, seed: 100)
    #expect(careless.wins > 0 && careless.losses == 0)
    let strong = try playGames(count: 8, strength: 10, seed: 200)
    #expect(strong.losses == 0 && strong.draws > 0)
  }
}

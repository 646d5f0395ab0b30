import Testing

@_spi(Benchmark) @testable import GameCore

/// The search for wins by fours and threes (VCT) on hand-made 9×9 positions and random ones, each checked
/// against a brute force over every cell written here from the rules alone, and its budget on a crowded 15×15.
@Suite struct VictoryByThreatsTests {
  private static let x = Mark.x.rawValue
  private static let o = Mark.o.rawValue

  private func index(_ row: Int, _ column: Int) -> Int { row * 9 + column }

  /// X's two twos (row 4 and column 4) meet at (4,4): a double three there, nothing that makes a four.
  static let doubleThree = [
    "O.......O",
    ".........",
    "....X....",
    "....X....",
    "..XX.....",
    ".........",
    ".........",
    ".........",
    "O.......O",
  ]

  @Test func aWinThatNeedsThreesIsFoundWhereFoursFindNone() throws {
    let board = try ThreatSearchTests.board(Self.doubleThree, k: 5)
    var search = ThreatSearch(board: board)
    let fours = search.victoryByFours(for: Self.x)
    let gaveUp = search.gaveUp
    #expect(fours == nil && !gaveUp)
    #expect(!BruteForceFours(board).wins(Self.x, fours: 4))
    let result = search.victoryByThreats(for: Self.x)
    _ = try #require(result)
    // Within one threat (then a double, then five) the crossing is the only way.
    var short = ThreatSearch(board: board, maximumFours: 1)
    #expect(short.victoryByThreats(for: Self.x, maximumThreats: 1)?.move == index(4, 4))
    // The brute force agrees: X wins in three moves from (4,4) against every answer, O has nothing.
    let brute = BruteForceThreats(board)
    #expect(brute.winsAfter(index(4, 4), by: Self.x))
    #expect(search.victoryByThreats(for: Self.o, maximumThreats: 3) == nil && !search.gaveUp)
    #expect(!brute.wins(Self.o, moves: 3))
  }

  /// The same twos, each closed by O at one end: the crossing makes two closed threes, which O answers one
  /// four at a time.
  static let closedTwos = [
    "O.......O",
    "....O....",
    "....X....",
    "....X....",
    ".OXX.....",
    ".........",
    ".........",
    ".........",
    "........O",
  ]

  @Test func closedThreesAreNoWin() throws {
    let board = try ThreatSearchTests.board(Self.closedTwos, k: 5)
    var search = ThreatSearch(board: board, maximumFours: 1)
    #expect(search.victoryByThreats(for: Self.x, maximumThreats: 1) == nil && !search.gaveUp)
    #expect(!BruteForceThreats(board).wins(Self.x, moves: 3))
  }

  /// The double three again, but O's three down column 5 (closed by X at the bottom) lets O block the row's
  /// three at (4,5) with a four: X must answer at (3,5), and O then blocks the column.
  static let counterFour = [
    "O.......O",
    ".........",
    "....X....",
    "....X....",
    "..XX.....",
    ".....O...",
    ".....O...",
    ".....O...",
    "O....X..O",
  ]

  @Test func aCounterFourThatBlocksRefutesTheThree() throws {
    let board = try ThreatSearchTests.board(Self.counterFour, k: 5)
    var search = ThreatSearch(board: board, maximumFours: 1)
    let found = search.victoryByThreats(for: Self.x, maximumThreats: 1)
    let gaveUp = search.gaveUp
    #expect(!gaveUp)
    #expect(found?.move != index(4, 4), "\(found?.line ?? [])")
    #expect(!BruteForceThreats(board).winsAfter(index(4, 4), by: Self.x))
  }

  /// The double three with O to move (one O stone fewer: O must stop X's crossing) and the moves O's plan keeps
  /// to; nil, with the issue recorded, when the plan is not a defence.
  static func doubleThreeDefence() throws -> (board: Board, kept: [Int])? {
    var rows = doubleThree
    rows[8] = "........O"
    let game = try ThreatSearchTests.game(rows, k: 5)
    #expect(game.turn == .o)
    let plan = ThreatPlan.make(board: game.board, mark: o, start: .now, deadline: .now + .seconds(20))
    guard case .defend(let kept) = plan else {
      Issue.record("plan was \(plan)")
      return nil
    }
    return (game.board, kept)
  }

  @Test func theMovesThatStopAWinByThreatsAreKeptTo() throws {
    guard let (board, cells) = try Self.doubleThreeDefence() else { return }
    #expect(cells.contains(index(4, 4)), "\(cells)")
    // Every move kept to leaves X no win within three moves; a move far off leaves X its win.
    for cell in cells {
      var after = board
      after.set(.o, at: board.position(cell))
      #expect(!BruteForceThreats(after).wins(Self.x, moves: 3), "\(cell) kept, but X wins after it")
    }
    var far = board
    far.set(.o, at: Position(row: 8, column: 4))
    #expect(!cells.contains(index(8, 4)) && BruteForceThreats(far).wins(Self.x, moves: 3))
    // With fours only (VCF), the plan sees nothing to stop.
    let foursOnly = ThreatPlan.make(
      board: board, mark: Self.o, start: .now, deadline: .now + .seconds(20), threes: false)
    #expect(foursOnly == .none)
  }

  @Test(arguments: [0, 1, 2])
  func randomPositionsAgreeWithBruteForce(seed: Int) throws {
    let rules = try Rules(size: 9, k: 5)
    var rng = SplitMix(seed: UInt64(900 + seed))
    var checked = 0
    var wins = 0
    while checked < 20 {
      var board = Board(rules: rules)
      let stones = Int.random(in: 16...30, using: &rng)
      // Stones near the centre, where lines can form.
      let near = (0..<81).filter { abs($0 / 9 - 4) <= 3 && abs($0 % 9 - 4) <= 3 }
      for (n, cell) in near.shuffled(using: &rng).prefix(stones).enumerated() {
        board.set(n.isMultiple(of: 2) ? .x : .o, at: board.position(cell))
      }
      guard board.anyWinningLine() == nil else { continue }
      let mark: UInt8 = stones.isMultiple(of: 2) ? Self.x : Self.o
      let brute = BruteForceThreats(board).wins(mark, moves: 3)
      // With no counter-fours allowed past the first, a win found is one within three moves of the attacker's...
      var strict = ThreatSearch(board: board, maximumFours: 1)
      strict.maximumCounterFours = 0
      let sound = strict.victoryByThreats(for: mark, maximumThreats: 1)
      #expect(!strict.gaveUp)
      if let sound { #expect(brute, "claimed \(sound.line) on \(board.cells)") }
      // ...and every such win is found when the defender's counter-fours are answered.
      var search = ThreatSearch(board: board, maximumFours: 1)
      search.maximumCounterFours = 1
      let found = search.victoryByThreats(for: mark, maximumThreats: 1)
      #expect(!search.gaveUp)
      if brute { #expect(found != nil, "missed on \(board.cells)") }
      if brute { wins += 1 }
      checked += 1
    }
    #expect(wins >= 1 && wins <= 19, "\(wins) wins of 20")
  }

  /// A crowded 15×15 board: stones in a fixed pseudo-random pattern round the centre, no quick win for either
  /// side, the first such pattern (by seed) on which the search for O runs past 5,000 nodes.
  static func crowdedBoard() throws -> Board {
    let rules = try Rules(size: 15, k: 5)
    let centre = (0..<225).filter { abs($0 / 15 - 7) <= 5 && abs($0 % 15 - 7) <= 5 }
    for seed in 28..<100 {
      var rng = SplitMix(seed: UInt64(seed))
      var board = Board(rules: rules)
      var placed = 0
      for cell in centre.shuffled(using: &rng) where placed < 60 {
        board.set(placed.isMultiple(of: 2) ? .x : .o, at: board.position(cell))
        // Nobody a line one short, nor a cell that makes two completions.
        var lines = ThreatBoard(board)
        if [Self.x, Self.o].allSatisfy({ lines.winningCells(for: $0).isEmpty && lines.doubleCells(for: $0).isEmpty }) {
          placed += 1
        } else {
          board.set(nil, at: board.position(cell))
        }
      }
      var probe = ThreatSearch(board: board)
      _ = probe.victoryByThreats(for: Self.o, maximumThreats: 20, nodeLimit: 5_000)
      if probe.gaveUp { return board }
    }
    throw BenchmarkBoardError()
  }

  struct BenchmarkBoardError: Error {}

  /// On the crowded board a search that would run far longer stops at its deadline, and the whole plan keeps to
  /// its own.
  @Test func aCrowdedBigBoardIsSearchedWithinItsDeadline() throws {
    let board = try Self.crowdedBoard()
    for budget in [20, 60] {
      var search = ThreatSearch(board: board)
      let start = ContinuousClock.now
      _ = search.victoryByThreats(
        for: Self.o, maximumThreats: 20, deadline: start + .milliseconds(budget), nodeLimit: .max)
      let took = ContinuousClock.now - start
      // With no node limit, only the deadline stops it: the position is big enough for the deadline to matter.
      #expect(search.gaveUp, "\(search.nodes) nodes in \(took)")
      #expect(took < .milliseconds(budget + 30), "\(took) for \(budget) ms, \(search.nodes) nodes")
      let planStart = ContinuousClock.now
      _ = ThreatPlan.make(board: board, mark: Self.o, start: planStart, deadline: planStart + .milliseconds(budget))
      #expect(ContinuousClock.now - planStart < .milliseconds(budget + 30))
    }
  }
}

/// Wins within a few moves of the attacker's found by trying every empty cell for both sides: written from the
/// rules (k or more in a row wins), sharing nothing with ThreatSearch.
struct BruteForceThreats {
  var fours: BruteForceFours

  init(_ board: Board) { fours = BruteForceFours(board) }

  /// Whether `mark`, to move, completes a line within `moves` moves of its own whatever the other side plays.
  func wins(_ mark: UInt8, moves: Int) -> Bool {
    if !fours.winning(mark).isEmpty { return true }
    guard moves >= 2 else { return false }
    return fours.cells.indices.contains { fours.cells[$0] == 0 && winsAfter($0, by: mark, moves: moves) }
  }

  /// Whether `mark` playing `cell` first completes a line within `moves` moves of its own against every answer.
  func winsAfter(_ cell: Int, by mark: UInt8, moves: Int = 3) -> Bool {
    var copy = self
    copy.fours.cells[cell] = mark
    if fours.completes(mark, cell) { return true }
    // The other side completes a line at once if it can.
    if !copy.fours.winning(3 - mark).isEmpty { return false }
    if moves == 2 { return copy.fours.winning(mark).count >= 2 }
    for answer in copy.fours.cells.indices where copy.fours.cells[answer] == 0 {
      copy.fours.cells[answer] = 3 - mark
      let won = copy.wins(mark, moves: moves - 1)
      copy.fours.cells[answer] = 0
      if !won { return false }
    }
    return true
  }
}

/// A failed expectation names the search's counts, not its tables.
extension ThreatSearch: CustomStringConvertible {
  public var description: String { "ThreatSearch(nodes: \(nodes), gave up: \(gaveUp))" }
}

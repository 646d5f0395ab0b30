import TestSupport
import Testing

@_spi(Benchmark) @testable import GameCore

/// The threat search (wins by continuous fours) on hand-made positions, each checked against a brute-force
/// search written here from the rules alone, and on random positions against the same.
@Suite struct ThreatSearchTests {
  private static let x = Mark.x.rawValue
  private static let o = Mark.o.rawValue

  /// A board drawn as rows of `.`, `X` and `O`.
  static func board(_ rows: [String], k: Int) throws -> Board {
    let rules = try Rules(rows: rows.count, columns: rows[0].count, k: k)
    var board = Board(rules: rules)
    for (r, line) in rows.enumerated() {
      for (c, character) in line.enumerated() {
        switch character {
        case "X": board.set(.x, at: Position(row: r, column: c))
        case "O": board.set(.o, at: Position(row: r, column: c))
        default: break
        }
      }
    }
    return board
  }

  /// A game holding the board's marks (X's and O's interleaved), so the side to move follows from the counts.
  static func game(_ rows: [String], k: Int) throws -> Game {
    let board = try board(rows, k: k)
    let xs = board.cells.indices.filter { board.cells[$0] == 1 }.map(board.position)
    let os = board.cells.indices.filter { board.cells[$0] == 2 }.map(board.position)
    var moves: [Position] = []
    for i in 0..<xs.count {
      moves.append(xs[i])
      if i < os.count { moves.append(os[i]) }
    }
    return try Game(rules: board.rules, moves: moves)
  }

  private func index(_ row: Int, _ column: Int, _ board: Board) -> Int { row * board.rules.columns + column }

  // MARK: hand-made positions

  /// X: a four down column 5 (O above it), then a four along row 5 (O left of it), then an open four on the
  /// diagonal through both new stones. Nothing shorter wins.
  static let threeFours = [
    "..............O",
    ".....O.........",
    ".....X.........",
    ".....X.........",
    ".....X.........",
    "....O..XX......",
    "...............",
    "........X......",
    "...............",
    "...............",
    "...............",
    "...............",
    "............O..",
    "...............",
    "O.............O",
  ]

  @Test func aWinInThreeFoursIsFoundAndNothingShorterIsClaimed() throws {
    let board = try Self.board(Self.threeFours, k: 5)
    var short = ThreatSearch(board: board, maximumFours: 2)
    #expect(short.victoryByFours(for: Self.x) == nil && !short.gaveUp)
    var search = ThreatSearch(board: board, maximumFours: 3)
    let result = search.victoryByFours(for: Self.x)
    let found = try #require(result)
    #expect(found.move == index(5, 5, board))
    #expect(found.line.count == 5, "\(found.line)")
    #expect(BruteForceFours(board).isForcedWin(line: found.line, for: Self.x))
    // The brute force agrees: three fours, and only (5,5) starts them.
    let brute = BruteForceFours(board)
    #expect(!brute.wins(Self.x, fours: 2) && brute.wins(Self.x, fours: 3))
    #expect(brute.winningFirstMoves(Self.x, fours: 3) == [index(5, 5, board)])
    // O has nothing of the kind.
    var forO = ThreatSearch(board: board)
    #expect(forO.victoryByFours(for: Self.o) == nil)
  }

  /// The same fours, but O's forced answer to the first (row 6, column 5) makes a four of O's own (row 6), which
  /// X's next four does not block: no win by fours.
  static let counterFour = [
    "..............O",
    ".....O.........",
    ".....X.........",
    ".....X.........",
    ".....X.........",
    "....O..XX......",
    ".XOOO..........",
    "........X......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "..............O",
  ]

  @Test func aSequenceBrokenByACounterFourIsNoWin() throws {
    let board = try Self.board(Self.counterFour, k: 5)
    var search = ThreatSearch(board: board)
    #expect(search.victoryByFours(for: Self.x) == nil)
    #expect(!search.gaveUp)
    #expect(!BruteForceFours(board).wins(Self.x, fours: 4))
  }

  /// Two threes meeting at the corner, each closed by O at its far end: the corner makes two fours at once. The
  /// board's edge is no open end.
  static let corner = [
    ".XXX.O...",
    "X........",
    "X........",
    "X.......O",
    ".........",
    "O........",
    ".........",
    ".........",
    "....O...O",
  ]

  @Test func theCornerAndTheEdges() throws {
    let board = try Self.board(Self.corner, k: 5)
    var search = ThreatSearch(board: board, maximumFours: 1)
    #expect(search.victoryByFours(for: Self.x)?.line == [0])
    #expect(BruteForceFours(board).winningFirstMoves(Self.x, fours: 1) == [0])
    // With O in the corner, each three is a single four against the edge, and nothing wins.
    var blocked = Self.corner
    blocked[0] = "OXXX.O..."
    blocked[3] = "X........"
    let closed = try Self.board(blocked, k: 5)
    var none = ThreatSearch(board: closed)
    #expect(none.victoryByFours(for: Self.x) == nil && !none.gaveUp)
    #expect(!BruteForceFours(closed).wins(Self.x, fours: 4))
    // Fours along the edge are seen: X on the bottom row's last four cells wins at the fifth from the right.
    var edge = Self.corner
    edge[8] = "O....XXXX"
    let bottom = try Self.board(edge, k: 5)
    #expect(ThreatSearch(board: bottom).winningCells(for: Self.x) == [index(8, 4, bottom)])
  }

  /// k = 4 on 7×7, O to move: a four, then two threats at once (found by brute force over random positions).
  static let fourInARow = [
    "...O...",
    "OX.XOO.",
    "......X",
    ".......",
    "..X....",
    "X......",
    ".......",
  ]

  @Test func kOtherThanFiveIsHandled() throws {
    let board = try Self.board(Self.fourInARow, k: 4)
    var short = ThreatSearch(board: board, maximumFours: 1)
    #expect(short.victoryByFours(for: Self.o) == nil)
    var search = ThreatSearch(board: board, maximumFours: 2)
    let result = search.victoryByFours(for: Self.o)
    let found = try #require(result)
    #expect(found.move == index(2, 5, board))
    #expect(BruteForceFours(board).isForcedWin(line: found.line, for: Self.o))
    #expect(BruteForceFours(board).winningFirstMoves(Self.o, fours: 2) == [index(2, 5, board)])
  }

  @Test(arguments: [(7, 3), (7, 4), (7, 5), (8, 5)])
  func randomPositionsAgreeWithBruteForce(size: Int, k: Int) throws {
    let rules = try Rules(size: size, k: k)
    var rng = SplitMix(seed: UInt64(size * 100 + k))
    var checked = 0
    var wins = 0
    while checked < 60 {
      var board = Board(rules: rules)
      let stones = Int.random(in: 4...(k == 3 ? 6 : 16), using: &rng)
      let cells = Array(0..<rules.cellCount).shuffled(using: &rng).prefix(stones)
      for (n, cell) in cells.enumerated() { board.set(n.isMultiple(of: 2) ? .x : .o, at: board.position(cell)) }
      guard board.anyWinningLine() == nil else { continue }
      let mark: UInt8 = stones.isMultiple(of: 2) ? Self.x : Self.o
      var search = ThreatSearch(board: board, maximumFours: 3)
      let found = search.victoryByFours(for: mark)
      let brute = BruteForceFours(board)
      #expect(!search.gaveUp)
      #expect(
        (found != nil) == brute.wins(mark, fours: 3), "\(rules) \(mark) to move, cells \(board.cells)")
      if let found {
        wins += 1
        #expect(brute.isForcedWin(line: found.line, for: mark), "line \(found.line) on \(board.cells)")
      }
      checked += 1
    }
    // Both answers occur, so agreement is not agreement on "never".
    #expect(wins >= 3 && wins <= 57, "\(wins) wins of 60")
  }

  // MARK: the computer player

  /// O to move: X's three down column 8 and three along row 7 (closed by O) meet at (7,8), where X would make a
  /// double four. O's only move that stops every win by fours is (7,8) itself.
  static let onlyDefence = [
    "O.............O",
    "...............",
    "...............",
    "...............",
    "........X......",
    "........X......",
    "........X......",
    "....OXXX.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "O.............O",
  ]

  @Test func theOnlyDefenceIsFoundAndPlayed() throws {
    let game = try Self.game(Self.onlyDefence, k: 5)
    #expect(game.turn == .o)
    let board = game.board
    // Brute force: every O move but (7,8) leaves X a win within four fours.
    let brute = BruteForceFours(board)
    var stopping: [Int] = []
    for cell in board.cells.indices where board.cells[cell] == 0 {
      var after = board
      after.set(.o, at: board.position(cell))
      if !BruteForceFours(after).wins(Self.x, fours: 4) { stopping.append(cell) }
    }
    #expect(brute.wins(Self.x, fours: 2))
    #expect(stopping == [index(7, 8, board)])
    let plan = ThreatPlan.make(board: board, mark: Self.o, start: .now, deadline: .now + .seconds(30))
    #expect(plan == .defend([index(7, 8, board)]))
    let ai = AIPlayer(level: .perfect, budget: .seconds(2))
    for seed in 0..<3 {
      var rng = SplitMix(seed: UInt64(seed))
      #expect(ai.chooseMove(in: game, using: &rng) == Position(row: 7, column: 8))
    }
  }

  @Test func thePerfectLevelPlaysItsWinByFoursThrough() throws {
    var game = try Self.game(Self.threeFours, k: 5)
    #expect(game.turn == .x)
    let start = game.history.count
    var attacker = AIPlayer(level: .perfect, budget: .seconds(2))
    attacker.threatSearch = true
    // The defender is the search as it was (no threat search): it blocks every single four.
    var defender = AIPlayer(level: .perfect, budget: .milliseconds(200))
    defender.threatSearch = false
    var rng = SplitMix(seed: 9)
    #expect(attacker.chooseMove(in: game, using: &rng) == Position(row: 5, column: 5))
    while !game.isOver, game.history.count < start + 9 {
      let player = game.turn == .x ? attacker : defender
      try game.play(try #require(player.chooseMove(in: game, using: &rng)))
    }
    #expect(game.outcome?.winner == .x && game.history.count == start + 7, "\(game.history)")
  }

  @Test func aQuietPositionHasNoPlan() throws {
    var board = Board(rules: try Rules(size: 15, k: 5))
    board.set(.x, at: Position(row: 7, column: 7))
    board.set(.o, at: Position(row: 7, column: 8))
    let plan = ThreatPlan.make(board: board, mark: Self.x, start: .now, deadline: .now + .seconds(5))
    #expect(plan == .none)
  }
}

/// Wins by continuous fours found by trying every empty cell, with no tables and no pruning: written from the
/// rules (k or more in a row wins), sharing nothing with ThreatSearch.
struct BruteForceFours {
  var cells: [UInt8]
  let rows: Int
  let columns: Int
  let k: Int

  init(_ board: Board) {
    cells = board.cells
    rows = board.rules.rows
    columns = board.rules.columns
    k = board.rules.k
  }

  /// Whether `mark` on the empty `cell` makes k or more in a row.
  func completes(_ mark: UInt8, _ cell: Int) -> Bool {
    let r = cell / columns
    let c = cell % columns
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
      var run = 1
      for sign in [1, -1] {
        var rr = r + sign * dr
        var cc = c + sign * dc
        while rr >= 0, rr < rows, cc >= 0, cc < columns, cells[rr * columns + cc] == mark {
          run += 1
          rr += sign * dr
          cc += sign * dc
        }
      }
      if run >= k { return true }
    }
    return false
  }

  func winning(_ mark: UInt8) -> [Int] {
    cells.indices.filter { cells[$0] == 0 && completes(mark, $0) }
  }

  /// Whether `mark`, to move, wins with at most `fours` moves that each threaten to win at once.
  func wins(_ mark: UInt8, fours: Int) -> Bool {
    if !winning(mark).isEmpty { return true }
    return fours > 0 && !winningFirstMoves(mark, fours: fours, stopAtFirst: true).isEmpty
  }

  func winningFirstMoves(_ mark: UInt8, fours: Int, stopAtFirst: Bool = false) -> [Int] {
    var result: [Int] = []
    var copy = self
    for cell in cells.indices where cells[cell] == 0 {
      copy.cells[cell] = mark
      let threats = copy.winning(mark)
      // The opponent wins at once if it can; otherwise it must take our one threat (two cannot both be taken).
      if !threats.isEmpty, copy.winning(3 - mark).isEmpty {
        if threats.count >= 2 {
          result.append(cell)
        } else {
          copy.cells[threats[0]] = 3 - mark
          if copy.wins(mark, fours: fours - 1) { result.append(cell) }
          copy.cells[threats[0]] = 0
        }
      }
      copy.cells[cell] = 0
      if stopAtFirst, !result.isEmpty { break }
    }
    return result
  }

  /// Whether `line` (attacker, forced answer, attacker, ...) is legal and forced at every step and ends in a win:
  /// each attacker move leaves the opponent no win and its own one threat on the answered cell, except the last,
  /// which wins or leaves two threats.
  func isForcedWin(line: [Int], for mark: UInt8) -> Bool {
    var copy = self
    var i = 0
    while i < line.count {
      let move = line[i]
      guard copy.cells[move] == 0 else { return false }
      if copy.completes(mark, move) { return i == line.count - 1 }
      copy.cells[move] = mark
      // The move may block the opponent's threat, but must leave it none.
      guard copy.winning(3 - mark).isEmpty else { return false }
      let threats = copy.winning(mark)
      if i == line.count - 1 { return threats.count >= 2 }
      guard threats == [line[i + 1]] else { return false }
      copy.cells[line[i + 1]] = 3 - mark
      i += 2
    }
    return false
  }
}

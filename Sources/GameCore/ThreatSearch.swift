/// Finds forced wins by continuous fours (VCF, "victory by continuous fours"): a sequence of moves each of which
/// threatens to complete k in a row at once, so the opponent's every answer is forced, ending in a move that
/// threatens two completions (or completes one). Works for any k of at least 3 (a "four" is k - 1 marks in a
/// k-cell window whose last cell is empty) and every variant: where only exactly five wins, a completion that
/// would make six is none, and under renju the attacker X never plays a foul (so never ends on a double four).
///
/// Sound, not complete: a line it reports wins against every defence (the defender's only other choice at each
/// step is to lose at once), but it searches only to `maximumFours` fours, within a node count and a deadline,
/// and wins that need open threes are `victoryByThreats`'s (VictoryByThreats.swift).
struct ThreatSearch {
  /// What a search found.
  struct Result: Equatable {
    /// The winning line, moves of both sides in order (attacker first, then the forced answer, ...), ending with
    /// the attacker's last four (that threatens two cells) or the completing move itself.
    var line: [Int]
    /// The attacker's first move.
    var move: Int { line[0] }
  }

  var board: ThreatBoard
  let maximumFours: Int
  var deadline: ContinuousClock.Instant?
  var nodeLimit = 0
  /// Nodes visited by the last search.
  var nodes = 0
  /// Whether the last search stopped at its deadline or node limit (a nil answer then means "not found").
  var gaveUp = false
  /// Positions (attacker to move) already shown to hold no VCF within the stored number of fours, by the
  /// position's hash and the attacker: true of the position whatever the search started from.
  private var failed: [UInt64: Int] = [:]
  /// The same for wins by threats (fours and threes), by the number of attacking moves left.
  var failedThreats: [UInt64: Int] = [:]
  var line: [Int] = []
  /// Counter-fours in a row the defender may play against one three before a win by threats is given up.
  var maximumCounterFours = 3

  init(board: Board, maximumFours: Int = 20) {
    self.board = ThreatBoard(board)
    self.maximumFours = maximumFours
  }

  /// A forced win by continuous fours for `mark` if `mark` were to move now (whoever's turn it really is), or
  /// nil; at most `nodeLimit` positions are visited, and none after `deadline`.
  mutating func victoryByFours(
    for mark: UInt8, deadline: ContinuousClock.Instant? = nil, nodeLimit: Int = 200_000
  ) -> Result? {
    let fours = maximumFours
    return search(deadline: deadline, nodeLimit: nodeLimit) { $0.vcf(mark, fours: fours) }
  }

  /// Runs one search from a fresh start (no line, no nodes counted, not given up) within `deadline` and
  /// `nodeLimit`: its line, attacker first, when `attack` found a win.
  mutating func search(
    deadline: ContinuousClock.Instant?, nodeLimit: Int, _ attack: (inout ThreatSearch) -> Bool
  ) -> Result? {
    line = []
    nodes = 0
    gaveUp = false
    self.deadline = deadline
    self.nodeLimit = nodeLimit
    guard attack(&self) else { return nil }
    return Result(line: line.reversed())
  }

  /// Puts `mark` on the empty `cell`, for searches of the position that follows.
  mutating func place(_ mark: UInt8, at cell: Int) { board.place(mark, at: cell) }

  /// Empties `cell` again.
  mutating func clear(_ cell: Int) { board.clear(cell) }

  /// Cells where `mark` would complete k in a row at once.
  func winningCells(for mark: UInt8) -> [Int] { board.winningCells(for: mark) }

  /// Whether renju forbids `mark` the empty `cell` now.
  func isForbidden(_ mark: UInt8, at cell: Int) -> Bool { board.isForbidden(mark, at: cell) }

  /// Cells where `mark` would make a four (threaten to complete k in a row).
  func fourMoves(for mark: UInt8) -> [Int] { board.fourMoves(for: mark).map(\.cell) }

  mutating func outOfTime() -> Bool {
    nodes += 1
    if nodes > nodeLimit { gaveUp = true }
    if let deadline, nodes & 255 == 0, ContinuousClock.now >= deadline { gaveUp = true }
    return gaveUp
  }

  /// Whether `mark`, to move, wins by continuous fours within `fours` fours; the winning line is appended to
  /// `line` backwards when it does.
  mutating func vcf(_ mark: UInt8, fours: Int) -> Bool {
    if outOfTime() { return false }
    let wins = board.winningCells(for: mark)
    if let win = wins.first {
      line.append(win)
      return true
    }
    let opponent = 3 - mark
    let threats = board.winningCells(for: opponent)
    // Two threats of the opponent's cannot both be blocked; one must be blocked by a four of our own.
    if threats.count >= 2 || fours == 0 { return false }
    let key = board.hash ^ UInt64(mark)
    if let known = failed[key], known >= fours { return false }
    let candidates: [Int]
    if let threat = threats.first {
      candidates = board.fourMoves(for: mark).contains { $0.cell == threat } ? [threat] : []
    } else {
      candidates = board.fourMoves(for: mark).sorted { $0.windows > $1.windows }.map(\.cell)
    }
    for cell in candidates where !board.isForbidden(mark, at: cell) {
      board.place(mark, at: cell)
      let made = board.winningCells(for: mark, through: cell)
      if made.count >= 2 {
        board.clear(cell)
        line.append(cell)
        return true
      }
      guard let reply = made.first, !board.completes(opponent, at: reply) else {
        board.clear(cell)
        continue
      }
      board.place(opponent, at: reply)
      let won = vcf(mark, fours: fours - 1)
      board.clear(reply)
      board.clear(cell)
      if won {
        line.append(reply)
        line.append(cell)
        return true
      }
      if gaveUp { return false }
    }
    if !gaveUp { failed[key] = fours }
    return false
  }
}

/// The board as the threat search sees it: every k-cell window with how many marks of each side it holds,
/// kept up to date move by move, and a Zobrist hash of the position.
struct ThreatBoard {
  let k: Int
  private let rows: Int
  private let columns: Int
  private let variant: RuleVariant
  private(set) var cells: [UInt8]
  /// Each window's cells.
  let windows: [[Int]]
  /// The cells just before and just after each window along its line (-1 off the board): where only exactly
  /// five wins, a window whose completion would run on into one of them holding the same mark wins nothing.
  private let outside: [(Int, Int)]
  /// The windows through each cell.
  let windowsThrough: [[Int]]
  /// Marks of X (index 1) and O (index 2) in each window: counts[window * 3 + mark].
  private(set) var counts: [Int]
  private let keys: [UInt64]
  private(set) var hash: UInt64 = 0

  init(_ board: Board) { self.init(SearchBoard(board)) }

  init(_ board: SearchBoard) {
    k = board.k
    rows = board.rows
    columns = board.columns
    variant = board.variant
    cells = board.cells
    var windows: [[Int]] = []
    var outside: [(Int, Int)] = []
    let cellAt = { (row: Int, column: Int) -> Int in
      row >= 0 && row < board.rows && column >= 0 && column < board.columns ? row * board.columns + column : -1
    }
    for row in 0..<board.rows {
      for column in 0..<board.columns {
        for (dr, dc) in Board.directions {
          let endRow = row + dr * (board.k - 1)
          let endColumn = column + dc * (board.k - 1)
          guard endRow < board.rows, endColumn >= 0, endColumn < board.columns else { continue }
          windows.append((0..<board.k).map { (row + dr * $0) * board.columns + column + dc * $0 })
          outside.append((cellAt(row - dr, column - dc), cellAt(endRow + dr, endColumn + dc)))
        }
      }
    }
    self.outside = outside
    var through = [[Int]](repeating: [], count: board.count)
    for (w, window) in windows.enumerated() {
      for cell in window { through[cell].append(w) }
    }
    self.windows = windows
    windowsThrough = through
    counts = [Int](repeating: 0, count: windows.count * 3)
    var rng = SplitMix(seed: 0x7448_5245_4154)
    keys = (0..<board.count * 3).map { _ in rng.next() }
    for (w, window) in windows.enumerated() {
      for cell in window where cells[cell] != 0 { counts[w * 3 + Int(cells[cell])] += 1 }
    }
    for cell in cells.indices where cells[cell] != 0 { hash ^= keys[cell * 3 + Int(cells[cell])] }
  }

  mutating func place(_ mark: UInt8, at cell: Int) {
    cells[cell] = mark
    hash ^= keys[cell * 3 + Int(mark)]
    for w in windowsThrough[cell] { counts[w * 3 + Int(mark)] += 1 }
  }

  mutating func clear(_ cell: Int) {
    let mark = cells[cell]
    cells[cell] = 0
    hash ^= keys[cell * 3 + Int(mark)]
    for w in windowsThrough[cell] { counts[w * 3 + Int(mark)] -= 1 }
  }

  /// Whether window `w` lacks only one of `mark`'s marks to win: k - 1 of them, none of the other's, and where
  /// the variant wants exactly five for `mark`, no mark of `mark`'s just outside it.
  @inline(__always) private func oneShort(_ w: Int, _ mark: UInt8) -> Bool {
    guard counts[w * 3 + Int(mark)] == k - 1, counts[w * 3 + Int(3 - mark)] == 0 else { return false }
    guard !variant.wins(runOf: k + 1, by: mark == 1 ? .x : .o, k: k) else { return true }
    let (before, after) = outside[w]
    return (before < 0 || cells[before] != mark) && (after < 0 || cells[after] != mark)
  }

  /// Whether `mark` on the empty `cell` would complete a winning window.
  func completes(_ mark: UInt8, at cell: Int) -> Bool {
    windowsThrough[cell].contains { oneShort($0, mark) }
  }

  /// Whether renju forbids `mark` the empty `cell`.
  func isForbidden(_ mark: UInt8, at cell: Int) -> Bool {
    guard mark == 1, variant.restricts(.x) else { return false }
    var check = FoulCheck(rows: rows, columns: columns, cells: cells)
    return check.foul(at: cell) != nil
  }

  /// The empty cell of each window one mark short of a win for `mark`, without repeats.
  func winningCells(for mark: UInt8) -> [Int] {
    var result: [Int] = []
    for w in windows.indices where oneShort(w, mark) {
      if let empty = windows[w].first(where: { cells[$0] == 0 }), !result.contains(empty) { result.append(empty) }
    }
    return result
  }

  /// Like `winningCells(for:)`, only among the windows through `cell`.
  func winningCells(for mark: UInt8, through cell: Int) -> [Int] {
    var result: [Int] = []
    for w in windowsThrough[cell] where oneShort(w, mark) {
      if let empty = windows[w].first(where: { cells[$0] == 0 }), !result.contains(empty) { result.append(empty) }
    }
    return result
  }

  /// Empty cells where `mark` would make a four: both empty cells of every window holding k - 2 of `mark`'s
  /// marks and none of the other's, each with the number of such windows through it.
  func fourMoves(for mark: UInt8) -> [(cell: Int, windows: Int)] {
    var found: [Int: Int] = [:]
    var order: [Int] = []
    for w in windows.indices where counts[w * 3 + Int(mark)] == k - 2 && counts[w * 3 + Int(3 - mark)] == 0 {
      for cell in windows[w] where cells[cell] == 0 {
        if let seen = found[cell] {
          found[cell] = seen + 1
        } else {
          found[cell] = 1
          order.append(cell)
        }
      }
    }
    return order.map { ($0, found[$0] ?? 0) }
  }
}

/// Solves a position for win, draw or loss only (no distance): negamax on bit masks over the board's lines of k,
/// with a null window, a fixed-size transposition table and the lines no side can still fill left out. Made for
/// boards past ExactSolver's 16 cells (5×5 with 4 in a row); a deadline makes it give up on bigger ones.
///
/// Values are from the side to move: 1 win, 0 draw, -1 loss. Keeping the value move after move wins a won
/// position, since every game ends and no move of the loser can lower it.
final class LineSolver {
  /// The largest board, in cells, it takes (two 64-bit masks).
  static let maximumCells = 64

  private let cellCount: Int
  private let k: Int
  /// Every k cells in a row, column or diagonal, as a mask.
  private let lines: [UInt64]
  /// The lines through each cell, as indices into `lines`.
  private let linesThrough: [[Int]]
  /// Cells by how many lines pass through them, most first (the search's move order).
  private let order: [Int]
  private var table: SolverTable
  /// Positions with up to this many marks are looked up in the table as their least symmetric image, so a
  /// position and its turns and mirrors are searched once (past it, computing the images costs more).
  static let symmetricPlies = 12
  let symmetry: BoardSymmetry
  private let deadline: ContinuousClock.Instant?
  private var nodes = 0
  /// Each depth's moves and their scores, a row of `cellCount` per depth (no allocation while searching).
  private let moves: UnsafeMutablePointer<Int>
  private let scores: UnsafeMutablePointer<Int>
  /// Set once the deadline passed; every value after that is meaningless.
  private(set) var timedOut = false
  /// Positions searched so far.
  var searched: Int { nodes }

  init(rows: Int, columns: Int, k: Int, tableBits: Int = 20, deadline: ContinuousClock.Instant? = nil) {
    precondition(rows * columns <= LineSolver.maximumCells)
    cellCount = rows * columns
    self.k = k
    var lines: [UInt64] = []
    for row in 0..<rows {
      for column in 0..<columns {
        for (dr, dc) in Board.directions {
          let endRow = row + dr * (k - 1)
          let endColumn = column + dc * (k - 1)
          guard endRow < rows, endColumn >= 0, endColumn < columns else { continue }
          var mask: UInt64 = 0
          for step in 0..<k { mask |= 1 << UInt64((row + dr * step) * columns + column + dc * step) }
          lines.append(mask)
        }
      }
    }
    self.lines = lines
    linesThrough = (0..<rows * columns).map { cell in lines.indices.filter { lines[$0] & (1 << UInt64(cell)) != 0 } }
    let through = linesThrough
    order = (0..<rows * columns).sorted {
      through[$0].count == through[$1].count ? $0 < $1 : through[$0].count > through[$1].count
    }
    table = SolverTable(bits: tableBits)
    symmetry = BoardSymmetry(rows: rows, columns: columns)
    moves = .allocate(capacity: cellCount * (cellCount + 1))
    scores = .allocate(capacity: cellCount * (cellCount + 1))
    self.deadline = deadline
  }

  deinit {
    moves.deallocate()
    scores.deallocate()
  }

  /// The masks of X's and O's cells in `cells` (0 empty, 1 X, 2 O).
  static func masks(_ cells: [UInt8]) -> (x: UInt64, o: UInt64) {
    var x: UInt64 = 0
    var o: UInt64 = 0
    for (i, cell) in cells.enumerated() {
      if cell == 1 { x |= 1 << UInt64(i) } else if cell == 2 { o |= 1 << UInt64(i) }
    }
    return (x, o)
  }

  /// The value of the position for the side to move (`mine` its cells, `theirs` the other's), nil on timeout.
  /// The position must not be over.
  func value(mine: UInt64, theirs: UInt64) -> Int? {
    let result = search(mine, theirs, alpha: -1, beta: 1)
    return timedOut ? nil : result
  }

  /// The value after the side to move plays `cell`, from its side: nil on timeout.
  func value(after cell: Int, mine: UInt64, theirs: UInt64) -> Int? {
    let placed = mine | 1 << UInt64(cell)
    if completes(placed, at: cell) { return 1 }
    if (placed | theirs).nonzeroBitCount == cellCount { return 0 }
    let reply = search(theirs, placed, alpha: -1, beta: 1)
    return timedOut ? nil : -reply
  }

  /// Whether a side has k in a row or the board is full.
  func isOver(x: UInt64, o: UInt64) -> Bool {
    (x | o).nonzeroBitCount == cellCount || lines.contains { $0 & x == $0 || $0 & o == $0 }
  }

  /// The value of the position for the side to move and every empty cell that keeps it, in the search's order
  /// (nil on timeout); `firstOnly` stops at the first such cell.
  func keepingMoves(mine: UInt64, theirs: UInt64, firstOnly: Bool = false) -> (value: Int, cells: [Int])? {
    guard let value = value(mine: mine, theirs: theirs) else { return nil }
    let count = orderMoves(mine, theirs, depth: cellCount)
    let candidates = (0..<count).map { moves[cellCount * cellCount + $0] }
    // A pass (a cell on no open line) stands for every other pass: add them back after the one tried.
    let passes = (0..<cellCount).filter { cell in
      (mine | theirs) & (1 << UInt64(cell)) == 0 && !candidates.contains(cell)
    }
    var cells: [Int] = []
    for cell in candidates {
      guard let after = self.value(after: cell, mine: mine, theirs: theirs) else { return nil }
      guard after == value else { continue }
      cells.append(cell)
      if firstOnly { break }
      if isPass(cell, mine: mine, theirs: theirs) { cells += passes }
    }
    return (value, cells)
  }

  private func isPass(_ cell: Int, mine: UInt64, theirs: UInt64) -> Bool {
    linesThrough[cell].allSatisfy { lines[$0] & mine != 0 && lines[$0] & theirs != 0 }
  }

  @inline(__always) private func completes(_ mine: UInt64, at cell: Int) -> Bool {
    for line in linesThrough[cell] where mine & lines[line] == lines[line] { return true }
    return false
  }

  /// Writes the empty cells worth trying into `moves` at `depth`'s row, most promising first, and returns how
  /// many: a cell on no line either side can still fill is a pass, so only one such cell is tried.
  private func orderMoves(_ mine: UInt64, _ theirs: UInt64, depth: Int) -> Int {
    let occupied = mine | theirs
    let row = moves + depth * cellCount
    let scores = self.scores + depth * cellCount
    var count = 0
    var passTried = false
    for cell in order where occupied & (1 << UInt64(cell)) == 0 {
      var score = 0
      for line in linesThrough[cell] {
        let mask = lines[line]
        let my = (mask & mine).nonzeroBitCount
        let their = (mask & theirs).nonzeroBitCount
        if their == 0 { score += 1 + my * my * 4 }
        if my == 0 { score += 1 + their * their * 3 }
      }
      if score == 0 {
        if passTried { continue }
        passTried = true
      }
      // Insertion into the sorted row.
      var at = count
      while at > 0 && scores[at - 1] < score {
        row[at] = row[at - 1]
        scores[at] = scores[at - 1]
        at -= 1
      }
      row[at] = cell
      scores[at] = score
      count += 1
    }
    return count
  }

  /// Whether the side to move wins at once, the cells where the other would, and whether each side still has a
  /// line it can fill with the moves it has left.
  @inline(__always) private func scanLines(
    _ mine: UInt64, _ theirs: UInt64, empty: Int
  ) -> (myWin: Bool, theirWins: UInt64, myOpen: Bool, theirOpen: Bool) {
    let occupied = mine | theirs
    var myWin = false
    var theirWins: UInt64 = 0
    var myOpen = false
    var theirOpen = false
    let myMoves = (empty + 1) / 2
    let theirMoves = empty / 2
    for line in lines {
      if line & theirs == 0 {
        let missing = k - (line & mine).nonzeroBitCount
        if missing == 1 { myWin = true }
        if missing <= myMoves { myOpen = true }
      } else if line & mine == 0 {
        let missing = k - (line & theirs).nonzeroBitCount
        if missing == 1 { theirWins |= line & ~occupied }
        if missing <= theirMoves { theirOpen = true }
      }
    }
    return (myWin, theirWins, myOpen, theirOpen)
  }

  /// What the side to move can force, within [alpha, beta].
  private func search(_ mine: UInt64, _ theirs: UInt64, alpha: Int, beta: Int) -> Int {
    nodes += 1
    if nodes & 0x3FF == 0, let deadline, ContinuousClock.now >= deadline { timedOut = true }
    if timedOut { return 0 }
    let occupied = mine | theirs
    let empty = cellCount - occupied.nonzeroBitCount
    if empty == 0 { return 0 }
    let (myWin, theirWins, myOpen, theirOpen) = scanLines(mine, theirs, empty: empty)
    if myWin { return 1 }
    if !myOpen && !theirOpen { return 0 }
    if theirWins.nonzeroBitCount > 1 { return -1 }
    var alpha = alpha
    var beta = beta
    if !myOpen { beta = min(beta, 0) }
    if !theirOpen { alpha = max(alpha, 0) }
    if alpha >= beta { return alpha }
    let key: SolverTable.Key
    if cellCount - empty <= LineSolver.symmetricPlies {
      let least = symmetry.canonical(mine, theirs)
      key = SolverTable.Key(mine: least.first, theirs: least.second)
    } else {
      key = SolverTable.Key(mine: mine, theirs: theirs)
    }
    if let (low, high) = table.bounds(key) {
      alpha = max(alpha, low)
      beta = min(beta, high)
      if alpha >= beta { return alpha }
    }
    let alphaIn = alpha
    let betaIn = beta
    var best = -1
    let depth = occupied.nonzeroBitCount
    let count: Int
    if theirWins != 0 {
      moves[depth * cellCount] = theirWins.trailingZeroBitCount
      count = 1
    } else {
      count = orderMoves(mine, theirs, depth: depth)
    }
    for slot in 0..<count {
      let cell = moves[depth * cellCount + slot]
      let value = empty == 1 ? 0 : -search(theirs, mine | 1 << UInt64(cell), alpha: -beta, beta: -alpha)
      if value > best { best = value }
      if best > alpha { alpha = best }
      if alpha >= beta { break }
    }
    if timedOut { return 0 }
    let low = best >= betaIn ? best : (best <= alphaIn ? -1 : best)
    let high = best <= alphaIn ? best : (best >= betaIn ? 1 : best)
    table.store(key, low: low, high: high)
    return best
  }
}

/// The solver's transposition table: a fixed number of slots, each holding one position's bounds, the newest
/// position replacing the older in its slot.
struct SolverTable {
  struct Key: Hashable, Sendable {
    var mine: UInt64
    var theirs: UInt64
    var hash: Int {
      var h = mine &* 0x9E37_79B9_7F4A_7C15 ^ theirs &* 0xC2B2_AE3D_27D4_EB4F
      h ^= h >> 29
      return Int(truncatingIfNeeded: h)
    }
  }

  private var keys: [Key]
  /// Low bound + 1 in the low two bits, high bound + 1 in the next two; 0 for an empty slot.
  private var values: [UInt8]
  private let mask: Int

  init(bits: Int) {
    keys = Array(repeating: Key(mine: 0, theirs: 0), count: 1 << bits)
    values = Array(repeating: 0, count: 1 << bits)
    mask = (1 << bits) - 1
  }

  func bounds(_ key: Key) -> (Int, Int)? {
    let slot = key.hash & mask
    let packed = values[slot]
    guard packed != 0, keys[slot] == key else { return nil }
    return (Int(packed & 3) - 1, Int(packed >> 2) - 1)
  }

  mutating func store(_ key: Key, low: Int, high: Int) {
    let slot = key.hash & mask
    keys[slot] = key
    values[slot] = UInt8(low + 1) | UInt8(high + 1) << 2
  }
}

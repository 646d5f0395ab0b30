/// The game-theoretic value of small m,n,k positions, as a reference for the AI's own solver.
///
/// It shares nothing with GameCore on purpose: its own cell numbering, its own list of every k-cell window
/// as the definition of a win, and plain minimax (no alpha-beta, no move ordering, no threat shortcuts; only a
/// winning move ends the search of its position early) with every position remembered in a flat table indexed
/// by the base-3 number of the board. Slow and obvious, so that a mistake in the fast solver is not repeated.
public final class ReferenceSolver {
  public let rows: Int
  public let columns: Int
  public let k: Int
  /// The cell numbers (row-major) of every run of k cells in a line.
  private let windows: [[Int]]
  /// For each cell, the windows it belongs to.
  private let windowsThrough: [[Int]]
  /// 3^cell, the weight of a cell in a position's number.
  private let weights: [Int]
  /// Per position number: 0 not yet solved, otherwise the value for the side to move plus 2.
  private var memo: [UInt8]
  /// How many distinct positions have been solved so far.
  public private(set) var solvedPositions = 0

  /// Boards of at most 16 cells (the table has 3^cells entries).
  public init(rows: Int, columns: Int, k: Int) {
    precondition(rows * columns <= 16, "the reference solver keeps a table of 3^cells entries")
    self.rows = rows
    self.columns = columns
    self.k = k
    var windows: [[Int]] = []
    for row in 0..<rows {
      for column in 0..<columns {
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
          let endRow = row + dr * (k - 1)
          let endColumn = column + dc * (k - 1)
          guard endRow < rows, endColumn >= 0, endColumn < columns else { continue }
          windows.append((0..<k).map { (row + dr * $0) * columns + column + dc * $0 })
        }
      }
    }
    self.windows = windows
    var through = [[Int]](repeating: [], count: rows * columns)
    for (number, window) in windows.enumerated() {
      for cell in window { through[cell].append(number) }
    }
    self.windowsThrough = through
    var weights: [Int] = []
    var weight = 1
    for _ in 0..<(rows * columns) {
      weights.append(weight)
      weight *= 3
    }
    self.weights = weights
    self.memo = [UInt8](repeating: 0, count: weight)
  }

  /// Whether `mark` (1 or 2) fills a whole window of `cells`.
  public func hasLine(_ mark: UInt8, in cells: [UInt8]) -> Bool {
    windows.contains { window in window.allSatisfy { cells[$0] == mark } }
  }

  /// The value for the side to move of the position `cells` (row-major, 0 empty, 1 X, 2 O; X moves first):
  /// 1 when it can force a win, 0 a draw, -1 when the opponent can force a win (or has already won).
  public func value(of cells: [UInt8]) -> Int {
    precondition(cells.count == rows * columns)
    let xs = cells.filter { $0 == 1 }.count
    let os = cells.filter { $0 == 2 }.count
    precondition(xs == os || xs == os + 1, "not a position of a game: \(xs) X and \(os) O")
    let mover: UInt8 = xs == os ? 1 : 2
    if hasLine(3 - mover, in: cells) { return -1 }
    precondition(!hasLine(mover, in: cells), "the side to move has already won")
    var board = cells
    var number = 0
    for (cell, mark) in cells.enumerated() { number += Int(mark) * weights[cell] }
    return solve(&board, number: number, mover: mover)
  }

  /// Minimax over every move; `board` has no completed window and is restored before returning.
  private func solve(_ board: inout [UInt8], number: Int, mover: UInt8) -> Int {
    if memo[number] != 0 { return Int(memo[number]) - 2 }
    var best = -2
    var anyMove = false
    for cell in 0..<board.count where board[cell] == 0 {
      anyMove = true
      board[cell] = mover
      let value: Int
      if windowsThrough[cell].contains(where: { window in windows[window].allSatisfy { board[$0] == mover } }) {
        value = 1
      } else {
        value = -solve(&board, number: number + Int(mover) * weights[cell], mover: 3 - mover)
      }
      board[cell] = 0
      best = max(best, value)
      if best == 1 { break }
    }
    if !anyMove { best = 0 }
    memo[number] = UInt8(best + 2)
    solvedPositions += 1
    return best
  }
}

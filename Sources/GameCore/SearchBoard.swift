/// A flat, mutable copy of a board for the AI's searches: cells by index, marks as raw bytes.
struct SearchBoard {
  let rows: Int
  let columns: Int
  let k: Int
  /// Which runs win, and whether X's moves are checked for renju's fouls.
  let variant: RuleVariant
  var cells: [UInt8]
  var empties: Int

  init(_ board: Board) {
    rows = board.rules.rows
    columns = board.rules.columns
    k = board.rules.k
    variant = board.rules.variant
    cells = board.cells
    empties = cells.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
  }

  /// Whether `mark` may not play the empty cell `index` (renju's fouls, for X only).
  func isForbidden(_ mark: UInt8, at index: Int) -> Bool {
    guard mark == 1, variant.restricts(.x) else { return false }
    var check = FoulCheck(rows: rows, columns: columns, cells: cells)
    return check.foul(at: index) != nil
  }

  var count: Int { cells.count }

  @inline(__always) mutating func place(_ mark: UInt8, at index: Int) {
    cells[index] = mark
    empties -= 1
  }

  @inline(__always) mutating func clear(_ index: Int) {
    cells[index] = 0
    empties += 1
  }

  /// Whether `mark` on cell `index` (placed there or not) completes a line that wins under the variant.
  func completesLine(_ mark: UInt8, at index: Int) -> Bool {
    let row = index / columns
    let column = index % columns
    for (dr, dc) in Board.directions {
      var run = 1
      var r = row + dr
      var c = column + dc
      while r >= 0, r < rows, c >= 0, c < columns, cells[r * columns + c] == mark {
        run += 1
        r += dr
        c += dc
      }
      r = row - dr
      c = column - dc
      while r >= 0, r < rows, c >= 0, c < columns, cells[r * columns + c] == mark {
        run += 1
        r -= dr
        c -= dc
      }
      if variant.wins(runOf: run, by: mark == 1 ? .x : .o, k: k) { return true }
    }
    return false
  }

  /// Empty cells where `mark` would complete a line at once.
  func winningCells(for mark: UInt8) -> [Int] {
    var result: [Int] = []
    for i in 0..<cells.count where cells[i] == 0 && completesLine(mark, at: i) {
      result.append(i)
    }
    return result
  }

  /// Cell indices ordered from the centre outwards (a good first guess at move quality).
  func centreFirstOrder() -> [Int] {
    let centreRow = Double(rows - 1) / 2
    let centreColumn = Double(columns - 1) / 2
    return (0..<cells.count).sorted { a, b in
      let da = abs(Double(a / columns) - centreRow) + abs(Double(a % columns) - centreColumn)
      let db = abs(Double(b / columns) - centreRow) + abs(Double(b % columns) - centreColumn)
      return da == db ? a < b : da < db
    }
  }
}

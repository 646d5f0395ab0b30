/// A cell on the board, counted from 0 at the top left.
public struct Position: Sendable, Hashable, CustomStringConvertible {
  public var row: Int
  public var column: Int

  public init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }

  /// The cell with number `number` (1-based, row-major), as players type it in plain mode.
  public init?(cellNumber number: Int, rules: Rules) {
    guard (1...rules.cellCount).contains(number) else { return nil }
    self.init(row: (number - 1) / rules.columns, column: (number - 1) % rules.columns)
  }

  /// This cell's 1-based, row-major number.
  public func cellNumber(in rules: Rules) -> Int { row * rules.columns + column + 1 }

  /// "row 2, column 3" (1-based, for people).
  public var description: String { "row \(row + 1), column \(column + 1)" }
}

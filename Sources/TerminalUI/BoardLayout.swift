import GameCore

/// Where the board sits on the screen and how big its cells are. A board larger than 3×3 carries its
/// coordinates (gomoku notation): the column letters on a line above it, the row numbers (1 at the bottom) in a
/// gutter on its left; `top` and `left` are those of the whole block, labels included.
public struct BoardLayout: Sendable, Equatable {
  /// Boxed draws grid lines between cells; compact (for big boards on small terminals) draws none.
  public enum Kind: Sendable { case boxed, compact }

  public let rules: Rules
  public let kind: Kind
  public let top: Int
  public let left: Int

  public init(rules: Rules, kind: Kind, top: Int, left: Int) {
    self.rules = rules
    self.kind = kind
    self.top = top
    self.left = left
  }

  /// Whether the board is drawn with its coordinates: every board larger than 3×3.
  public static func isLabelled(_ rules: Rules) -> Bool { rules.rows > 3 || rules.columns > 3 }

  /// Columns left of the grid for the row numbers ("15 "), and rows above it for the letters.
  static func gutter(_ rules: Rules) -> (columns: Int, rows: Int) { isLabelled(rules) ? (3, 1) : (0, 0) }

  public static func width(of rules: Rules, kind: Kind) -> Int {
    gutter(rules).columns + (kind == .boxed ? rules.columns * 4 + 1 : rules.columns * 3)
  }

  public static func height(of rules: Rules, kind: Kind) -> Int {
    gutter(rules).rows + (kind == .boxed ? rules.rows * 2 + 1 : rules.rows)
  }

  public var width: Int { BoardLayout.width(of: rules, kind: kind) }
  public var height: Int { BoardLayout.height(of: rules, kind: kind) }

  /// The top left of the grid itself (its frame when boxed), below and right of the labels.
  public var gridOrigin: (row: Int, column: Int) {
    let gutter = BoardLayout.gutter(rules)
    return (top + gutter.rows, left + gutter.columns)
  }

  /// The screen row of a board row, and the first column of the three-character cell interior.
  public func origin(of position: Position) -> (row: Int, column: Int) {
    let grid = gridOrigin
    switch kind {
    case .boxed: return (grid.row + 1 + position.row * 2, grid.column + 1 + position.column * 4)
    case .compact: return (grid.row + position.row, grid.column + position.column * 3)
    }
  }

  /// The board cell under a screen cell (for mouse clicks), if any.
  public func position(atRow row: Int, column: Int) -> Position? {
    for r in 0..<rules.rows {
      for c in 0..<rules.columns {
        let origin = origin(of: Position(row: r, column: c))
        if origin.row == row && (origin.column..<(origin.column + 3)).contains(column) {
          return Position(row: r, column: c)
        }
      }
    }
    return nil
  }
}

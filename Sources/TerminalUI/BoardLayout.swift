import GameCore

/// Where the board sits on the screen and how big its cells are.
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

  public static func width(of rules: Rules, kind: Kind) -> Int {
    kind == .boxed ? rules.columns * 4 + 1 : rules.columns * 3
  }

  public static func height(of rules: Rules, kind: Kind) -> Int {
    kind == .boxed ? rules.rows * 2 + 1 : rules.rows
  }

  public var width: Int { BoardLayout.width(of: rules, kind: kind) }
  public var height: Int { BoardLayout.height(of: rules, kind: kind) }

  /// The screen row of a board row, and the first column of the three-character cell interior.
  public func origin(of position: Position) -> (row: Int, column: Int) {
    switch kind {
    case .boxed: return (top + 1 + position.row * 2, left + 1 + position.column * 4)
    case .compact: return (top + position.row, left + position.column * 3)
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

/// The marks on an m,n,k board.
public struct Board: Sendable, Hashable {
  public let rules: Rules
  /// Row-major cells: 0 empty, otherwise a `Mark` raw value.
  private(set) var cells: [UInt8]

  /// The four line directions: across, down, down-right, down-left.
  static let directions = [(0, 1), (1, 0), (1, 1), (1, -1)]

  public init(rules: Rules) {
    self.rules = rules
    self.cells = Array(repeating: 0, count: rules.cellCount)
  }

  public subscript(position: Position) -> Mark? {
    guard rules.contains(position) else { return nil }
    return Mark(rawValue: cells[index(position)])
  }

  public var isFull: Bool { !cells.contains(0) }

  public var emptyPositions: [Position] {
    cells.indices.filter { cells[$0] == 0 }.map(position)
  }

  mutating func set(_ mark: Mark?, at position: Position) {
    cells[index(position)] = mark?.rawValue ?? 0
  }

  func index(_ position: Position) -> Int { position.row * rules.columns + position.column }

  func position(_ index: Int) -> Position {
    Position(row: index / rules.columns, column: index % rules.columns)
  }

  /// The longest run of `position`'s mark through `position`, if it is at least k long.
  public func winningLine(through position: Position) -> [Position]? {
    guard let mark = self[position] else { return nil }
    for (dr, dc) in Board.directions {
      var run = [position]
      for sign in [-1, 1] {
        var p = Position(row: position.row + sign * dr, column: position.column + sign * dc)
        while self[p] == mark {
          if sign < 0 { run.insert(p, at: 0) } else { run.append(p) }
          p = Position(row: p.row + sign * dr, column: p.column + sign * dc)
        }
      }
      if run.count >= rules.k { return run }
    }
    return nil
  }

  /// Scans the whole board for a completed line (used when a board arrives from outside).
  public func anyWinningLine() -> (Mark, [Position])? {
    for i in cells.indices where cells[i] != 0 {
      let p = position(i)
      if let line = winningLine(through: p), let mark = self[p] { return (mark, line) }
    }
    return nil
  }
}

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

  /// A board holding `marks`, row by row (a position from elsewhere: a file, another program); nil when the
  /// count is not the board's.
  public init?(rules: Rules, marks: [Mark?]) {
    guard marks.count == rules.cellCount else { return nil }
    self.rules = rules
    self.cells = marks.map { $0?.rawValue ?? 0 }
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

  /// The run of `position`'s mark through `position` that wins under the rules' variant (at least k long in
  /// freestyle, exactly five where the variant asks for it), if there is one.
  public func winningLine(through position: Position) -> [Position]? {
    Referee.winningLine(through: position, on: self)
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

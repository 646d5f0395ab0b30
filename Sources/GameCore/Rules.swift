import ExplainedErrors

/// The rules of an m,n,k game: a board of `rows` × `columns` cells, won by `k` marks in a row.
public struct Rules: Sendable, Hashable, CustomStringConvertible {
  /// Smallest and largest board side supported.
  public static let sideRange = 3...15
  /// Classic tic-tac-toe.
  public static let standard = Rules(validRows: 3, columns: 3, k: 3)

  public let rows: Int
  public let columns: Int
  public let k: Int

  /// Checks the limits: sides 3…15 and k from 3 to the shorter side.
  public init(rows: Int, columns: Int, k: Int) throws(RulesError) {
    guard Rules.sideRange.contains(rows) else { throw .sideOutOfRange(rows) }
    guard Rules.sideRange.contains(columns) else { throw .sideOutOfRange(columns) }
    guard (3...min(rows, columns)).contains(k) else {
      throw .kOutOfRange(k, maximum: min(rows, columns))
    }
    self.init(validRows: rows, columns: columns, k: k)
  }

  /// A square board of `size` × `size`.
  public init(size: Int, k: Int) throws(RulesError) {
    try self.init(rows: size, columns: size, k: k)
  }

  private init(validRows rows: Int, columns: Int, k: Int) {
    self.rows = rows
    self.columns = columns
    self.k = k
  }

  public var cellCount: Int { rows * columns }

  /// Whether `position` lies on the board.
  public func contains(_ position: Position) -> Bool {
    (0..<rows).contains(position.row) && (0..<columns).contains(position.column)
  }

  /// "3×3, 3 in a row" or "4×5, 4 in a row".
  public var description: String { "\(rows)×\(columns), \(k) in a row" }
}

/// Why a set of rules was refused.
public enum RulesError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case sideOutOfRange(Int)
  case kOutOfRange(Int, maximum: Int)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .sideOutOfRange: "rules.side-out-of-range"
    case .kOutOfRange: "rules.k-out-of-range"
    }
  }

  /// What was refused.
  public var reason: String {
    switch self {
    case .sideOutOfRange(let side): "board side \(side) is out of range"
    case .kOutOfRange(let k, _): "\(k) in a row is out of range"
    }
  }

  /// What is allowed instead.
  public var hint: String? {
    switch self {
    case .sideOutOfRange: "it must be from 3 to 15"
    case .kOutOfRange(_, let maximum): "it must be from 3 to \(maximum) on this board"
    }
  }

  public var description: String { hint.map { "\(reason): \($0)" } ?? reason }
}

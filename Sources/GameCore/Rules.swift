import ExplainedErrors

/// The rules of an m,n,k game: a board of `rows` × `columns` cells, won by `k` marks in a row, under a
/// `RuleVariant` (freestyle unless the game asks for exact five or renju, which need k = 5).
public struct Rules: Sendable, Hashable, CustomStringConvertible {
  /// Smallest and largest board side supported.
  public static let sideRange = 3...15
  /// Classic tic-tac-toe.
  public static let standard = Rules(validRows: 3, columns: 3, k: 3)

  public let rows: Int
  public let columns: Int
  public let k: Int
  /// Which lines win and which moves are forbidden.
  public let variant: RuleVariant

  /// The k every variant other than freestyle is played with.
  public static let variantK = 5

  /// Checks the limits: sides 3…15, k from 3 to the shorter side, and k = 5 for a variant other than freestyle.
  public init(rows: Int, columns: Int, k: Int, variant: RuleVariant = .freestyle) throws(RulesError) {
    guard Rules.sideRange.contains(rows) else { throw .sideOutOfRange(rows) }
    guard Rules.sideRange.contains(columns) else { throw .sideOutOfRange(columns) }
    guard (3...min(rows, columns)).contains(k) else {
      throw .kOutOfRange(k, maximum: min(rows, columns))
    }
    guard variant == .freestyle || k == Rules.variantK else { throw .variantNeedsFive(variant, k: k) }
    self.init(validRows: rows, columns: columns, k: k, variant: variant)
  }

  /// A square board of `size` × `size`.
  public init(size: Int, k: Int, variant: RuleVariant = .freestyle) throws(RulesError) {
    try self.init(rows: size, columns: size, k: k, variant: variant)
  }

  private init(validRows rows: Int, columns: Int, k: Int, variant: RuleVariant = .freestyle) {
    self.rows = rows
    self.columns = columns
    self.k = k
    self.variant = variant
  }

  /// The same board and k under `variant` (which must be freestyle unless k is 5).
  public func with(_ variant: RuleVariant) throws(RulesError) -> Rules {
    try Rules(rows: rows, columns: columns, k: k, variant: variant)
  }

  public var cellCount: Int { rows * columns }

  /// Whether `position` lies on the board.
  public func contains(_ position: Position) -> Bool {
    (0..<rows).contains(position.row) && (0..<columns).contains(position.column)
  }

  /// "3×3, 3 in a row" or "4×5, 4 in a row"; a variant other than freestyle is named after it
  /// ("15×15, 5 in a row, renju").
  public var description: String {
    let base = "\(rows)×\(columns), \(k) in a row"
    return variant == .freestyle ? base : "\(base), \(variant.name)"
  }
}

/// Why a set of rules was refused.
public enum RulesError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case sideOutOfRange(Int)
  case kOutOfRange(Int, maximum: Int)
  case variantNeedsFive(RuleVariant, k: Int)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .sideOutOfRange: "rules.side-out-of-range"
    case .kOutOfRange: "rules.k-out-of-range"
    case .variantNeedsFive: "rules.variant-needs-five"
    }
  }

  /// What was refused.
  public var reason: String {
    switch self {
    case .sideOutOfRange(let side): "board side \(side) is out of range"
    case .kOutOfRange(let k, _): "\(k) in a row is out of range"
    case .variantNeedsFive(let variant, let k): "the \(variant.name) rule is for five in a row, not \(k)"
    }
  }

  /// What is allowed instead.
  public var hint: String? {
    switch self {
    case .sideOutOfRange: "it must be from 3 to 15"
    case .kOutOfRange(_, let maximum): "it must be from 3 to \(maximum) on this board"
    case .variantNeedsFive: "play it with k = 5 on a board of at least 5×5, or choose the freestyle rule"
    }
  }

  public var description: String { hint.map { "\(reason): \($0)" } ?? reason }
}

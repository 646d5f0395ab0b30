import ExplainedErrors

/// The names of a board's cells as players write them, and the one parser for what they type. Three forms are
/// read side by side:
/// - gomoku and renju notation, "h8": a column letter (a–o from the left) then a row number counted from the
///   bottom, so h8 is the centre of a 15×15 board and a1 its bottom-left corner;
/// - a cell number, "113": 1 at the top left, row by row;
/// - "row,col" or "row col", "8,8": 1-based, rows counted from the top.
/// Notation is the one written out (screens, messages, move lists, records); the other two are only read.
public struct Coordinates: Sendable, Hashable {
  public let rules: Rules

  public init(_ rules: Rules) { self.rules = rules }

  /// The column letters, one per possible column (boards are at most 15 wide).
  static let letters: [Character] = Array("abcdefghijklmno")

  /// The letter of `column` (0 is the leftmost): "a" … "o".
  public func columnName(_ column: Int) -> String { String(Coordinates.letters[column]) }

  /// The number of `row` (0 is the top row) as notation counts it, from 1 at the bottom.
  public func rowName(_ row: Int) -> String { String(rules.rows - row) }

  /// `position` in notation: "h8".
  public func name(of position: Position) -> String { columnName(position.column) + rowName(position.row) }

  /// "a1-c3": the names of the corners, for hints.
  public var range: String {
    name(of: Position(row: rules.rows - 1, column: 0)) + "-" + name(of: Position(row: 0, column: rules.columns - 1))
  }

  /// The cell named `text` in notation (either case, no spaces), or nil when `text` is not notation or names
  /// no cell on this board.
  public func position(named text: some StringProtocol) -> Position? {
    guard case .success(let position) = notation(Substring(text)) else { return nil }
    return position
  }

  /// Reads a move typed in any of the three forms, ignoring surrounding spaces and case.
  public func parse(_ input: some StringProtocol) -> Result<Position, MoveInputError> {
    let text = Substring(input).trimmingEdgeSpaces()
    guard let first = text.first else { return .failure(.empty) }
    if first.isLetter { return notation(text) }
    let parts = text.split(whereSeparator: { $0 == "," || $0 == " " })
    if parts.count == 1, !text.contains(","), let number = Coordinates.number(parts[0]) {
      guard let position = Position(cellNumber: number, rules: rules) else {
        return .failure(.noSuchCell(number, cellCount: rules.cellCount))
      }
      return .success(position)
    }
    if parts.count == 2, let row = Coordinates.number(parts[0]), let column = Coordinates.number(parts[1]) {
      let position = Position(row: row - 1, column: column - 1)
      guard rules.contains(position) else { return .failure(.offBoard(String(text), rules)) }
      return .success(position)
    }
    return .failure(.notAMove(String(text)))
  }

  /// Notation: one letter a–z, then digits only. A letter beyond this board's columns is off the board.
  private func notation(_ text: Substring) -> Result<Position, MoveInputError> {
    guard let letter = text.first?.lowercased().first, let scalar = letter.unicodeScalars.first,
      letter.unicodeScalars.count == 1, ("a"..."z").contains(scalar),
      let number = Coordinates.number(text.dropFirst())
    else { return .failure(.notAMove(String(text))) }
    let column = Int(scalar.value - UnicodeScalar("a").value)
    let position = Position(row: rules.rows - number, column: column)
    guard number >= 1, rules.contains(position) else { return .failure(.offBoard(String(text), rules)) }
    return .success(position)
  }

  /// A decimal number of ASCII digits only (no sign, no spaces), at most four of them.
  private static func number(_ text: Substring) -> Int? {
    guard (1...4).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    return Int(text)
  }
}

/// Why a typed move names no cell: what the player can be told.
public enum MoveInputError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// Nothing was typed.
  case empty
  /// A cell number beyond the board.
  case noSuchCell(Int, cellCount: Int)
  /// Notation or row,col that is well formed but off this board.
  case offBoard(String, Rules)
  /// Text that is none of the three forms.
  case notAMove(String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .empty: "move-input.empty"
    case .noSuchCell: "move-input.no-such-cell"
    case .offBoard: "move-input.off-board"
    case .notAMove: "move-input.not-a-move"
    }
  }

  /// What was wrong with the text typed (what `description` says; the screens add the board's own example).
  public var reason: String {
    switch self {
    case .empty: "no move was typed"
    case .noSuchCell(let number, let count): "there is no cell \(number); cells are numbered 1-\(count)"
    case .offBoard(let text, let rules):
      "there is no \(text) on this \(rules.rows)×\(rules.columns) board (\(Coordinates(rules).range))"
    case .notAMove(let text): "\"\(text)\" is not a move"
    }
  }

  /// What the player can type instead.
  public var hint: String? { "type a coordinate such as b2, a cell number, or row,col" }

  public var description: String { reason }
}

extension Substring {
  fileprivate func trimmingEdgeSpaces() -> Substring {
    var s = self
    while s.first?.isWhitespace == true { s.removeFirst() }
    while s.last?.isWhitespace == true { s.removeLast() }
    return s
  }
}

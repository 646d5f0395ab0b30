import GameCore
import UntrustedText

/// The words of the Gomocup (Piskvork) brain protocol that both sides read and write: cells as "X,Y" (X the
/// column, Y the row, both counted from 0 at the top left), lines with a length limit, numbers without signs.
public enum ProtocolText {
  /// The longest line either side reads; a longer one is refused whole. The protocol's longest honest line,
  /// an ABOUT answer, fits many times over.
  public static let lineLimit = 1024

  /// The line with its end (CR LF, LF or stray CRs) and surrounding spaces removed.
  public static func trimmed(_ line: String) -> Substring {
    var text = Substring(line)
    // Whitespace includes CR, LF and CR LF, which Swift takes as one character.
    while let last = text.last, last.isWhitespace { text.removeLast() }
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    return text
  }

  /// The keyword (upper-cased) and the rest of a line, spaces around the rest removed.
  public static func split(_ line: Substring) -> (keyword: String, rest: Substring) {
    guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (line.uppercased(), "") }
    var rest = line[space...]
    while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
    return (line[..<space].uppercased(), rest)
  }

  /// A number of at most nine ASCII digits (no sign, no spaces inside), or nil.
  public static func number(_ text: Substring) -> Int? {
    var digits = text
    while digits.first == " " { digits.removeFirst() }
    while digits.last == " " { digits.removeLast() }
    guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits)
  }

  /// Comma-separated numbers ("7,8" or "7,8,1"), exactly `count` of them, or nil.
  public static func numbers(_ text: Substring, count: Int) -> [Int]? {
    let fields = text.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count == count else { return nil }
    var values: [Int] = []
    for field in fields {
      guard let value = number(field) else { return nil }
      values.append(value)
    }
    return values
  }

  /// The start of a text the other side sent, fit to be quoted back in one line: at most 40 characters, every
  /// character that could control a terminal or reorder text (`VisibleText.isUnsafe`) shown as "?".
  public static func echo<S: StringProtocol>(_ text: S) -> String {
    String(String(text.prefix(40)).unicodeScalars.map { VisibleText.isUnsafe($0) ? "?" : Character($0) })
  }

  /// "X,Y" for a cell: the column first.
  public static func cell(_ position: Position) -> String { "\(position.column),\(position.row)" }

  /// The cell named by "X,Y" when it lies on the board of `rules`.
  public static func cell(_ text: Substring, on rules: Rules) -> Result<Position, CellError> {
    guard let values = numbers(text, count: 2) else { return .failure(.notACell(echo(text))) }
    let position = Position(row: values[1], column: values[0])
    guard rules.contains(position) else { return .failure(.offBoard(values[0], values[1])) }
    return .success(position)
  }
}

/// Why "X,Y" names no cell of the board.
public enum CellError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not two numbers separated by a comma (the start of the text kept, for the message).
  case notACell(String)
  /// Two numbers, off the board.
  case offBoard(Int, Int)

  public var description: String {
    switch self {
    case .notACell(let text): "\"\(text)\" is not a cell X,Y"
    case .offBoard(let x, let y): "\(x),\(y) is off the board"
    }
  }
}

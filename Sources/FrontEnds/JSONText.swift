import UntrustedText

/// A JSON value written as `tictactoe list --json` prints it: compact, object keys sorted, "/" not escaped,
/// text other than ASCII written as UTF-8.
package enum JSONText: Equatable {
  case string(String)
  case number(Int)
  case bool(Bool)
  case array([JSONText])
  case object([String: JSONText])

  package var text: String {
    switch self {
    case .string(let value): return Self.quoted(value)
    case .number(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
    case .object(let members):
      let pairs = members.keys.sorted().map { key in Self.quoted(key) + ":" + (members[key]?.text ?? "null") }
      return "{" + pairs.joined(separator: ",") + "}"
    }
  }

  /// `value` as a JSON string: quotes, backslashes, control, bidirectional and invisible characters escaped.
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      default:
        // Controls (C0, DEL, C1) and the bidirectional and invisible characters the terminal sanitiser
        // escapes stay escaped here too, so the JSON is safe to print as it is.
        if VisibleText.isUnsafe(scalar) {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}

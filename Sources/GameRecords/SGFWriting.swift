import GameCore

/// The private properties this program adds to SGF, for what FF[4] has no property for (docs/RECORDS.md).
public enum RecordProperty {
  /// k, the length of a winning line.
  public static let k = "TTK"
  /// How the game ended: `line`, `full`, `resign`, `claim` or `left`.
  public static let end = "TTE"
  /// The computer's level, on the side it played.
  public static let blackLevel = "TTLB"
  public static let whiteLevel = "TTLW"
  /// The players' public keys (base64 DER SubjectPublicKeyInfo).
  public static let blackKey = "TTPB"
  public static let whiteKey = "TTPW"
  /// The players' signatures over the record's signed bytes (base64).
  public static let blackSignature = "TTSB"
  public static let whiteSignature = "TTSW"
}

extension GameRecord {
  /// The record as one SGF game tree, ending in a newline. Parsing it gives this record back.
  public var sgf: String {
    var root = "(;FF[4]GM[4]CA[UTF-8]AP[tictactoe]"
    root += rules.rows == rules.columns ? "SZ[\(rules.columns)]" : "SZ[\(rules.columns):\(rules.rows)]"
    root += "PB[\(SGFText.escaped(black.name))]PW[\(SGFText.escaped(white.name))]"
    if !date.isEmpty { root += "DT[\(SGFText.escaped(date))]" }
    root += "RE[\(result.sgfValue)]\(RecordProperty.k)[\(rules.k)]"
    if let end = result.endToken { root += "\(RecordProperty.end)[\(end)]" }
    let optional: [(String, String?)] = [
      (RecordProperty.blackLevel, black.level), (RecordProperty.whiteLevel, white.level),
      (RecordProperty.blackKey, black.publicKey), (RecordProperty.whiteKey, white.publicKey),
      (RecordProperty.blackSignature, black.signature), (RecordProperty.whiteSignature, white.signature),
    ]
    for case (let identifier, let value?) in optional { root += "\(identifier)[\(SGFText.escaped(value))]" }
    var lines = [root]
    var line = ""
    for (number, move) in moves.enumerated() {
      line += ";\(number.isMultiple(of: 2) ? "B" : "W")[\(SGFPoint.text(move))]"
      if number % 10 == 9 {
        lines.append(line)
        line = ""
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n") + ")\n"
  }
}

extension RecordResult {
  /// RE's value: `B+` (a line), `B+R`, `B+T`, `B+F`, `W+…`, `0` for a draw, `?` when unknown.
  var sgfValue: String {
    switch self {
    case .won(let mark, let reason): return (mark == .x ? "B+" : "W+") + reason.sgfSuffix
    case .drawn: return "0"
    case .unknown: return "?"
    }
  }

  /// TTE's value.
  var endToken: String? {
    switch self {
    case .won(_, let reason): return reason.rawValue
    case .drawn: return "full"
    case .unknown: return nil
    }
  }
}

/// SGF's text values: `\` and `]` are escaped with a backslash, and nothing else changes.
public enum SGFText {
  public static func escaped(_ text: String) -> String {
    // Scalars, not characters: "]" followed by a combining mark is one Character but still ends a value.
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\\" || scalar == "]" { out.append("\\") }
      out.append(scalar)
    }
    return String(out)
  }
}

/// SGF's point coordinates: two letters, the column then the row, `a` for the first, from the top left.
public enum SGFPoint {
  static let letters = Array("abcdefghijklmnopqrstuvwxyz")

  public static func text(_ position: Position) -> String {
    "\(letters[position.column])\(letters[position.row])"
  }

  /// The position two lower-case letters name, or nil for anything else (a pass, upper-case letters, junk).
  public static func position(_ text: String) -> Position? {
    let characters = Array(text)
    guard characters.count == 2, let column = letters.firstIndex(of: characters[0]),
      let row = letters.firstIndex(of: characters[1])
    else { return nil }
    return Position(row: row, column: column)
  }
}

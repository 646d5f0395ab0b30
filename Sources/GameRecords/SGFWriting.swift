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
  /// The version of the signed bytes the signatures are over (absent: 1).
  public static let signedVersion = "TTSV"
  /// In each move node of a timed game: the time the move was charged, in seconds (its time left is BL or WL).
  public static let charge = "TTQ"
  /// The flag claim that ended the game and its answer: the claimant (`B` or `W`), the time the mover had on
  /// the claimant's clock, the time the claimant saw pass, and the mover's own thinking time, in seconds.
  public static let flag = "TTF"
  /// The opening, when it was not the ordinary one: `swap2` and its choices (`RecordOpening`).
  public static let opening = "TTO"
}

extension GameRecord {
  /// The record as one SGF game tree, ending in a newline. Parsing it gives this record back.
  public var sgf: String {
    // Built as bytes, with room for the keys and signatures at once (a practice bot writes thousands a second).
    var out = RecordBytes(capacity: 1536 + 24 * moves.count)
    out.add("(;FF[4]GM[4]CA[UTF-8]AP[tictactoe]SZ[")
    out.add(rules.columns)
    if rules.rows != rules.columns {
      out.add(":")
      out.add(rules.rows)
    }
    out.add("]")
    property("PB", black.name, escaped: true, to: &out)
    property("PW", white.name, escaped: true, to: &out)
    if !date.isEmpty { property("DT", date, escaped: true, to: &out) }
    property("RE", result.sgfValue, to: &out)
    out.add(RecordProperty.k)
    out.add("[")
    out.add(rules.k)
    out.add("]")
    if rules.variant != .freestyle { property("RU", SGFRule.text(rules.variant), to: &out) }
    if let end = result.endToken { property(RecordProperty.end, end, to: &out) }
    if let opening { property(RecordProperty.opening, opening.sgfValue, to: &out) }
    if let (tm, ot) = SGFTimeControl.properties(timeControl) {
      property("TM", tm, to: &out)
      property("OT", ot, to: &out)
    }
    if let flag { property(RecordProperty.flag, flag.sgfValue, to: &out) }
    if signedVersion != 1 { property(RecordProperty.signedVersion, String(signedVersion), to: &out) }
    let optional: [(String, String?)] = [
      (RecordProperty.blackLevel, black.level), (RecordProperty.whiteLevel, white.level),
      (RecordProperty.blackKey, black.publicKey), (RecordProperty.whiteKey, white.publicKey),
      (RecordProperty.blackSignature, black.signature), (RecordProperty.whiteSignature, white.signature),
    ]
    for case (let identifier, let value?) in optional { property(identifier, value, escaped: true, to: &out) }
    // Ten moves to a line, five when each carries its times.
    let perLine = times.isEmpty ? 10 : 5
    for (number, move) in moves.enumerated() {
      if number % perLine == 0 { out.add("\n") }
      let color: StaticString = number.isMultiple(of: 2) ? "B" : "W"
      out.add(";")
      out.add(color)
      out.add("[")
      out.addPoint(move)
      out.add("]")
      if number < times.count {
        let time = times[number]
        out.add(color)
        property("L", SGFSeconds.text(time.left), to: &out)
        property(RecordProperty.charge, SGFSeconds.text(time.charged), to: &out)
      }
    }
    out.add(")\n")
    return out.string
  }

  /// `IDENTIFIER[value]`, the value escaped as SGF text when it may hold `\` or `]`.
  private func property(_ identifier: String, _ value: String, escaped: Bool = false, to out: inout RecordBytes) {
    out.add(identifier)
    out.add("[")
    if escaped { out.addEscaped(value) } else { out.add(value) }
    out.add("]")
  }
}

extension RecordResult {
  /// RE's value: `B+` (a line), `B+R`, `B+T`, `B+F`, `W+…`, `0` for a draw, `Void` for an abort, `?` when
  /// disputed or unknown.
  var sgfValue: String {
    switch self {
    case .won(let mark, let reason): return (mark == .x ? "B+" : "W+") + reason.sgfSuffix
    case .drawn: return "0"
    case .void: return "Void"
    case .disputed, .unknown: return "?"
    }
  }

  /// RE's value as records before version 2 of the signed bytes wrote it: an abandonment claimed after the
  /// grace period was `B+T`. Version 1 of the signed bytes signs this, so older records still verify.
  var version1Value: String {
    if case .won(let mark, .claim) = self { return mark == .x ? "B+T" : "W+T" }
    return sgfValue
  }

  /// TTE's value.
  var endToken: String? {
    switch self {
    case .won(_, let reason): return reason.rawValue
    case .drawn(let reason): return reason.rawValue
    case .void: return "aborted"
    case .disputed: return "disputed"
    case .unknown: return nil
    }
  }
}

/// SGF's text values: `\` and `]` are escaped with a backslash, and nothing else changes.
public enum SGFText {
  /// The escaping the records' SGF is written with (`RecordBytes.addEscaped`), for a value on its own.
  public static func escaped(_ text: String) -> String {
    var out = RecordBytes(capacity: text.utf8.count + 8)
    out.addEscaped(text)
    return out.string
  }
}

/// SGF's point coordinates: two letters, the column then the row, `a` for the first, from the top left.
public enum SGFPoint {
  static let letters = Array("abcdefghijklmnopqrstuvwxyz")
  /// The letters as UTF-8 bytes, for records built as bytes (`RecordBytes.addPoint`).
  static let letterBytes = Array("abcdefghijklmnopqrstuvwxyz".utf8)

  /// The position two lower-case letters name, or nil for anything else (a pass, upper-case letters, junk).
  public static func position(_ text: String) -> Position? {
    let characters = Array(text)
    guard characters.count == 2, let column = letters.firstIndex(of: characters[0]),
      let row = letters.firstIndex(of: characters[1])
    else { return nil }
    return Position(row: row, column: column)
  }
}

extension FlagClaim {
  /// TTF's value: `W 10 11.2 10.5`.
  var sgfValue: String {
    [claimant == .x ? "B" : "W", SGFSeconds.text(timeLeft), SGFSeconds.text(observed), SGFSeconds.text(thinking)]
      .joined(separator: " ")
  }

  /// Reads TTF's value.
  init?(sgf text: String) {
    let words = text.trimmed.split(separator: " ").map(String.init)
    guard words.count == 4, words[0] == "B" || words[0] == "W", let timeLeft = SGFSeconds.milliseconds(words[1]),
      let observed = SGFSeconds.milliseconds(words[2]), let thinking = SGFSeconds.milliseconds(words[3])
    else { return nil }
    self.init(claimant: words[0] == "B" ? .x : .o, timeLeft: timeLeft, observed: observed, thinking: thinking)
  }
}

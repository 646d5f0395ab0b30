import GameCore
import Testing

@testable import GameRecords

/// The SGF text and the signed bytes are built as bytes (`RecordBytes`) for speed. Here each is checked against
/// the plain way of writing it, strings interpolated and lines joined, over records that vary every part: board
/// shapes and variants, names with `]`, `\`, accents, CJK and combining marks, keys, levels and signatures or
/// none, every result, timed games with flag claims, openings, both versions of the signed bytes.
@Suite struct RecordBytesTests {
  /// The plain way of writing a record's SGF (what `sgf` wrote before it was built as bytes).
  static func plainSGF(_ record: GameRecord) -> String {
    let escape = { (text: String) -> String in
      var out = String.UnicodeScalarView()
      for scalar in text.unicodeScalars {
        if scalar == "\\" || scalar == "]" { out.append("\\") }
        out.append(scalar)
      }
      return String(out)
    }
    let rules = record.rules
    var root = "(;FF[4]GM[4]CA[UTF-8]AP[tictactoe]"
    root += rules.rows == rules.columns ? "SZ[\(rules.columns)]" : "SZ[\(rules.columns):\(rules.rows)]"
    root += "PB[\(escape(record.black.name))]PW[\(escape(record.white.name))]"
    if !record.date.isEmpty { root += "DT[\(escape(record.date))]" }
    root += "RE[\(record.result.sgfValue)]TTK[\(rules.k)]"
    if rules.variant != .freestyle { root += "RU[\(SGFRule.text(rules.variant))]" }
    if let end = record.result.endToken { root += "TTE[\(end)]" }
    if let opening = record.opening { root += "TTO[\(opening.sgfValue)]" }
    if let (tm, ot) = SGFTimeControl.properties(record.timeControl) { root += "TM[\(tm)]OT[\(ot)]" }
    if let flag = record.flag { root += "TTF[\(flag.sgfValue)]" }
    if record.signedVersion != 1 { root += "TTSV[\(record.signedVersion)]" }
    let optional: [(String, String?)] = [
      ("TTLB", record.black.level), ("TTLW", record.white.level), ("TTPB", record.black.publicKey),
      ("TTPW", record.white.publicKey), ("TTSB", record.black.signature), ("TTSW", record.white.signature),
    ]
    for case (let identifier, let value?) in optional { root += "\(identifier)[\(escape(value))]" }
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var line = ""
    let perLine = record.times.isEmpty ? 10 : 5
    for (number, move) in record.moves.enumerated() {
      let color = number.isMultiple(of: 2) ? "B" : "W"
      line += ";\(color)[\(letters[move.column])\(letters[move.row])]"
      if number < record.times.count {
        let time = record.times[number]
        line += "\(color)L[\(SGFSeconds.text(time.left))]TTQ[\(SGFSeconds.text(time.charged))]"
      }
      if number % perLine == perLine - 1 {
        root += "\n" + line
        line = ""
      }
    }
    if !line.isEmpty { root += "\n" + line }
    return root + ")\n"
  }

  /// The plain way of writing the signed bytes: docs/RECORDS.md's lines, joined.
  static func plainSignedBytes(_ record: GameRecord) -> [UInt8] {
    let rules = record.rules
    var rulesLine = "rules \(rules.rows) \(rules.columns) \(rules.k)"
    if rules.variant != .freestyle { rulesLine += " \(rules.variant.name)" }
    if let opening = record.opening { rulesLine += " opening \(opening.sgfValue)" }
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let moves = (["moves"] + record.moves.map { "\(letters[$0.column])\(letters[$0.row])" }).joined(separator: " ")
    var lines: [String]
    if record.signedVersion == 1 {
      lines = [
        "tictactoe game record signature v1", rulesLine, "black \(record.black.publicKey ?? "")",
        "white \(record.white.publicKey ?? "")", "date \(record.date)", moves,
        "result \(record.result.version1Value)",
      ]
    } else {
      let clock: String
      switch record.timeControl {
      case .none: clock = "none"
      case .fischer(let base, let increment): clock = "fischer \(base) \(increment)"
      case .perMove(let time): clock = "move \(time)"
      }
      let times = (["times"] + record.times.map { "\($0.charged)/\($0.left)" }).joined(separator: " ")
      let flag = record.flag.map { " \($0.claimant == .x ? "B" : "W") \($0.timeLeft) \($0.observed) \($0.thinking)" }
      lines = [
        "tictactoe game record signature v2", rulesLine, "clock \(clock)", "black \(record.black.publicKey ?? "")",
        "white \(record.white.publicKey ?? "")", "date \(record.date)", moves, times,
        "result \(record.result.sgfValue)", "end \(record.result.endToken ?? "")", "flag\(flag ?? "")",
      ]
    }
    return Array(lines.map { $0 + "\n" }.joined().utf8)
  }

  /// Records that vary every part, from a fixed seed.
  static func records() throws -> [GameRecord] {
    var generator = SplitMix(seed: 20_261_205)
    func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
    let names = [
      "alice", "bob]", "c\\d", "]]\\\\", "Zoë", "日本語の名前", "e\u{301}]\u{301}", "", " spaced name ", "a;b(c)",
    ]
    let keys: [String?] = [nil, "QUxJQ0U=", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+/k=", "", "a]b\\c"]
    let results: [RecordResult] =
      [.void, .disputed, .unknown] + DrawReason.allCases.map { .drawn($0) }
      + [Mark.x, .o].flatMap { mark in EndReason.allCases.map { .won(mark, $0) } }
    let boards: [Rules] = [
      .standard, try Rules(rows: 3, columns: 5, k: 3), try Rules(rows: 7, columns: 4, k: 4),
      try Rules(size: 15, k: 5), try Rules(size: 15, k: 5, variant: .renju),
      try Rules(size: 15, k: 5, variant: .exactFive), try Rules(rows: 6, columns: 12, k: 5),
    ]
    let controls: [TimeControl] = [.none, .fischer(base: 300_000, increment: 3_000), .perMove(20_500)]
    var records: [GameRecord] = []
    for index in 0..<300 {
      let rules = boards[index % boards.count]
      let count = below(min(rules.rows * rules.columns, 40) + 1)
      let moves = (0..<count).map { _ in
        Position(row: below(rules.rows), column: below(rules.columns))
      }
      let pick = { (options: [String?]) in options[below(options.count)] }
      var record = GameRecord(
        rules: rules,
        black: .init(
          name: names[below(names.count)], level: pick([nil, "perfect", "engine", "x]y\\"]), publicKey: pick(keys),
          signature: pick([nil, "MEUCIQ]x\\y=="])),
        white: .init(
          name: names[below(names.count)], level: pick([nil, "easy"]), publicKey: pick(keys),
          signature: pick([nil, "MEYCIQD+/="])),
        date: pick(["2026-12-05", "", "2026-1]2-0\\5"]) ?? "", result: results[below(results.count)],
        moves: moves)
      record.signedVersion = 1 + below(3)
      record.timeControl = controls[below(controls.count)]
      if record.timeControl.isTimed && below(3) > 0 {
        // As many times as moves, fewer, or more (a record from elsewhere need not match).
        let count = [moves.count, below(moves.count + 1), moves.count + 1 + below(3)][below(3)]
        record.times = (0..<count).map { _ in MoveTime(charged: below(90_000), left: below(600_000) - 1_000) }
      }
      if below(4) == 0 {
        record.flag = FlagClaim(
          claimant: below(2) == 0 ? .x : .o, timeLeft: below(10_000),
          observed: below(1_000_000_000), thinking: -below(50))
      }
      if rules.k == 5 && rules.variant == .freestyle && below(3) == 0 {
        record.opening = .swap2(RecordOpening.swap2Sequences[below(RecordOpening.swap2Sequences.count)])
      }
      records.append(record)
    }
    return records
  }

  @Test func theSGFIsWhatThePlainWayWrites() throws {
    for record in try Self.records() {
      // Bytes, not strings: two strings with the same characters in other forms (é, e + ◌́) are equal.
      #expect(Array(record.sgf.utf8) == Array(Self.plainSGF(record).utf8), "\(record.sgf)")
    }
  }

  @Test func theSignedBytesAreWhatThePlainWayWrites() throws {
    for record in try Self.records() {
      let bytes = record.signedBytes
      #expect(bytes == Self.plainSignedBytes(record), "\(String(decoding: bytes, as: UTF8.self))")
    }
  }

  @Test func theRecordsCoverWhatTheWriterMustKeepApart() throws {
    let records = try Self.records()
    #expect(records.contains { $0.black.name.contains("]") && $0.sgf.contains("\\]") })
    #expect(records.contains { $0.rules.rows != $0.rules.columns })
    #expect(records.contains { !$0.times.isEmpty && $0.times.contains { $0.left < 0 } })
    #expect(records.contains { $0.flag != nil && $0.signedVersion == 2 })
    #expect(records.contains { $0.opening != nil })
    #expect(records.contains { $0.moves.count > 10 && $0.times.isEmpty })
    #expect(records.contains { $0.date.isEmpty })
    #expect(Set(records.map(\.signedVersion)) == [1, 2, 3])
    #expect(records.contains { !$0.times.isEmpty && $0.times.count < $0.moves.count })
    #expect(records.contains { $0.times.count > $0.moves.count })
    #expect(records.contains { $0.black.level?.contains("]") == true || $0.white.publicKey?.contains("]") == true })
    #expect(records.contains { $0.moves.count == 10 && $0.times.isEmpty })
    #expect(records.contains { $0.moves.count == 10 && !$0.times.isEmpty })
  }

  @Test(arguments: [0, 7, 9, 10, 99, 100, 12_345, -1, -10, -987_654, Int.max, Int.min])
  func numbersAreWrittenAsStringWritesThem(number: Int) {
    var out = RecordBytes(capacity: 0)
    out.add(number)
    #expect(out.string == String(number))
  }
}

import Foundation
import TestSupport
import Testing

/// The signatures of a network game's record, checked the way anyone could: the signed bytes rebuilt from the
/// SGF text by this file's own code, written from docs/RECORDS.md (it does not use GameRecords), and each
/// signature checked with `openssl dgst -sha256 -verify`. Then `tictactoe verify` on the same files.
@Suite(.serialized) struct SignedRecordTests {
  /// A whole game between alice (host) and bob on loopback; returns the host's record once both signed it.
  static func signedRecord() throws -> String {
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"))
    Player.playOut(host, joiner)
    let deadline = Date().addingTimeInterval(20)
    var text = ""
    while Date() < deadline {
      text = (try? RecordsEndToEndTests.records(alice).first?.text) ?? ""
      if text.contains("TTSB[") && text.contains("TTSW[") { break }
      usleep(20_000)
    }
    host.send("quit")
    _ = host.exitStatus()
    _ = joiner.exitStatus()
    // Each side's record signed by both replaced the one it first wrote: one game, one file.
    #expect((try? RecordsEndToEndTests.records(alice).count) == 1, "alice's records")
    #expect((try? RecordsEndToEndTests.records(bob).count) == 1, "bob's records")
    let bobs = (try? RecordsEndToEndTests.records(bob).first?.text) ?? ""
    #expect(bobs.contains("TTSB[") && bobs.contains("TTSW["), "bob's record carries both signatures")
    return text
  }

  /// The value of a root property (no escapes occur in the properties read here).
  static func property(_ name: String, _ text: String) -> String? {
    guard let start = text.firstRange(of: name + "[") else { return nil }
    let rest = text[start.upperBound...]
    return rest.firstIndex(of: "]").map { String(rest[..<$0]) }
  }

  /// The signed bytes, from docs/RECORDS.md: the context line, `rules ROWS COLUMNS K`, `black KEY`, `white KEY`,
  /// `date DAY`, `moves` and the points, `result RE`, each line ending in a newline.
  static func signedBytes(_ text: String) throws -> String {
    let size = try #require(property("SZ", text))
    let parts = size.split(separator: ":").map(String.init)
    let (columns, rows) = (parts[0], parts.count == 2 ? parts[1] : parts[0])
    var points: [String] = []
    var rest = Substring(text)
    while let move = rest.firstMatch(of: /;[BW]\[([a-z]{2})\]/) {
      points.append(String(move.1))
      rest = rest[move.range.upperBound...]
    }
    let rules = "rules \(rows) \(columns) \(try #require(property("TTK", text)))"
    let (black, white) = (
      "black \(try #require(property("TTPB", text)))", "white \(try #require(property("TTPW", text)))"
    )
    let (date, moves) = ("date \(try #require(property("DT", text)))", (["moves"] + points).joined(separator: " "))
    let result = "result \(try #require(property("RE", text)))"
    guard property("TTSV", text) == "2" else {
      return ["tictactoe game record signature v1", rules, black, white, date, moves, result].map { $0 + "\n" }.joined()
    }
    let lines = [
      "tictactoe game record signature v2", rules, try clockLine(text), black, white, date, moves,
      (["times"] + times(text)).joined(separator: " "), result, "end \(property("TTE", text) ?? "")",
      (["flag"] + (property("TTF", text).map { flagWords($0) } ?? [])).joined(separator: " "),
    ]
    return lines.map { $0 + "\n" }.joined()
  }

  /// Seconds as SGF writes them (`8.75`) in milliseconds (`8750`), from the text.
  static func milliseconds(_ seconds: some StringProtocol) -> String {
    let parts = seconds.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    return String(Int(parts[0] + fraction.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? -1)
  }

  /// `clock none`, `clock fischer BASE INCREMENT` or `clock move TIME` from TM and OT (`OT[3 fischer]`,
  /// `TM[0]OT[20 simple]`).
  static func clockLine(_ text: String) throws -> String {
    guard let tm = property("TM", text) else { return "clock none" }
    let ot = try #require(property("OT", text)).split(separator: " ")
    return ot[1] == "simple"
      ? "clock move \(milliseconds(ot[0]))" : "clock fischer \(milliseconds(tm)) \(milliseconds(ot[0]))"
  }

  /// Each move's `CHARGE/LEFT` in milliseconds, from its BL or WL and its TTQ.
  static func times(_ text: String) -> [String] {
    text.matches(of: /;([BW])\[[a-z]{2}\][BW]L\[([0-9.]+)\]TTQ\[([0-9.]+)\]/).map {
      "\(milliseconds($0.3))/\(milliseconds($0.2))"
    }
  }

  /// TTF's words with its times in milliseconds.
  static func flagWords(_ value: String) -> [String] {
    let words = value.split(separator: " ")
    return [String(words[0])] + words.dropFirst().map { milliseconds($0) }
  }

  /// `openssl dgst -sha256 -verify` of `signature` (base64) over `bytes` with `key` (base64 DER): its output.
  static func openssl(bytes: String, key: String, signature: String) throws -> String {
    let folder = try TestDirectory.make("openssl-verify")
    try bytes.write(toFile: folder + "/signed.txt", atomically: true, encoding: .utf8)
    try #require(Data(base64Encoded: key)).write(to: URL(fileURLWithPath: folder + "/key.der"))
    try #require(Data(base64Encoded: signature)).write(to: URL(fileURLWithPath: folder + "/signature.der"))
    _ = try Tool.run(
      "openssl", ["pkey", "-pubin", "-inform", "DER", "-in", folder + "/key.der", "-out", folder + "/key.pem"])
    return try ChildProcess.run(
      "openssl",
      [
        "dgst", "-sha256", "-verify", folder + "/key.pem", "-signature", folder + "/signature.der",
        folder + "/signed.txt",
      ],
      errors: .withOutput
    ).output
  }

  @Test func bothSignaturesVerifyWithTheOpensslCommandLineAndATamperedRecordDoesNot() throws {
    let text = try Self.signedRecord()
    let bytes = try Self.signedBytes(text)
    // Both programs speak version 3: version 2 of the signed bytes, untimed.
    #expect(bytes.hasPrefix("tictactoe game record signature v2\nrules 3 3 3\nclock none\nblack "), "\(bytes)")
    for (key, signature) in [("TTPB", "TTSB"), ("TTPW", "TTSW")] {
      let output = try Self.openssl(
        bytes: bytes, key: try #require(Self.property(key, text)),
        signature: try #require(Self.property(signature, text)))
      #expect(output.contains("Verified OK"), "\(signature): \(output)")
      // One move changed: the same signature no longer verifies.
      let tampered = bytes.replacingOccurrences(of: "moves aa", with: "moves ab")
      #expect(tampered != bytes)
      let refused = try Self.openssl(
        bytes: tampered, key: try #require(Self.property(key, text)),
        signature: try #require(Self.property(signature, text)))
      #expect(refused.contains("Verification failure"), "\(signature): \(refused)")
    }
  }

  @Test func verifyChecksTheMovesAndBothSignaturesAndSaysWhatIsMissing() throws {
    let text = try Self.signedRecord()
    let home = try Binary.sandbox().environment
    let folder = try TestDirectory.make("verify")
    try text.write(toFile: folder + "/good.sgf", atomically: true, encoding: .utf8)
    let good = try Binary.run(["verify", folder + "/good.sgf"], environment: home)
    #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
    #expect(good.stdout.split(separator: "\n").filter { $0.hasSuffix(": signature good") }.count == 2, "\(good.stdout)")
    #expect(good.stdout.hasSuffix("verified\n"))
    // Without the white signature: said so, and not verified.
    let white = try #require(Self.property("TTSW", text))
    try text.replacingOccurrences(of: "TTSW[\(white)]", with: "").write(
      toFile: folder + "/unsigned.sgf", atomically: true, encoding: .utf8)
    let unsigned = try Binary.run(["verify", folder + "/unsigned.sgf"], environment: home)
    #expect(unsigned.status == 1)
    #expect(unsigned.stdout.contains("NOT SIGNED: this side never signed the record"), "\(unsigned.stdout)")
    // The date changed: both signatures are bad.
    let date = try #require(Self.property("DT", text))
    try text.replacingOccurrences(of: "DT[\(date)]", with: "DT[1999-01-01]").write(
      toFile: folder + "/changed.sgf", atomically: true, encoding: .utf8)
    let changed = try Binary.run(["verify", folder + "/changed.sgf"], environment: home)
    #expect(changed.status == 1)
    #expect(changed.stdout.components(separatedBy: "BAD SIGNATURE").count == 3, "\(changed.stdout)")
    // A result the moves do not give.
    let result = try #require(Self.property("RE", text))
    let other = result.hasPrefix("B") ? "W+" : "B+"
    try text.replacingOccurrences(of: "RE[\(result)]", with: "RE[\(other)]").replacingOccurrences(
      of: "TTE[line]", with: ""
    ).write(toFile: folder + "/wrong.sgf", atomically: true, encoding: .utf8)
    let wrong = try Binary.run(["verify", folder + "/wrong.sgf"], environment: home)
    #expect(wrong.status == 1 && wrong.stdout.hasPrefix("moves: WRONG: "), "\(wrong.stdout)\(wrong.stderr)")
  }

  /// Untimed, and under a clock (the bot's record and the joiner's hold the same times, or the bot's signature
  /// would not verify over the joiner's bytes).
  @Test(arguments: [[], ["--clock", "5+3"]])
  func aJoinersRecordOfAGameWithTheBotCarriesBothSignatures(clock: [String]) throws {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"] + clock,
      environment: botHome)
    defer {
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    let bob = try Binary.sandbox().environment
    let player = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    if !clock.isEmpty {
      #expect(player.waitFor("Play on these terms? [y/n]: "), "\(player.output)")
      player.send("y")
    }
    #expect(player.waitFor("game 1:"))
    let deadline = Date().addingTimeInterval(30)
    var (answered, next) = (0, 1)
    var text = ""
    while !(text.contains("TTSB[") && text.contains("TTSW[")) && Date() < deadline {
      if player.count("your move (") > answered {
        answered = player.count("your move (")
        player.send("\(next)")
        next = next % 9 + 1
      }
      text = (try? RecordsEndToEndTests.records(bob).first?.text) ?? ""
      usleep(10_000)
    }
    player.send("quit")
    _ = player.exitStatus()
    let folder = try TestDirectory.make("bot-record")
    try text.write(toFile: folder + "/game.sgf", atomically: true, encoding: .utf8)
    let verified = try Binary.run(["verify", folder + "/game.sgf"], environment: bob)
    #expect(verified.status == 0 && verified.stdout.hasSuffix("verified\n"), "\(verified.stdout)\(text)")
    #expect(text.contains("TTSV[2]"))
    if !clock.isEmpty {
      #expect(text.contains("TM[300]OT[3 fischer]") && text.contains("BL[300]TTQ[0]"), "\(text)")
      #expect(verified.stdout.contains("times: 5 min + 3 s a move, "), "\(verified.stdout)")
    }
  }
}

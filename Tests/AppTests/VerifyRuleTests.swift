import GameCore
import GameRecords
import Security
import Testing

@testable import App

/// `verify` on a record of a network game under a rule variant (protocol version 4): the rule is in the signed
/// bytes, so a record whose RU was changed no longer verifies, while a freestyle record signs what it always did.
@Suite struct VerifyRuleTests {
  static let renju = try! Rules(size: 15, k: 5, variant: .renju)

  /// A renju game alice (X) resigned after four moves, signed by both in `version` of the signed bytes.
  static func signed(_ rules: Rules = renju, version: Int = 2) throws -> GameRecord {
    let moves = [(7, 7), (7, 8), (6, 7), (8, 8)].map { Position(row: $0.0, column: $0.1) }
    var record = GameRecord(
      rules: rules, black: .init(name: "alice", publicKey: RecordExchangeTests.alice.publicKeyBase64),
      white: .init(name: "bob", publicKey: RecordExchangeTests.bob.publicKeyBase64), date: "2026-12-03",
      result: .won(.o, .resignation), moves: moves)
    record.signedVersion = version
    record.black.signature = RecordBase64.encode(try RecordExchangeTests.alice.sign(record.signedBytes))
    record.white.signature = RecordBase64.encode(try RecordExchangeTests.bob.sign(record.signedBytes))
    return record
  }

  @Test(arguments: [1, 2]) func theRuleIsSignedAndARenjuRecordVerifies(version: Int) throws {
    let record = try Self.signed(version: version)
    let bytes = String(decoding: record.signedBytes, as: UTF8.self)
    #expect(bytes.contains("\nrules 15 15 5 renju\n"))
    #expect(record.sgf.contains("RU[Renju]"))
    let verdict = VerifyCommand.verdict(try GameRecord.parse(record.sgf))
    #expect(verdict.ok, "\(verdict.lines)")
  }

  /// A freestyle record's bytes are those every earlier program signed: no word after k.
  @Test func aFreestyleRecordSignsWhatItAlwaysDid() throws {
    let bytes = String(decoding: try Self.signed(try Rules(size: 15, k: 5)).signedBytes, as: UTF8.self)
    #expect(bytes.contains("\nrules 15 15 5\n"))
  }

  @Test(arguments: ["RU[Standard]", "RU[Freestyle]", ""])
  func aRuleChangedInTheFileBreaksBothSignatures(replacement: String) throws {
    let text = try Self.signed().sgf
    let changed = text.replacingOccurrences(of: "RU[Renju]", with: replacement)
    #expect(changed != text)
    let verdict = VerifyCommand.verdict(try GameRecord.parse(changed))
    #expect(!verdict.ok)
    #expect(verdict.lines.filter { $0.contains("BAD SIGNATURE") }.count == 2, "\(replacement): \(verdict.lines)")
  }
}

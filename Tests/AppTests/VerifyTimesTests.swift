import GameCore
import GameRecords
import Security
import Testing

@testable import App

/// `verify` on a timed game's record: the times are signed (version 2 of the signed bytes), so a time changed in
/// the SGF breaks both signatures; times a game cannot have, or times under version 1's signatures, are wrong.
@Suite struct VerifyTimesTests {
  /// A 10-second game alice (X) lost on time to bob, signed by both.
  static func signed(_ change: (inout GameRecord) -> Void = { _ in }) throws -> GameRecord {
    var record = GameRecord(
      rules: .standard, black: .init(name: "alice", publicKey: RecordExchangeTests.alice.publicKeyBase64),
      white: .init(name: "bob", publicKey: RecordExchangeTests.bob.publicKeyBase64), date: "2026-12-02",
      result: .won(.o, .time), moves: [1, 2, 4, 5].map { Position(cellNumber: $0, rules: .standard)! })
    record.timeControl = .fischer(base: 10_000, increment: 0)
    record.times = [
      MoveTime(charged: 0, left: 10_000), MoveTime(charged: 0, left: 10_000), MoveTime(charged: 2_000, left: 8_000),
      MoveTime(charged: 1_000, left: 9_000),
    ]
    record.flag = FlagClaim(claimant: .o, timeLeft: 8_000, observed: 9_100, thinking: 8_050)
    record.signedVersion = 2
    change(&record)
    record.black.signature = RecordBase64.encode(try RecordExchangeTests.alice.sign(record.signedBytes))
    record.white.signature = RecordBase64.encode(try RecordExchangeTests.bob.sign(record.signedBytes))
    return record
  }

  @Test func aSignedTimedRecordVerifiesAndSaysItsTimes() throws {
    let verdict = VerifyCommand.verdict(try Self.signed())
    #expect(verdict.ok, "\(verdict.lines)")
    #expect(
      verdict.lines.contains(
        "times: 10 s a game, 4 moves with their time charged and left; O claimed the other side's time ran out "
          + "(8 s left, 9.1 s seen; the mover's own clock: 8.05 s), signed"), "\(verdict.lines)")
  }

  @Test(arguments: ["BL[8]", "TTQ[1]", "TM[10]", "TTF[W 8 9.1 8.05]"])
  func aTimeChangedInTheFileBreaksBothSignatures(property: String) throws {
    let text = try Self.signed().sgf
    let changed = text.replacingOccurrences(
      of: property, with: property.replacingOccurrences(of: "8", with: "7").replacingOccurrences(of: "1", with: "2"))
    #expect(changed != text)
    let verdict = VerifyCommand.verdict(try GameRecord.parse(changed))
    #expect(!verdict.ok)
    #expect(verdict.lines.filter { $0.contains("BAD SIGNATURE") }.count == 2, "\(property): \(verdict.lines)")
  }

  @Test func timesAGameCannotHaveOrThatVersionOneDoesNotSignAreWrong() throws {
    let free = try Self.signed { $0.times[0].charged = 500 }
    #expect(
      VerifyCommand.verdict(free).lines.contains("times: WRONG: move 1 is charged, but each side's first move is free"))
    #expect(!VerifyCommand.verdict(free).ok)
    let unsigned = try Self.signed { $0.signedVersion = 1 }
    let verdict = VerifyCommand.verdict(unsigned)
    #expect(!verdict.ok)
    #expect(
      verdict.lines.contains("times: WRONG: the record carries times, but its signatures (version 1) do not cover them")
    )
    #expect(verdict.lines.filter { $0.hasSuffix("signature good") }.count == 2)
  }
}

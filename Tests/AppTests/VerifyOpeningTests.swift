import GameCore
import GameRecords
import Security
import Session
import SessionTestSupport
import Testing

@testable import App
@testable import MatchCoordination

/// `verify` on a record of a network game that opened with Swap2 (protocol version 4): the opening's choices
/// (TTO) are in the signed bytes, so a record whose opening was changed no longer verifies, while a record without
/// an opening signs what it always did.
@Suite struct VerifyOpeningTests {
  static let rules = try! Rules(size: 15, k: 5)

  /// Three stones, two more after `place-two`, white chosen by alice (the first player, who then plays O), one
  /// move each and bob (X) resigns; signed by both.
  static func signed() throws -> GameRecord {
    let stones = [(7, 7), (7, 8), (8, 8), (6, 6), (9, 9), (0, 0), (14, 14)]
    var record = GameRecord(
      rules: rules, black: .init(name: "bob", publicKey: RecordExchangeTests.bob.publicKeyBase64),
      white: .init(name: "alice", publicKey: RecordExchangeTests.alice.publicKeyBase64), date: "2026-12-03",
      result: .won(.o, .resignation), moves: stones.map { Position(row: $0.0, column: $0.1) })
    record.opening = .swap2([.placeTwo, .white])
    record.signedVersion = 2
    record.black.signature = RecordBase64.encode(try RecordExchangeTests.bob.sign(record.signedBytes))
    record.white.signature = RecordBase64.encode(try RecordExchangeTests.alice.sign(record.signedBytes))
    return record
  }

  @Test func theOpeningIsSignedAndTheRecordVerifies() throws {
    let record = try Self.signed()
    let bytes = String(decoding: record.signedBytes, as: UTF8.self)
    #expect(bytes.contains("\nrules 15 15 5 opening swap2 place-two white\n"))
    #expect(record.sgf.contains("TTO[swap2 place-two white]"))
    let verdict = VerifyCommand.verdict(try GameRecord.parse(record.sgf))
    #expect(verdict.ok, "\(verdict.lines)")
  }

  @Test func aRecordWithoutAnOpeningSignsWhatItAlwaysDid() throws {
    var record = try Self.signed()
    record.opening = nil
    #expect(String(decoding: record.signedBytes, as: UTF8.self).contains("\nrules 15 15 5\n"))
  }

  /// Another choice sequence that fits the same stones, or none at all: both signatures fail.
  @Test(arguments: ["TTO[swap2 place-two black]", ""])
  func anOpeningChangedInTheFileBreaksBothSignatures(replacement: String) throws {
    let text = try Self.signed().sgf
    let changed = text.replacingOccurrences(of: "TTO[swap2 place-two white]", with: replacement)
    #expect(changed != text)
    let verdict = VerifyCommand.verdict(try GameRecord.parse(changed))
    #expect(!verdict.ok)
    #expect(verdict.lines.filter { $0.contains("BAD SIGNATURE") }.count == 2, "\(replacement): \(verdict.lines)")
  }

  /// Both sides of a network game that opened with Swap2 record its choices, and the players by the colours the
  /// opening gave them (the host, first player, took O after the joiner placed two more).
  @Test func bothSidesRecordTheOpeningOfANetworkGame() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.rules, opening: .swap2)
    pair.startMatch()
    for cell in [(7, 7), (7, 8), (8, 8)] { try pair.hostPlays(Position(row: cell.0, column: cell.1)) }
    pair.settle()
    pair.deliver(fromJoiner: try pair.joiner.choose(.placeTwo, now: 0))
    for cell in [(6, 6), (9, 9)] { try pair.joinerPlays(Position(row: cell.0, column: cell.1)) }
    pair.settle()
    pair.deliver(fromHost: try pair.host.choose(.white, now: 0))
    pair.deliver(fromJoiner: try pair.joiner.resign(now: 0))
    let ended = SessionOutput.gameEnded(.resigned(loser: .x))
    let host = try #require(
      RecordOfGame.network(after: ended, session: pair.host, myKey: "KEYA", peerKey: "KEYB", date: "2026-12-03"))
    let joiner = try #require(
      RecordOfGame.network(after: ended, session: pair.joiner, myKey: "KEYB", peerKey: "KEYA", date: "2026-12-03"))
    #expect(host.opening == .swap2([.placeTwo, .white]) && joiner.opening == host.opening)
    #expect(host.white.name == "Alice" && host.black.name == "Bob" && host.signedBytes == joiner.signedBytes)
    #expect(try GameRecord.parse(host.sgf).opening == host.opening)
  }
}

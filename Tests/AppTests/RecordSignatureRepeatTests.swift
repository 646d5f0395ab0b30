import GameCore
import GameRecords
import Security
import Testing
import WireProtocol

@testable import App

/// Issue 25, item 7: a peer repeating record signatures used to cost a rewrite of the record (a rename and two
/// fsyncs) for each valid copy, and a status and log line for each bad one. Each game's signature is now taken
/// or refused once; the session closes a flood of them (PerGamePaceTests).
@Suite struct RecordSignatureRepeatTests {
  @Test func copiesOfAValidSignatureRewriteTheRecordOnce() throws {
    var host = RecordExchangeTests.exchange(RecordExchangeTests.alice, host: true)
    _ = host.ended(RecordExchangeTests.record(date: "2026-12-01"), game: 1, myMark: .x)
    let signature = try RecordExchangeTests.bob.sign(RecordExchangeTests.record(date: "2026-12-01").signedBytes)
    let steps = (0..<2000).map { _ in host.received(game: 1, date: "2026-12-01", signature: signature) }
    #expect(steps.compactMap(\.write).count == 1)
    #expect(steps.allSatisfy { $0.problem == nil && $0.send == nil })
  }

  @Test func badSignaturesAreReportedOnceAGame() throws {
    var host = RecordExchangeTests.exchange(RecordExchangeTests.alice, host: true)
    _ = host.ended(RecordExchangeTests.record(date: "2026-12-01"), game: 1, myMark: .x)
    let steps = (0..<5000).map { index in
      host.received(game: 1, date: "2026-12-01", signature: [UInt8(truncatingIfNeeded: index), 1, 2])
    }
    #expect(steps.compactMap(\.problem).count == 1)
    #expect(steps.allSatisfy { $0.write == nil && $0.send == nil })
    // A good one after the bad ones is still kept, once.
    let good = try RecordExchangeTests.bob.sign(RecordExchangeTests.record(date: "2026-12-01").signedBytes)
    #expect(host.received(game: 1, date: "2026-12-01", signature: good).write != nil)
    #expect(host.received(game: 1, date: "2026-12-01", signature: good).write == nil)
  }

  @Test func signaturesOfGamesWithNoRecordAreReportedOnceAMatch() {
    var host = RecordExchangeTests.exchange(RecordExchangeTests.alice, host: true)
    let problems = (1...300).compactMap { host.received(game: $0, date: "2026-12-01", signature: [1]).problem }
    #expect(problems == ["Your opponent signed game 1, which this side has no record of."])
  }
}

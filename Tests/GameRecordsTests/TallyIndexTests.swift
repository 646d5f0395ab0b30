import GameCore
import Testing

@testable import GameRecords

/// The tally index's lines: what they keep, and that a line that does not read is left out.
@Suite struct TallyIndexTests {
  static let stamp = TallyIndex.FileStamp(
    name: "2026-12-01T01-02-03-045Z-0000ab.sgf", size: 120, modified: 1_764_550_000_123_456_789)

  @Test func entriesRoundTripWithLevelsOfAnyText() {
    let entries: [TallyIndex.FileStamp: RecordSummary] = [
      Self.stamp: RecordSummary(
        blackKey: "MFkw+/=", whiteKey: nil, blackLevel: nil, whiteLevel: "a\tb\n%-é", result: .won(.o, .line)),
      TallyIndex.FileStamp(name: "2026-12-02T01-02-03-045Z-0000ac.sgf", size: 9, modified: 0): RecordSummary(
        blackKey: nil, whiteKey: nil, blackLevel: "", whiteLevel: nil, result: .drawn(.full)),
    ]
    let text = TallyIndex.render(entries)
    #expect(text.split(separator: "\n").count == 2)
    #expect(TallyIndex.parse(text) == entries)
  }

  @Test func theReasonIsNotKeptOnlyTheWinner() {
    let entries = [
      Self.stamp: RecordSummary(
        blackKey: "K", whiteKey: "L", blackLevel: nil, whiteLevel: nil, result: .won(.x, .resignation))
    ]
    #expect(TallyIndex.parse(TallyIndex.render(entries))[Self.stamp]?.result == .won(.x, .line))
  }

  @Test func linesThatDoNotReadAreLeftOutAndKeysThatCannotStandInAFieldAreNotIndexed() {
    let good = "\(Self.stamp.name)\t120\t1764550000123456789\tK\t-\t-\t-\tB\n"
    let text =
      good + "garbage\n" + "x\t1\t2\t-\t-\t-\t-\tZ\n" + "x\tnan\t2\t-\t-\t-\t-\tB\n" + "x\t1\t2\t-\t-\t%G1\t-\tB\n"
    #expect(TallyIndex.parse(text).count == 1)
    let tabbed = [
      Self.stamp: RecordSummary(
        blackKey: "a\tb", whiteKey: nil, blackLevel: nil, whiteLevel: nil, result: .drawn(.full))
    ]
    #expect(TallyIndex.render(tabbed).isEmpty)
  }
}

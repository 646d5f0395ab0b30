import Foundation
import Testing

@testable import GameRecords

/// Replays the `sgf-record` fuzzer's saved inputs (FuzzCorpus/; scripts/fuzz.sh adds every crash it finds): each
/// must come to its expected outcome (so many games, or the place and reason it is refused for), and every game
/// that parses must write SGF that parses to the same record (the target's invariant).
@Suite struct SGFFuzzRegressionTests {
  enum Outcome: Equatable {
    case games(Int)
    case refused(line: Int, column: Int, reason: String)
  }

  /// Each saved input's outcome; a new input fails its replay until it is triaged and listed here.
  static let expected: [String: Outcome] = [
    "deep-nesting": .refused(line: 1, column: 201, reason: "variations nested more than 100 deep"),
    // The replay, like the fuzz target, makes a String of the bytes: the invalid byte becomes U+FFFD.
    "invalid-utf8-name": .games(1),
    "three-in-a-row": .games(1),
    // Version 3's records: odd spacing and decimals in TM, OT, BL/WL, TTQ and TTF; an older abandonment (B+T with
    // TTE[claim]), a Void and a disputed game.
    "timed-game": .games(1),
    "version-three-ends": .games(3),
    "two-games-with-variations": .games(2),
    "unclosed-value": .refused(line: 1, column: 16, reason: "the value of PB is not closed: a ']' is missing"),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "FuzzCorpus")

  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  @Test func corpusIsThere() {
    #expect(Self.inputs.count >= Self.expected.count)
  }

  @Test(arguments: inputs)
  func replay(name: String) throws {
    let expected = try #require(Self.expected[name], "\(name) has no expected outcome: triage it and add it")
    let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
    do throws(SGFError) {
      let records = try GameRecord.parseCollection(String(decoding: bytes, as: UTF8.self))
      #expect(expected == .games(records.count))
      for record in records { #expect(try GameRecord.parse(record.sgf) == record) }
    } catch {
      let outcome = Outcome.refused(line: error.location.line, column: error.location.column, reason: error.reason)
      #expect(outcome == expected)
    }
  }
}

import GameCore
import Testing

@testable import GameRecords

/// A game's rule in its record: RU as the `renju` package (PyPI) writes it, read back by replay and verify.
@Suite struct RuleRecordTests {
  static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  static func record(_ variant: RuleVariant, moves: [Position]) throws -> GameRecord {
    GameRecord(
      rules: try Rules(size: 15, k: 5, variant: variant), black: .init(name: "a"), white: .init(name: "b"),
      date: "2026-12-03", result: .unknown, moves: moves)
  }

  @Test func aRuleOtherThanFreestyleIsWrittenAsRUAndReadBack() throws {
    for (variant, text) in [(RuleVariant.renju, "RU[Renju]"), (.exactFive, "RU[Standard]")] {
      let record = try Self.record(variant, moves: [Self.p(7, 7), Self.p(7, 8)])
      #expect(record.sgf.contains(text))
      #expect(try GameRecord.parse(record.sgf).rules.variant == variant)
      #expect(try GameRecord.parse(record.sgf) == record)
    }
    // Freestyle is what a record without RU means: none is written, as before.
    let free = try Self.record(.freestyle, moves: [Self.p(7, 7)])
    #expect(!free.sgf.contains("RU["))
    #expect(try GameRecord.parse(free.sgf).rules.variant == .freestyle)
  }

  @Test func ruIsReadInAnyCaseAndAnUnknownRuleIsRefused() throws {
    let base = "(;FF[4]GM[4]SZ[15]RE[?]RU[%@];B[hh])"
    for (value, variant) in [("renju", RuleVariant.renju), ("FREESTYLE", .freestyle), ("exact5", .exactFive)] {
      let text = base.replacingOccurrences(of: "%@", with: value)
      #expect(try GameRecord.parse(text).rules.variant == variant)
    }
    #expect(throws: SGFError.self) { try GameRecord.parse(base.replacingOccurrences(of: "%@", with: "caro")) }
    // A rule for five in a row on a game of three is no game.
    #expect(throws: SGFError.self) { try GameRecord.parse("(;FF[4]GM[4]SZ[3]TTK[3]RU[Renju];B[aa])") }
  }

  @Test func aRenjuRecordWithAForbiddenMoveIsRefused() throws {
    // Black's fifth stone at (7,7) would make two open threes.
    let moves = [Self.p(7, 5), Self.p(0, 0), Self.p(7, 6), Self.p(0, 2), Self.p(5, 7), Self.p(0, 4), Self.p(6, 7)]
    let legal = try Self.record(.renju, moves: moves + [Self.p(0, 6)])
    #expect(try GameRecord.parse(legal.sgf).moves.count == 8)
    let foul = try Self.record(.renju, moves: moves + [Self.p(0, 6), Self.p(7, 7)])
    #expect(throws: SGFError.self) { try GameRecord.parse(foul.sgf) }
    // The same moves are a fair freestyle game.
    let free = try Self.record(.freestyle, moves: foul.moves)
    #expect(try GameRecord.parse(free.sgf).moves.count == 9)
  }
}

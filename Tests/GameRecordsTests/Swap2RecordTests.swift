import Foundation
import GameCore
import Testing

@testable import GameRecords

/// A Swap2 game's record: TTO with the choices in order, the stones as ordinary alternating moves, read back and
/// replayed to the same opening; openings that do not fit their moves are refused with where.
@Suite struct Swap2RecordTests {
  static let rules = try! Rules(size: 15, k: 5)
  static func points(_ text: String) -> [Position] {
    text.split(separator: " ").map { SGFPoint.position(String($0))! }
  }

  /// The second player took black after three stones; white (the first player) then lost to a diagonal.
  static let swapped: GameRecord = {
    var record = GameRecord(
      rules: rules, black: .init(name: "Computer", level: "perfect"), white: .init(name: "alice"),
      date: "2026-12-03", result: .won(.x, .line), moves: points("hh ih ii aa jj ba kk ca gg"))
    record.opening = .swap2([.black])
    return record
  }()

  @Test func theChoicesAreWrittenInTTOAndReadBack() throws {
    let text = Self.swapped.sgf
    #expect(text.hasPrefix("(;FF[4]GM[4]CA[UTF-8]AP[tictactoe]SZ[15]PB[Computer]PW[alice]DT[2026-12-03]RE[B+]"))
    #expect(text.contains("TTK[5]TTE[line]TTO[swap2 black]TTLB[perfect]\n;B[hh];W[ih];B[ii];W[aa]"))
    #expect(try GameRecord.parse(text) == Self.swapped)
    let opening = try #require(try GameRecord.parse(text).opening).replay(rules: Self.rules, moves: Self.swapped.moves)
    // Black's stones are the second player's: the tentative player ended with white.
    #expect(opening.mark(of: .second) == .x && opening.game.outcome?.winner == .x)
  }

  @Test(arguments: [
    ([Swap2.Choice.white], "hh ih ii aa", Swap2.Player.second),
    ([.placeTwo, .black], "hh ih ii aa bb cc", .second),
    ([.placeTwo, .white], "hh ih ii aa bb cc", .first),
  ])
  func everySequenceRoundTrips(choices: [Swap2.Choice], moves: String, white: Swap2.Player) throws {
    var record = Self.swapped
    record.opening = .swap2(choices)
    record.moves = Self.points(moves)
    record.result = .unknown
    let back = try GameRecord.parse(record.sgf)
    #expect(back.opening == .swap2(choices))
    let opening = try RecordOpening.swap2(choices).replay(rules: Self.rules, moves: back.moves)
    #expect(opening.mark(of: white) == .o)
    #expect(RecordOpening(opening) == .swap2(choices))
  }

  @Test(arguments: [
    ("TTO[swap3]", "not an opening"), ("TTO[swap2]", "not an opening"), ("TTO[swap2 place-two]", "not an opening"),
    ("TTO[swap2 black white]", "not an opening"), ("TTO[swap2 place-two black]", "does not fit the moves"),
  ])
  func openingsThatDoNotFitAreRefused(property: String, words: String) throws {
    // Four moves: too few for a place-two opening (five stones before the choice).
    let text = Self.swapped.sgf.replacingOccurrences(of: "TTO[swap2 black]", with: property)
      .replacingOccurrences(of: ";B[jj];W[ba];B[kk];W[ca];B[gg]", with: "")
      .replacingOccurrences(of: "RE[B+]", with: "RE[?]").replacingOccurrences(of: "TTE[line]", with: "")
    #expect(throws: SGFError.self) { try GameRecord.parse(text) }
    do {
      _ = try GameRecord.parse(text)
    } catch {
      #expect(error.reason.contains(words), "\(error)")
    }
  }

  @Test func swap2OnASmallBoardIsRefused() throws {
    var record = Self.swapped
    record.rules = try Rules(size: 8, k: 5)
    record.moves = Self.points("dd ed ee aa")
    record.result = .unknown
    do {
      _ = try GameRecord.parse(record.sgf)
      Issue.record("a Swap2 record on 8×8 was read")
    } catch {
      #expect(error.reason.contains("at least 9×9"), "\(error)")
    }
  }
}

import Testing

@testable import GameCore

/// The variants' wins and renju's fouls on positions drawn by hand from the rules' definitions.
@Suite struct RuleVariantTests {
  /// A 15×15 board under `variant` with the rows given from the top (`x`, `o`, `.`; missing cells empty), and
  /// the cell marked `*` (left empty).
  static func board(_ variant: RuleVariant, _ rows: [String]) throws -> (Board, Position?) {
    var board = Board(rules: try Rules(size: 15, k: 5, variant: variant))
    var star: Position?
    for (row, text) in rows.enumerated() {
      for (column, character) in text.enumerated() {
        let position = Position(row: row, column: column)
        switch character {
        case "x": board.set(.x, at: position)
        case "o": board.set(.o, at: position)
        case "*": star = position
        default: break
        }
      }
    }
    return (board, star)
  }

  static func foul(_ rows: [String]) throws -> Foul? {
    let (board, star) = try board(.renju, rows)
    return Referee.foul(try #require(star), by: .x, on: board)
  }

  @Test func variantsOtherThanFreestyleNeedFiveInARow() throws {
    #expect(throws: RulesError.variantNeedsFive(.renju, k: 4)) { try Rules(size: 9, k: 4, variant: .renju) }
    #expect(throws: RulesError.variantNeedsFive(.exactFive, k: 3)) { try Rules(size: 9, k: 3, variant: .exactFive) }
    #expect(try Rules(size: 9, k: 4, variant: .freestyle).variant == .freestyle)
    #expect(try Rules(size: 15, k: 5, variant: .renju).description == "15×15, 5 in a row, renju")
    #expect(try Rules(size: 15, k: 5).description == "15×15, 5 in a row")
    #expect(RuleVariant(name: "exact5") == .exactFive)
    #expect(RuleVariant(name: "Renju") == nil)
  }

  @Test func anOverlineWinsOnlyWhereTheVariantSaysSo() throws {
    let six = ["", "", ".xxx.xx"]
    for (variant, mark, wins) in [
      (RuleVariant.freestyle, Mark.x, true), (.exactFive, .x, false), (.exactFive, .o, false), (.renju, .o, true),
    ] {
      let rows = six.map { $0.replacingOccurrences(of: "x", with: "\(mark)".lowercased()) }
      var (board, _) = try Self.board(variant, rows)
      board.set(mark, at: Position(row: 2, column: 4))
      #expect((board.winningLine(through: Position(row: 2, column: 4)) != nil) == wins, "\(variant) \(mark)")
    }
    // Exactly five wins in every variant, for both.
    var (board, _) = try Self.board(.exactFive, ["", "", "..xx.xx"])
    board.set(.x, at: Position(row: 2, column: 4))
    #expect(board.winningLine(through: Position(row: 2, column: 4))?.count == 5)
  }

  @Test func renjuForbidsXAnOverlineButNotO() throws {
    #expect(try Self.foul(["", "", ".xxx*xx"]) == .overline)
    let (board, star) = try Self.board(.renju, ["", "", ".ooo*oo"])
    #expect(Referee.foul(try #require(star), by: .o, on: board) == nil)
    let (exact, cell) = try Self.board(.exactFive, ["", "", ".xxx*xx"])
    #expect(Referee.foul(try #require(cell), by: .x, on: exact) == nil)
  }

  @Test func doubleFoursInTwoLinesAndInOne() throws {
    // Two fours crossing at the star.
    #expect(try Self.foul(["", "..x", "..x", "..x", "xx*.x", "", ""]) == .doubleFour)
    // x.xxx.x: two fours in one line.
    #expect(try Self.foul(["", "", "..x.x*x.x"]) == .doubleFour)
    // A straight four is one four: .xxxx. with nothing else is allowed.
    #expect(try Self.foul(["", "", "...xx*x..."]) == nil)
  }

  @Test func doubleThreeNeedsTwoRealThrees() throws {
    // Two open threes crossing at the star.
    #expect(try Self.foul(["", "", "...x", "...x", ".xx*..", "", ""]) == .doubleThree)
    // One of them blocked at one end (o) with no room: not a three, so no foul.
    #expect(try Self.foul(["", "", "...x", "...x", "oxx*.o", "", ""]) == nil)
    // x.xx*.: the straight four it could make would need the cell beside the lone x, where a five would
    // be six: that line is no three, so no foul.
    #expect(try Self.foul(["", "", "......x", "......x", "...x.xx*.", "", ""]) == nil)
  }

  @Test func aThreeWhoseFourPointIsForbiddenIsNoThree() throws {
    // The star makes a vertical three (column 5, rows 3-5) and .o.xx* across row 5. The row's only straight
    // four would be at column 6 (column 2 has o beside it), and there X would make six down column 6 (rows
    // 2-7): an overline, forbidden, so the row holds no three and the star is no double three.
    let rows = ["", "", "......x", ".....xx", ".....xx", ".o.xx*.", "......x", "......x"]
    #expect(try Self.foul(rows) == nil)
    // Without column 6's stones, its cell is a fair four point: a double three.
    #expect(try Self.foul(["", "", "", ".....x", ".....x", ".o.xx*.", "", ""]) == .doubleThree)
  }

  @Test func aFiveWinsWhateverElseTheMoveMakes() throws {
    // The star completes exactly five across and a four down: five wins, no foul.
    let rows = ["", "", "...x", "...x", "...x", "xxx*x", "", ""]
    #expect(try Self.foul(rows) == nil)
  }

  @Test func gameRefusesAForbiddenMoveWithItsReason() throws {
    // X's next move at (7,7) would make two open threes, across row 7 and down column 7.
    let p = { (r: Int, c: Int) in Position(row: r, column: c) }
    let rules = try Rules(size: 15, k: 5, variant: .renju)
    var game = try Game(rules: rules, moves: [p(7, 5), p(0, 0), p(7, 6), p(0, 2), p(5, 7), p(0, 4), p(6, 7), p(0, 6)])
    #expect(game.turn == .x)
    #expect(throws: MoveError.forbidden(p(7, 7), .doubleThree)) { try game.play(p(7, 7)) }
    #expect(!game.legalMoves.contains(p(7, 7)))
    #expect(game.legalMoves.count == rules.cellCount - 8 - 1)
    #expect(MoveError.forbidden(p(7, 7), .doubleThree).code == "move.forbidden")
    #expect(MoveError.forbidden(p(7, 7), .doubleThree).description.contains("two open threes"))
    // In freestyle the same move is fine.
    var free = try Game(rules: try rules.with(.freestyle), moves: Array(game.history))
    try free.play(p(7, 7))
    // O may play there under renju.
    try game.play(p(14, 14))
    try game.play(p(7, 7), by: .o)
  }
}

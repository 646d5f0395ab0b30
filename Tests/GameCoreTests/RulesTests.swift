import Testing

@testable import GameCore

@Suite struct RulesTests {
  @Test func standardIsThreeByThree() {
    #expect(Rules.standard.rows == 3 && Rules.standard.columns == 3 && Rules.standard.k == 3)
    #expect(Rules.standard.description == "3×3, 3 in a row")
  }

  @Test(arguments: [2, 16, 0, -1])
  func sidesOutsideThreeToFifteenAreRefused(side: Int) {
    #expect(throws: RulesError.sideOutOfRange(side)) { try Rules(size: side, k: 3) }
    #expect(throws: RulesError.sideOutOfRange(side)) { try Rules(rows: 3, columns: side, k: 3) }
  }

  @Test func kMustFitTheShorterSide() throws {
    #expect(throws: RulesError.kOutOfRange(5, maximum: 4)) { try Rules(rows: 4, columns: 9, k: 5) }
    #expect(throws: RulesError.kOutOfRange(2, maximum: 3)) { try Rules(size: 3, k: 2) }
    let rules = try Rules(rows: 4, columns: 9, k: 4)
    #expect(rules.cellCount == 36)
  }

  @Test func errorsReadLikeSentences() {
    #expect(RulesError.sideOutOfRange(16).description == "board side 16 is out of range: it must be from 3 to 15")
    #expect(
      RulesError.kOutOfRange(5, maximum: 4).description
        == "5 in a row is out of range: it must be from 3 to 4 on this board")
  }

  @Test func cellNumbersAreRowMajorFromOne() throws {
    let rules = try Rules(rows: 3, columns: 4, k: 3)
    #expect(Position(cellNumber: 1, rules: rules) == Position(row: 0, column: 0))
    #expect(Position(cellNumber: 4, rules: rules) == Position(row: 0, column: 3))
    #expect(Position(cellNumber: 5, rules: rules) == Position(row: 1, column: 0))
    #expect(Position(cellNumber: 12, rules: rules) == Position(row: 2, column: 3))
    #expect(Position(cellNumber: 0, rules: rules) == nil)
    #expect(Position(cellNumber: 13, rules: rules) == nil)
    for n in 1...12 { #expect(Position(cellNumber: n, rules: rules)?.cellNumber(in: rules) == n) }
  }
}

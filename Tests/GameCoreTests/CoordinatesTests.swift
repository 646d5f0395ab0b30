import Testing

@testable import GameCore

@Suite struct CoordinatesTests {
  let gomoku = Coordinates(try! Rules(size: 15, k: 5))
  let standard = Coordinates(Rules.standard)

  @Test func h8IsTheCentreOfFifteenByFifteen() {
    #expect(gomoku.name(of: Position(row: 7, column: 7)) == "h8")
    #expect(gomoku.position(named: "h8") == Position(row: 7, column: 7))
  }

  @Test func columnsRunFromTheLeftAndRowsFromTheBottom() {
    #expect(gomoku.name(of: Position(row: 14, column: 0)) == "a1")
    #expect(gomoku.name(of: Position(row: 0, column: 0)) == "a15")
    #expect(gomoku.name(of: Position(row: 14, column: 14)) == "o1")
    #expect(gomoku.name(of: Position(row: 0, column: 14)) == "o15")
    #expect(standard.name(of: Position(row: 0, column: 0)) == "a3")
    #expect(standard.name(of: Position(row: 2, column: 2)) == "c1")
    #expect(standard.name(of: Position(row: 1, column: 1)) == "b2")
    #expect(gomoku.columnName(8) == "i")
    #expect(gomoku.rowName(0) == "15")
    #expect(gomoku.range == "a1-o15")
    #expect(standard.range == "a1-c3")
  }

  @Test func aBoardTallerThanWideCountsItsOwnRows() throws {
    let tall = Coordinates(try Rules(rows: 5, columns: 3, k: 3))
    #expect(tall.name(of: Position(row: 0, column: 2)) == "c5")
    #expect(tall.name(of: Position(row: 4, column: 0)) == "a1")
    #expect(tall.position(named: "c5") == Position(row: 0, column: 2))
    #expect(tall.position(named: "d1") == nil)
    #expect(tall.range == "a1-c5")
  }

  @Test(arguments: [3, 4, 5, 7, 9, 10, 15])
  func everyCellsNameReadsBackAsThatCell(size: Int) throws {
    let coordinates = Coordinates(try Rules(size: size, k: 3))
    var names = Set<String>()
    for row in 0..<size {
      for column in 0..<size {
        let position = Position(row: row, column: column)
        let name = coordinates.name(of: position)
        names.insert(name)
        #expect(coordinates.position(named: name) == position)
        #expect(coordinates.parse(name) == .success(position))
        #expect(coordinates.parse(name.uppercased()) == .success(position))
        #expect(coordinates.parse("\(position.cellNumber(in: coordinates.rules))") == .success(position))
        #expect(coordinates.parse("\(row + 1),\(column + 1)") == .success(position))
      }
    }
    #expect(names.count == size * size)
  }

  @Test func theThreeFormsNameTheSameCellSideBySide() {
    // h8 on 15×15: column 8, row 8 from the bottom = row 8 from the top; cell (8-1)*15 + 8 = 113.
    let centre = Position(row: 7, column: 7)
    for text in ["h8", "H8", " h8 ", "113", "8,8", "8 8", " 8, 8 "] {
      #expect(gomoku.parse(text) == .success(centre), "\(text)")
    }
    // a15 is the top-left corner: cell 1, row 1 column 1.
    for text in ["a15", "1", "1,1"] { #expect(gomoku.parse(text) == .success(Position(row: 0, column: 0))) }
    // Row,col counts rows from the top, notation from the bottom: "3,1" and "a3" differ on 3×3.
    #expect(standard.parse("3,1") == .success(Position(row: 2, column: 0)))
    #expect(standard.parse("a3") == .success(Position(row: 0, column: 0)))
  }

  @Test func offTheBoardIsSaidSo() throws {
    let nine = Coordinates(try Rules(size: 9, k: 5))
    #expect(nine.parse("j5") == .failure(.offBoard("j5", nine.rules)))
    #expect(nine.parse("a10") == .failure(.offBoard("a10", nine.rules)))
    #expect(nine.parse("a0") == .failure(.offBoard("a0", nine.rules)))
    #expect(nine.parse("z1") == .failure(.offBoard("z1", nine.rules)))
    #expect(nine.parse("10,1") == .failure(.offBoard("10,1", nine.rules)))
    #expect(nine.parse("0,1") == .failure(.offBoard("0,1", nine.rules)))
    #expect(nine.parse("82") == .failure(.noSuchCell(82, cellCount: 81)))
    #expect(nine.parse("0") == .failure(.noSuchCell(0, cellCount: 81)))
    #expect(nine.position(named: "j5") == nil)
    #expect(
      MoveInputError.offBoard("j5", nine.rules).description == "there is no j5 on this 9×9 board (a1-i9)")
    #expect(MoveInputError.noSuchCell(10, cellCount: 9).description == "there is no cell 10; cells are numbered 1-9")
  }

  @Test(arguments: [
    "", "   ", "h", "8h", "hh8", "h-8", "h+8", "h 8", "-1", "+5", "1,2,3", "1,", ",1", "x", "é5", "h8x",
  ])
  func whatIsNoneOfTheFormsIsNotAMove(text: String) {
    let result = gomoku.parse(text)
    if text.allSatisfy(\.isWhitespace) {
      #expect(result == .failure(.empty))
    } else {
      guard case .failure(.notAMove) = result else {
        Issue.record("\(text) read as \(result)")
        return
      }
    }
  }

  @Test func hugeNumbersAreRefusedNotTrapped() {
    #expect(gomoku.parse("99999999999999999999999") == .failure(.notAMove("99999999999999999999999")))
    #expect(gomoku.parse("h99999999999999999999999") == .failure(.notAMove("h99999999999999999999999")))
    #expect(gomoku.parse("1,99999999999999999999") == .failure(.notAMove("1,99999999999999999999")))
  }

  @Test func notationIsWrittenInLowerCase() {
    for column in 0..<15 {
      let name = gomoku.columnName(column)
      #expect(name == name.lowercased())
    }
    #expect((0..<15).map(gomoku.columnName).joined() == "abcdefghijklmno")
  }
}

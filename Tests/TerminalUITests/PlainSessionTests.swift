import GameCore
import Testing

@testable import TerminalUI

/// Plain mode reads a move in gomoku notation, as a cell number or as row,col, and writes big boards with
/// their coordinates in a few columns.
@Suite struct PlainSessionTests {
  private func hotseat(size: Int, k: Int = 5) throws -> PlainSession {
    PlainSession(opponent: .hotseat, rules: try Rules(size: size, k: k), humanMark: .x)
  }

  @Test func theThreeFormsPlaceTheSameCell() throws {
    for text in ["h8", "H8", "113", "8,8", "8 8"] {
      var session = try hotseat(size: 15)
      let printed = session.handle(line: text)
      #expect(!printed.contains("error:"), "\(text): \(printed)")
      #expect(session.game.board[Position(row: 7, column: 7)] == .x, "\(text)")
    }
  }

  @Test func rowColCountsRowsFromTheTopAndNotationFromTheBottom() throws {
    var session = try hotseat(size: 9)
    _ = session.handle(line: "1,1")
    _ = session.handle(line: "a1")
    #expect(session.game.board[Position(row: 0, column: 0)] == .x)
    #expect(session.game.board[Position(row: 8, column: 0)] == .o)
  }

  @Test func aFifteenByFifteenBoardIsOneLinePerRowWithItsCoordinates() throws {
    var session = try hotseat(size: 15)
    let printed = session.handle(line: "h8") + session.handle(line: "a1") + session.handle(line: "o15")
    let board = PlainSession.boardText(session.game).split(separator: "\n").map(String.init)
    #expect(board.count == 16)
    #expect(board[0] == "   a b c d e f g h i j k l m n o")
    #expect(board[1] == "15 . . . . . . . . . . . . . . X")
    #expect(board[8] == " 8 . . . . . . . X . . . . . . .")
    #expect(board[15] == " 1 O . . . . . . . . . . . . . .")
    #expect(board.allSatisfy { $0.count <= 32 })
    #expect(printed.split(separator: "\n").allSatisfy { $0.count <= 80 })
    #expect(!printed.contains("|") && !printed.contains("---"))
  }

  @Test func theClassicBoardKeepsItsCellNumbers() throws {
    var session = PlainSession(opponent: .hotseat, rules: .standard, humanMark: .x)
    _ = session.handle(line: "b2")
    #expect(session.boardText() == " 1 | 2 | 3\n---+---+---\n 4 | X | 6\n---+---+---\n 7 | 8 | 9")
  }

  @Test func errorsNameTheFormsAndTheBoard() throws {
    var session = try hotseat(size: 9)
    #expect(
      session.handle(line: "j5")
        == "error: there is no j5 on this 9×9 board (a1-i9)\n")
    #expect(session.handle(line: "82") == "error: there is no cell 82; cells are numbered 1-81\n")
    #expect(
      session.handle(line: "zz")
        == "error: \"zz\" is not a move; type a coordinate (a1-i9), a cell number (1-81) or row,col\n")
    #expect(session.handle(line: "") == "error: type a coordinate (a1-i9), a cell number (1-81) or row,col\n")
    var classic = PlainSession(opponent: .hotseat, rules: .standard, humanMark: .x)
    #expect(classic.handle(line: "foo") == "error: \"foo\" is not a move; type a cell number (1-9) or row,col\n")
  }

  @Test func aTakenCellIsNamedAsTheBoardNamesIt() throws {
    var session = try hotseat(size: 9)
    _ = session.handle(line: "e5")
    #expect(session.handle(line: "5,5") == "error: e5 is already taken by X\n")
    var classic = PlainSession(opponent: .hotseat, rules: .standard, humanMark: .x)
    _ = classic.handle(line: "5")
    #expect(classic.handle(line: "2,2") == "error: row 2, column 2 is already taken by X\n")
  }

  @Test func theIntroductionDescribesBothWaysOfCountingRows() throws {
    let intro = try hotseat(size: 15).introduction()
    #expect(intro.hasPrefix("tictactoe: 15×15, 5 in a row.\n"), "× as in every other place that names a board")
    #expect(
      intro.contains(
        "Type a move as a coordinate such as h8 (column a-o, row 1-15 from the bottom),\n"
          + "a cell number (1-225, from the top left) or row,col (rows from the top).\n"))
    #expect(try hotseat(size: 9).introduction().contains("such as e5 (column a-i, row 1-9 from the bottom)"))
    for size in [3, 9, 15] {
      let lines = try hotseat(size: size, k: 3).introduction().split(separator: "\n")
      #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    }
  }

  @Test func theComputersMoveIsNamedInNotationOnBigBoards() throws {
    var big = PlainSession(opponent: .computer(.easy), rules: try Rules(size: 15, k: 5), humanMark: .o)
    #expect(big.computerMoved(Position(row: 7, column: 7)).hasPrefix("computer plays h8\n"))
    var classic = PlainSession(opponent: .computer(.easy), rules: .standard, humanMark: .o)
    #expect(classic.computerMoved(Position(row: 1, column: 1)).hasPrefix("computer plays 5 (row 2, column 2)\n"))
  }
}

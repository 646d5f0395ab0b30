import GameCore
import GameRecords
import Testing

@testable import TerminalUI

/// A Swap2 game in plain mode: every step said and prompted, choices typed as words, the computer's answers
/// played and said, the colours settled, undo one action (and the computer's answers after it) at a time.
@Suite struct PlainSwap2Tests {
  static let rules = try! Rules(size: 15, k: 5)
  static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  @Test func hotSeatThroughTwoMoreAndTheFirstPlayersChoice() {
    var session = PlainSession(opponent: .hotseat, rules: Self.rules, humanMark: .x, opening: .swap2)
    #expect(session.introduction().contains("Opening: Swap2."))
    #expect(session.introduction().contains("swap2 (the first player (P1)): place 3 stones: 1 of 3 (X next)"))
    for line in session.introduction().split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    #expect(session.prompt == "stone 1 of 3 (X): ")
    #expect(session.handle(line: "black").hasPrefix("error: "))
    _ = session.handle(line: "h8")
    _ = session.handle(line: "j8")
    let third = session.handle(line: "h9")
    #expect(third.contains("swap2 (the second player (P2)): choose: black, white, or place 2 more (two)"))
    #expect(session.prompt == "black, white or two: ")
    #expect(session.handle(line: "h10").hasPrefix("error: choose: black, white, or place 2 more"))
    #expect(session.handle(line: "two").contains("place 2 stones: 1 of 2 (O next)"))
    #expect(session.handle(line: "h8").hasPrefix("error: h8 is already taken by X"))
    _ = session.handle(line: "a1")
    let fifth = session.handle(line: "o15")
    #expect(fifth.contains("swap2 (the first player (P1)): choose: black or white"))
    #expect(session.handle(line: "two").hasPrefix("error: \"place 2 more stones\" is not a choice now"))
    let chosen = session.handle(line: "w")
    #expect(chosen.contains("chose white") && chosen.contains("the second player (P2) plays X"))
    #expect(session.swap2?.mark(of: .first) == .o && session.humanMark == .o && session.prompt == "O to move: ")
    #expect(session.handle(line: "undo").contains("swap2 (the first player (P1)): choose: black or white"))
    #expect(session.swap2?.isSettled == false)
  }

  @Test func theComputerAnswersAndTheGameGoesOn() {
    var session = PlainSession(opponent: .computer(.easy), rules: Self.rules, humanMark: .x, opening: .swap2)
    #expect(!session.computerToAnswerSwap2 && !session.computerToMove)
    for cell in ["h8", "j8", "h9"] { _ = session.handle(line: cell) }
    #expect(session.computerToAnswerSwap2 && !session.computerToMove)
    #expect(session.handle(line: "black") == "error: it is the computer's turn\n")
    #expect(session.handle(line: "a1") == "error: it is the computer's turn\n")
    let said = session.computerAnswered([.choice(.white), .stone(Self.p(6, 8))])
    #expect(said.hasPrefix("computer chose white\ncomputer places i9 (O)\n"))
    #expect(said.contains("swap2: you play X, the computer O; X to move"))
    #expect(session.humanMark == .x && session.prompt == "your move (X): ")
    _ = session.handle(line: "a1")
    #expect(session.computerToMove && !session.computerToAnswerSwap2)
    _ = session.computerMoved(Self.p(0, 14))
    #expect(session.game.history.count == 6 && !session.computerToMove)
    // Undo takes back the player's move and the computer's reply, then its choice and the player's third stone.
    _ = session.handle(line: "undo")
    #expect(session.game.history.count == 4)
    _ = session.handle(line: "undo")
    #expect(session.game.history.count == 2 && session.swap2?.isSettled == false)
    #expect(session.prompt == "stone 3 of 3 (X): ")
  }

  @Test func aReplayNamesTheOpening() throws {
    var record = GameRecord(
      rules: Self.rules, black: .init(name: "X"), white: .init(name: "O"), date: "2026-12-03", result: .unknown,
      moves: [Self.p(7, 7), Self.p(7, 8), Self.p(8, 8), Self.p(0, 0), Self.p(1, 1)])
    record.opening = .swap2([.placeTwo, .white])
    #expect(Replay(record: record).summary == "15×15, 5 in a row · 2026-12-03 · no result · Swap2: two, white")
    record.opening = nil
    #expect(!Replay(record: record).summary.contains("Swap2"))
  }

  @Test func asTheSecondPlayerTheComputerPlacesFirst() {
    var session = PlainSession(opponent: .computer(.easy), rules: Self.rules, humanMark: .o, opening: .swap2)
    #expect(session.computerToAnswerSwap2)
    #expect(session.handle(line: "undo") == "error: nothing to undo\n")
    let said = session.computerAnswered([.stone(Self.p(7, 7)), .stone(Self.p(7, 8)), .stone(Self.p(8, 8))])
    #expect(said.contains("computer places h8 (X)") && said.contains("swap2 (you): choose"))
    let chose = session.handle(line: "b")
    #expect(chose.contains("you chose black") && chose.contains("swap2: you play X, the computer O; O to move"))
    #expect(session.humanMark == .x && session.computerToMove)
  }
}

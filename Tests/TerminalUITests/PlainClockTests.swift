import GameCore
import Testing

@testable import TerminalUI

/// Plain mode's timed local game (issue 24), on a clock the test moves: the clock line after each move in the
/// network game's words, `clock`, the flag's lines, a line typed too late, and the computer's budget.
@Suite struct PlainClockTests {
  private func session(_ opponent: Opponent = .computer(.easy)) -> PlainSession {
    PlainSession(
      opponent: opponent, rules: .standard, humanMark: .x, clock: .fischer(base: 10_000, increment: 0), now: 50)
  }

  @Test func theIntroductionAndEachMoveSayTheClock() {
    var plain = session()
    #expect(plain.introduction().contains("Clock: 10 s a game for each side; a clock starts after that side's first"))
    #expect(plain.introduction().contains("Other commands: clock, help, quit."))
    #expect(plain.handle(line: "5", now: 51).hasSuffix("clock: you 0:10, computer 0:10\n"))
    #expect(plain.computerMoved(Position(row: 0, column: 0), now: 52).hasSuffix("(yours is running)\n"))
    #expect(plain.handle(line: "clock", now: 55.5) == "clock: you 0:06, computer 0:10 (yours is running)\n")
    #expect(plain.handle(line: "9", now: 56).hasSuffix("clock: you 0:06, computer 0:10 (computer's is running)\n"))
    #expect(plain.handle(line: "undo", now: 56) == "error: a timed game cannot be taken back\n")
  }

  @Test func theFlagEndsTheGameOnTime() {
    var plain = session()
    _ = plain.handle(line: "5", now: 51)
    _ = plain.computerMoved(Position(row: 0, column: 0), now: 52)
    #expect(plain.flagDeadline == 62)
    #expect(plain.flagIfDue(now: 61.9) == nil && !plain.isFinished)
    #expect(plain.flagIfDue(now: 62) == "your time is up\nresult: O wins (X lost on time)\n")
    #expect(plain.isFinished && !plain.computerToMove)
  }

  @Test func aLineTypedAfterTheFlagPlaysNothing() {
    var plain = session()
    _ = plain.handle(line: "5", now: 51)
    _ = plain.computerMoved(Position(row: 0, column: 0), now: 52)
    #expect(plain.handle(line: "9", now: 63) == "your time is up\nresult: O wins (X lost on time)\n")
    #expect(plain.game.history.count == 2)
  }

  @Test func theComputerLosesOnTimeWhenItsMoveComesTooLate() {
    var plain = session()
    _ = plain.handle(line: "5", now: 51)
    _ = plain.computerMoved(Position(row: 0, column: 0), now: 52)
    _ = plain.handle(line: "9", now: 53)
    #expect(plain.searchBudget(now: 53) <= 250)
    #expect(plain.searchBudget(now: 62.9) <= 10, "100 ms left: the margin takes most of it")
    let text = plain.computerMoved(Position(row: 0, column: 1), now: 63.5)
    #expect(text == "the computer's time is up\nresult: X wins (O lost on time)\n")
    #expect(plain.game.history.count == 3)
  }

  @Test func twoPlayersAreNamedByTheirMarks() {
    var plain = session(.hotseat)
    _ = plain.handle(line: "5", now: 51)
    _ = plain.handle(line: "1", now: 52)
    #expect(plain.handle(line: "clock", now: 53) == "clock: X 0:09, O 0:10 (X's is running)\n")
    #expect(plain.flagIfDue(now: 62) == "X's time is up\nresult: O wins (X lost on time)\n")
  }

  @Test func anUntimedGameHasNoClock() {
    var plain = PlainSession(opponent: .computer(.easy), rules: .standard, humanMark: .x)
    #expect(plain.handle(line: "clock") == "this game has no clock\n")
    #expect(plain.flagDeadline == nil && !plain.introduction().contains("Clock:"))
    #expect(plain.searchBudget(now: 1_000) == AIPlayer.usualMilliseconds)
  }
}

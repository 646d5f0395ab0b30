import GameCore
import GameRecords
import TerminalUI
import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// The record of a timed local game (issue 24, docs/RECORDS.md): the time control as TM/OT, each move's charge
/// and time left as TTQ and BL/WL, RE with +T when a flag fell; it parses back with the same times.
@Suite struct LocalTimedRecordTests {
  /// X plays 5 and 9, the computer (O) plays 1; the clocks read at the given seconds.
  private func clockedGame(_ control: TimeControl) throws -> (Game, LocalClock) {
    var game = Game(rules: .standard)
    var clock = try #require(LocalClock(control, now: 0))
    for (cell, now) in [(5, 1.0), (1, 2.5), (9, 6.25)] {
      try game.play(try #require(Position(cellNumber: cell, rules: .standard)))
      clock.moved(now: now, ends: game.isOver)
    }
    return (game, clock)
  }

  @Test func aLossOnTimeIsRecordedWithEveryMovesTimes() throws {
    let (game, started) = try clockedGame(.fischer(base: 10_000, increment: 1_000))
    var clock = started
    #expect(clock.flagIfDue(now: 16.25) == .o)
    let record = try #require(
      RecordOfGame.local(
        game: game, opponent: .computer(.perfect), humanMark: .x, playerName: "ann", date: "2026-12-02", clock: clock))
    #expect(record.result == .won(.x, .time) && record.resultProblem == nil && record.timesProblem == nil)
    #expect(record.timeControl == .fischer(base: 10_000, increment: 1_000))
    #expect(
      record.times == [
        .init(charged: 0, left: 10_000), .init(charged: 0, left: 10_000), .init(charged: 3_750, left: 7_250),
      ])
    let sgf = record.sgf
    for property in ["RE[B+T]", "TTE[time]", "TM[10]OT[1 fischer]", ";B[bb]BL[10]TTQ[0]", ";B[cc]BL[7.25]TTQ[3.75]"] {
      #expect(sgf.contains(property), "\(property) in \(sgf)")
    }
    let read = try GameRecord.parse(sgf)
    #expect(read.times == record.times && read.result == record.result && read.timeControl == record.timeControl)
  }

  @Test func aTimedGameWonOnTheBoardKeepsItsTimesAndAnUntimedOneHasNone() throws {
    var (game, clock) = try clockedGame(.perMove(5_000))
    for (cell, now) in [(2, 7.0), (3, 8.0), (4, 9.0), (7, 10.0)] {
      try game.play(try #require(Position(cellNumber: cell, rules: .standard)))
      clock.moved(now: now, ends: game.isOver)
    }
    #expect(game.outcome?.winner == .x)
    let record = try #require(
      RecordOfGame.local(game: game, opponent: .hotseat, humanMark: .x, playerName: "a", date: "d", clock: clock))
    #expect(record.result == .won(.x, .line) && record.times.count == 7 && record.timesProblem == nil)
    #expect(
      record.sgf.contains("TM[0]OT[5 simple]") && record.sgf.contains(";B[cc]BL[1.25]TTQ[3.75];W[ba]WL[4.25]TTQ[0.75]"),
      "\(record.sgf)")
    let untimed = try #require(
      RecordOfGame.local(game: game, opponent: .hotseat, humanMark: .x, playerName: "a", date: "d"))
    #expect(untimed.times.isEmpty && !untimed.sgf.contains("TM["))
  }
}

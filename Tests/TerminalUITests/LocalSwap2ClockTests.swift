import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

/// A timed local game that opens with Swap2, on a clock the test moves (the controller's and plain mode's `now`):
/// the clocks count turns as a network game's do (PROTOCOL.md rule 14), the side that places or chooses being the
/// side whose clock runs, from the first stone; each turn is charged and earns one increment; a flag falls in the
/// opening too; the computer's answer is charged as its moves are, and its search bounded by its clock.
@Suite struct LocalSwap2ClockTests {
  static let rules = try! Rules(size: 15, k: 5)

  /// A 15×15 Swap2 game on the full screen against `opponent` on `clock`, begun at 100.
  private func game(_ opponent: Opponent, clock: TimeControl) -> UIController {
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.opening = .swap2
    settings.first = .me
    settings.clock = clock
    var state = UIState(settings: settings, seed: 1)
    state.glyphs = .ascii
    var ui = UIController(state: state)
    _ = ui.clockTick(now: 100)
    _ = ui.startDirect(opponent: opponent)
    return ui
  }

  /// Places at `name` at `now` (the go-to field, then Enter).
  @discardableResult
  private func place(_ ui: inout UIController, _ name: String, at now: Double) -> [Effect] {
    _ = ui.clockTick(now: now)
    _ = ui.handle(.character("g"))
    _ = ui.handle(.paste(name))
    _ = ui.handle(.enter)
    return ui.handle(.enter)
  }

  private func key(_ ui: inout UIController, _ character: Character, at now: Double) {
    _ = ui.clockTick(now: now)
    _ = ui.handle(.character(character))
  }

  @Test func eachTurnOfTheOpeningIsChargedToTheSideThatActs() throws {
    var ui = game(.hotseat, clock: .fischer(base: 60_000, increment: 2_000))
    let start = try #require(ui.state.match?.clock)
    #expect(start.running == .x && ui.nextLocalClockChange != nil, "the first player's clock runs from the start")
    place(&ui, "h8", at: 105)
    place(&ui, "j8", at: 107)
    #expect(ui.state.match?.clock?.turnsEnded == 0, "stones within a turn are not charged")
    place(&ui, "h9", at: 110)  // turn 0, the three stones: 10 s, one increment
    var clock = try #require(ui.state.match?.clock)
    #expect(clock.charges == [.init(charged: 10_000, left: 52_000)] && clock.running == .o)
    key(&ui, "p", at: 130)  // the second player's choice and its two stones are one turn
    #expect(ui.state.match?.clock?.running == .o && ui.state.match?.clock?.turnsEnded == 1)
    place(&ui, "a1", at: 135)
    place(&ui, "a2", at: 140)
    clock = try #require(ui.state.match?.clock)
    #expect(clock.charges.last == .init(charged: 30_000, left: 32_000) && clock.running == .x)
    #expect(Screens.text(ui).contains("P1 0:52"), "\(Screens.text(ui))")
    key(&ui, "o", at: 150)  // the first player takes white and places stone 6 in the same turn
    place(&ui, "h10", at: 151)
    let match = try #require(ui.state.match)
    clock = try #require(match.clock)
    #expect(clock.charges.last == .init(charged: 11_000, left: 43_000))
    // The clocks are the places': the first player (P1) now plays O, and the second's clock runs for X.
    #expect(match.humanMark == .o && match.game.turn == .x && clock.running == .o)
    #expect(match.clocks(now: 151)?.running == .theirs && match.clocks(now: 151)?.mine == 43_000)
    // A record keeps each stone's time as a network game's does: the turn's on its last stone.
    let opening = try #require(match.swap2?.opening)
    #expect(
      clock.stoneCharges(in: opening) == [
        .init(charged: 0, left: 60_000), .init(charged: 0, left: 60_000), .init(charged: 10_000, left: 52_000),
        .init(charged: 0, left: 60_000), .init(charged: 30_000, left: 32_000), .init(charged: 11_000, left: 43_000),
      ])
    place(&ui, "c3", at: 155)  // after the opening, each move is a turn
    #expect(ui.state.match?.clock?.charges.last == .init(charged: 4_000, left: 30_000))
    _ = ui.handle(.character("u"))
    #expect(ui.state.match?.notice == "A timed game cannot be taken back: n starts a new one.")
  }

  @Test func aFlagFallsInTheOpening() throws {
    var ui = game(.hotseat, clock: .fischer(base: 10_000, increment: 0))
    place(&ui, "h8", at: 101)
    place(&ui, "j8", at: 105)
    #expect(ui.nextLocalClockChange != nil && ui.state.match?.clock?.flagDeadline == 110)
    _ = ui.clockTick(now: 110)
    let match = try #require(ui.state.match)
    #expect(match.lostOnTime == .x && match.isOver && match.score.second == 1, "P1, the first player, lost")
    #expect(Screens.text(ui).contains("X (P1) lost on time: O wins!"), "\(Screens.text(ui))")
    place(&ui, "h9", at: 111)
    #expect(ui.state.match?.game.history.count == 2, "no stone after the flag")
  }

  @Test func theComputersAnswerIsChargedAndItsSearchBoundedByItsClock() throws {
    var ui = game(.computer(.normal), clock: .fischer(base: 2_000, increment: 0))
    place(&ui, "h8", at: 100.2)
    place(&ui, "j8", at: 100.4)
    let effects = place(&ui, "h9", at: 100.5)
    guard case .answerSwap2(_, let token, let budget) = effects.first else {
      Issue.record("the computer was not asked: \(effects)")
      return
    }
    // Its turn began at 100.5 with 2 s on its clock: a share of them (2000 / 30), under the usual 250 ms.
    #expect(budget == 66)
    _ = ui.clockTick(now: 101.25)
    _ = ui.computerAnsweredSwap2([.choice(.white), .stone(Position(row: 6, column: 8))], token: token)
    let clock = try #require(ui.state.match?.clock)
    #expect(clock.charges.map(\.charged) == [500, 750] && clock.remaining(.o, now: 101.25) == 1_250)
    #expect(clock.running == .x && ui.state.match?.humanMark == .x)
  }

  @Test func theComputersLateAnswerLosesOnTime() throws {
    var ui = game(.computer(.normal), clock: .fischer(base: 2_000, increment: 0))
    place(&ui, "h8", at: 100.2)
    place(&ui, "j8", at: 100.4)
    let effects = place(&ui, "h9", at: 100.5)
    guard case .answerSwap2(_, let token, _) = effects.first else {
      Issue.record("the computer was not asked: \(effects)")
      return
    }
    _ = ui.clockTick(now: 102.6)
    _ = ui.computerAnsweredSwap2([.choice(.black)], token: token)
    let match = try #require(ui.state.match)
    #expect(match.lostOnTime == .o && match.swap2?.opening.isSettled == false && match.score.first == 1)
  }

  @Test func plainModeCountsTheSameTurns() throws {
    var session = PlainSession(
      opponent: .hotseat, rules: Self.rules, humanMark: .x, clock: .fischer(base: 60_000, increment: 1_000), now: 10,
      opening: .swap2)
    #expect(session.introduction().contains("Clock: 1 min + 1 s a move for each side, from the first stone"))
    #expect(session.clock?.running == .x && session.flagDeadline == 70)
    _ = session.handle(line: "h8", now: 12)
    _ = session.handle(line: "j8", now: 14)
    let third = session.handle(line: "h9", now: 20)
    #expect(third.contains("clock: P1 0:51, P2 1:00 (P2's is running)"), "\(third)")
    let chosen = session.handle(line: "black", now: 50)  // the second player's choice alone is its turn
    #expect(chosen.contains("clock: P1 0:51, P2 0:31 (P1's is running)"), "\(chosen)")
    #expect(session.humanMark == .o && session.clock?.charges.map(\.charged) == [10_000, 30_000])
    _ = session.handle(line: "a1", now: 52)
    #expect(session.clock?.remaining(.x, now: 52) == 50_000 && session.clock?.running == .o)
    #expect(session.handle(line: "undo", now: 53) == "error: a timed game cannot be taken back\n")
  }

  @Test func plainModesFlagInTheOpeningNamesThePlayer() throws {
    var session = PlainSession(
      opponent: .hotseat, rules: Self.rules, humanMark: .x, clock: .fischer(base: 10_000, increment: 0), now: 0,
      opening: .swap2)
    _ = session.handle(line: "h8", now: 1)
    _ = session.handle(line: "j8", now: 2)
    _ = session.handle(line: "h9", now: 3)
    #expect(session.flagDeadline == 13)
    let late = session.handle(line: "black", now: 13)
    #expect(late == "P2's time is up\nresult: X wins (O lost on time)\n" && session.isFinished)
  }
}

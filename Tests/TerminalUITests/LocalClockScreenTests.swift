import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

/// A local timed game on the full screen (issue 24), on a clock the test moves: the clock line as a network game
/// shows it, the player's flag in a 10-second game, the computer's flag, its search budget bounded by its time
/// left, two players' clocks at one keyboard, and an untimed game that never asks to be woken.
@Suite struct LocalClockScreenTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// A 10-second game against the computer begun at `start`, the player X.
  private func timed(_ control: TimeControl = .fischer(base: 10_000, increment: 0), start: Double = 100) -> UIController
  {
    var settings = Settings()
    settings.clock = control
    var ui = UIController(state: UIState(settings: settings, seed: 1))
    _ = ui.clockTick(now: start)
    _ = ui.startDirect(opponent: .computer(.normal))
    return ui
  }

  /// The player plays `cell` at `now`; the computer answers `reply` at `replyAt`.
  private func exchange(_ ui: inout UIController, _ cell: Int, at now: Double, reply: Position, at replyAt: Double) {
    _ = ui.clockTick(now: now)
    _ = ui.handle(.character(Character("\(cell)")))
    _ = ui.clockTick(now: replyAt)
    _ = ui.computerMoved(reply, token: ui.state.match?.token ?? -1)
  }

  @Test func thePlayersFlagFallsInATenSecondGame() throws {
    var ui = timed()
    exchange(&ui, 5, at: 101, reply: p(0, 0), at: 101.2)  // both first moves are free
    #expect(ui.state.match?.clock?.running == .x)
    let next = try #require(ui.nextLocalClockChange)
    #expect(abs(next - 101.201) < 1e-9, "a face rounds down: 0:10 becomes 0:09 a millisecond later")
    _ = ui.clockTick(now: 105.7)
    #expect(Screens.text(ui).contains("▸You 0:05 · Computer 0:10 (10s+0)"), "\(Screens.text(ui))")
    _ = ui.clockTick(now: 111.19)
    #expect(ui.state.match?.isOver == false)
    _ = ui.clockTick(now: 111.2)
    let match = try #require(ui.state.match)
    #expect(match.isOver && match.lostOnTime == .x && match.score.second == 1)
    #expect(Screens.text(ui).contains("You lost on time."), "\(Screens.text(ui))")
    #expect(Screens.text(ui).contains("You 0:00 · Computer 0:10"), "\(Screens.text(ui))")
    #expect(ui.nextLocalClockChange == nil, "no clock runs after the flag")
    _ = ui.handle(.character("9"))
    #expect(match.game.history.count == 2 && ui.state.match?.game.history.count == 2, "no move after the flag")
  }

  @Test func aMoveTypedAfterTheTimeRanOutIsALossOnTime() throws {
    var ui = timed()
    exchange(&ui, 5, at: 101, reply: p(0, 0), at: 101)
    _ = ui.clockTick(now: 105)
    ui.state.now = 111.5  // the key came late, before any wake-up
    _ = ui.handle(.character("9"))
    #expect(ui.state.match?.lostOnTime == .x && ui.state.match?.game.history.count == 2)
  }

  @Test func theComputersFlagFallsWhenItsMoveComesTooLate() throws {
    var ui = timed()
    exchange(&ui, 5, at: 101, reply: p(0, 0), at: 101)
    _ = ui.clockTick(now: 103)
    let effects = ui.handle(.character("9"))
    guard case .think(_, _, let token, let budget?) = effects.first else {
      Issue.record("the computer was not asked with a budget: \(effects)")
      return
    }
    #expect(budget <= 250 && budget <= 10_000 - 1_000, "\(budget)")
    _ = ui.clockTick(now: 113.1)
    #expect(ui.state.match?.lostOnTime == .o && ui.state.match?.score.first == 1)
    #expect(Screens.text(ui).contains("The computer lost on time: you win!"), "\(Screens.text(ui))")
    _ = ui.computerMoved(p(0, 1), token: token)
    #expect(ui.state.match?.game.history.count == 3, "its late move is not played")
  }

  @Test func theComputersBudgetShrinksWithItsTimeLeft() throws {
    var ui = timed(.fischer(base: 2_000, increment: 0))
    exchange(&ui, 5, at: 101, reply: p(0, 0), at: 101)
    _ = ui.clockTick(now: 101)
    _ = ui.handle(.character("9"))
    // It has 2 s left; the third move is charged.
    _ = ui.clockTick(now: 101.5)
    _ = ui.computerMoved(p(0, 1), token: ui.state.match?.token ?? -1)
    #expect(ui.state.match?.clock?.remaining(.o, now: 101.5) == 1_500)
    _ = ui.clockTick(now: 101.5)
    let effects = ui.handle(.character("3"))
    guard case .think(_, _, _, let budget?) = effects.first else {
      Issue.record("the computer was not asked with a budget: \(effects)")
      return
    }
    // 1.5 s left over at least ten moves to come: 150 ms at most, never its usual 250.
    #expect(budget <= 150 && budget >= 1, "\(budget)")
  }

  @Test func aTimedGameCannotBeTakenBack() {
    var ui = timed()
    exchange(&ui, 5, at: 101, reply: p(0, 0), at: 101)
    _ = ui.handle(.character("u"))
    #expect(ui.state.match?.game.history.count == 2)
    #expect(ui.state.match?.notice == "A timed game cannot be taken back: n starts a new one.")
  }

  @Test func twoPlayersAtOneKeyboardEachHaveAClock() throws {
    var settings = Settings()
    settings.clock = .perMove(5_000)
    var ui = UIController(state: UIState(settings: settings, seed: 1))
    _ = ui.clockTick(now: 0)
    _ = ui.startDirect(opponent: .hotseat)
    for (key, time) in [("5", 1.0), ("1", 2.0), ("9", 3.0)] {
      _ = ui.clockTick(now: time)
      _ = ui.handle(.character(Character(key)))
    }
    _ = ui.clockTick(now: 4)
    #expect(Screens.text(ui).contains("P1 0:05 · ▸P2 0:04 (move:5s)"), "\(Screens.text(ui))")
    _ = ui.clockTick(now: 8)
    #expect(ui.state.match?.lostOnTime == .o)
    #expect(Screens.text(ui).contains("O (P2) lost on time: X wins!"), "\(Screens.text(ui))")
  }

  @Test func anUntimedGameHasNoClockLineAndNeverAsksToBeWoken() {
    var ui = UIController(state: UIState(settings: Settings(), seed: 1))
    _ = ui.startDirect(opponent: .computer(.normal))
    _ = ui.handle(.character("5"))
    #expect(ui.state.match?.clock == nil && ui.nextLocalClockChange == nil)
    #expect(!Screens.text(ui).contains("0:00"))
  }

  @Test func anEngineGameKeepsItsOwnTime() {
    var settings = Settings()
    settings.clock = .fischer(base: 10_000, increment: 0)
    settings.size = 15
    settings.k = 5
    var ui = UIController(state: UIState(settings: settings, seed: 1))
    _ = ui.startDirect(opponent: .engine("pbrain"))
    #expect(ui.state.match?.clock == nil)
  }

  @Test func aFifteenByFifteenGameShowsItsClocksAndTheWholeBoardAtEightyByTwentyFour() throws {
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.clock = .fischer(base: 300_000, increment: 3_000)
    var ui = UIController(state: UIState(settings: settings, seed: 1))
    ui.resize(width: 80, height: 24)
    _ = ui.clockTick(now: 0)
    _ = ui.startDirect(opponent: .computer(.perfect))
    _ = ui.handle(.enter)
    _ = ui.clockTick(now: 1)
    _ = ui.computerMoved(p(6, 6), token: ui.state.match?.token ?? -1)
    _ = ui.clockTick(now: 62.5)
    let rows = Screens.text(ui).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(rows.count == 24)
    #expect(rows[2].split(separator: " ").joined(separator: " ") == "▸You 3:58 · Computer 5:00 (5+3)", "\(rows[2])")
    // Every row of the board, the status and the legend are still there.
    #expect(rows.contains { $0.contains("15 ") } && rows.contains { $0.contains(" 1 ") }, "\(Screens.text(ui))")
    #expect(rows[23].contains("help"), "\(rows[23])")
  }
}

import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

/// Local matches: hot-seat players take turns moving first, and a score survives a return to the lobby.
@Suite struct LocalMatchTests {
  private func hotseat() -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    return ui
  }

  private func play(_ cells: [String], _ ui: inout UIController) {
    for cell in cells { _ = ui.handle(.character(Character(cell))) }
  }

  @Test func hotseatPlayersTakeTurnsBeingXAndTheScoreFollowsThePlayer() {
    var ui = hotseat()
    #expect(Screens.text(ui).contains("P1 is X and moves first, P2 is O"))
    #expect(Screens.text(ui).contains("X to move (P1)"))
    play(["1", "4", "2", "5", "3"], &ui)  // X (P1) wins the top row
    #expect(Screens.text(ui).contains("X (P1) wins!"))
    #expect(ui.state.match?.score.first == 1)
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.humanMark == .o)
    let text = Screens.text(ui)
    #expect(text.contains("P2 is X and moves first, P1 is O") && text.contains("X to move (P2)"), "\(text)")
    play(["1", "4", "2", "5", "3"], &ui)  // X, now P2, wins
    #expect(Screens.text(ui).contains("X (P2) wins!"))
    #expect(ui.state.match?.score.first == 1 && ui.state.match?.score.second == 1)
    #expect(Screens.text(ui).contains("P1 1 · P2 1 · draws 0"))
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.humanMark == .x, "and back: P1 is X in the third game")
  }

  @Test func theScoreIsKeptAcrossAReturnToTheLobby() {
    var ui = hotseat()
    play(["1", "4", "2", "5", "3"], &ui)
    _ = ui.handle(.character("q"))
    #expect(ui.state.page == .lobby)
    _ = ui.handle(.enter)  // the same: two players on this keyboard
    #expect(ui.state.page == .game)
    #expect(ui.state.match?.score.first == 1, "the score carried on")
    #expect(ui.state.match?.humanMark == .o, "and so did the turn to move first")
    #expect(Screens.text(ui).contains("P1 1 · P2 0 · draws 0"))
  }

  @Test func anotherKindOfMatchHasItsOwnScore() {
    var ui = hotseat()
    play(["1", "4", "2", "5", "3"], &ui)
    _ = ui.handle(.character("q"))
    _ = ui.handle(.up)
    _ = ui.handle(.enter)  // the computer
    #expect(ui.state.match?.isComputerGame == true)
    #expect(ui.state.match?.score == LocalScore())
    _ = ui.handle(.character("q"))
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.score.first == 1, "the hot-seat score is still there")
  }
}

/// "perfect" is exact only up to 16 cells and on 5×5 with 4 in a row: beyond, wherever the level is shown, it says it is a search.
@Suite struct PerfectLevelLabelTests {
  @Test func perfectIsMarkedASearchBeyondSixteenCells() throws {
    #expect(AILevel.exactCells == 16)
    #expect(AILevel.perfect.shown(on: try Rules(size: 4, k: 3)) == "perfect")
    #expect(AILevel.perfect.shown(on: try Rules(rows: 3, columns: 5, k: 3)) == "perfect")
    #expect(AILevel.perfect.shown(on: try Rules(rows: 3, columns: 6, k: 3)) == "perfect, searching")
    // 5×5 with 4 in a row is played exactly (a table of early plies and a search to the end); with 5 it is not.
    #expect(AILevel.perfect.shown(on: try Rules(size: 5, k: 4)) == "perfect")
    #expect(AILevel.perfect.shown(on: try Rules(size: 5, k: 5)) == "perfect, searching")
    #expect(AILevel.normal.shown(on: try Rules(size: 15, k: 5)) == "normal")
    var settings = Settings()
    settings.size = 9
    settings.k = 5
    settings.aiLevel = .perfect
    var state = UIState(settings: settings, seed: 1)
    state.width = 80
    state.height = 24
    var ui = UIController(state: state)
    #expect(Screens.text(ui).contains("computer: perfect, searching"))
    _ = ui.handle(.enter)
    #expect(Screens.text(ui).contains("against the computer (perfect, searching)"))
    let plain = PlainSession(opponent: .computer(.perfect), rules: try Rules(size: 9, k: 5), humanMark: .x)
    #expect(plain.introduction().contains("against the computer (perfect, searching)"))
  }
}

import GameCore
import Testing

@testable import TerminalUI

/// A local game in progress is not dropped by one key: q, Esc and n ask first, as leaving a network game does.
@Suite struct LocalConfirmTests {
  /// A hot-seat 3×3 game with two moves played (or none), started from the lobby or from the command line.
  private func midGame(moves: [String] = ["1", "5"], direct: Bool = false) -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    if direct {
      _ = ui.startDirect(opponent: .hotseat)
    } else {
      _ = ui.handle(.down)
      _ = ui.handle(.enter)
    }
    for digit in moves { _ = ui.handle(.character(Character(digit))) }
    return ui
  }

  @Test(arguments: [Key.character("q"), .escape])
  func leavingAGameInProgressAsksAndNoKeepsIt(key: Key) {
    var ui = midGame()
    #expect(ui.handle(key) == [])
    #expect(ui.state.page == .game, "the game is still on the screen")
    #expect(ui.state.match?.confirming == .leave)
    let text = Screens.text(ui)
    #expect(text.contains("Leave this game?") && text.contains("y leave the game · n or Esc play on"), "\(text)")
    for no in [Key.character("n"), .escape, .character("q")] {
      var stay = ui
      #expect(stay.handle(no) == [])
      #expect(stay.state.page == .game && stay.state.match?.confirming == nil)
      #expect(stay.state.match?.game.history.count == 2, "the game is as it was")
    }
    var other = ui
    _ = other.handle(.character("7"))
    #expect(other.state.match?.game.history.count == 2, "any other key is not a move while it asks")
    #expect(other.state.match?.confirming == .leave)
    _ = ui.handle(.character("y"))
    #expect(ui.state.page == .lobby)
  }

  @Test func fromTheCommandLineYesQuits() {
    var ui = midGame(direct: true)
    #expect(ui.handle(.character("q")) == [])
    #expect(ui.handle(.character("y")) == [.quit])
  }

  @Test func aNewGameInTheMiddleOfOneAsksFirst() {
    var ui = midGame()
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.confirming == .newGame)
    #expect(Screens.text(ui).contains("Start a new game?"))
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.game.history.count == 2, "n again: no, the game goes on")
    _ = ui.handle(.character("n"))
    _ = ui.handle(.character("y"))
    #expect(ui.state.match?.game.history.isEmpty == true)
    #expect(ui.state.match?.gamesStarted == 2)
  }

  @Test func anEmptyBoardOrAFinishedGameAsksNothing() {
    var empty = midGame(moves: [])
    _ = empty.handle(.character("q"))
    #expect(empty.state.page == .lobby)
    var won = midGame(moves: ["1", "4", "2", "5", "3"])
    _ = won.handle(.character("n"))
    #expect(won.state.match?.game.history.isEmpty == true, "a new game at once after a win")
    _ = won.handle(.escape)
    #expect(won.state.page == .lobby)
  }

  @Test func aTerminalTooSmallForTheBoardLeavesAtOnceAsItSays() {
    var ui = midGame()
    ui.resize(width: 20, height: 6)
    #expect(Screens.text(ui).contains("need 30×9"))
    _ = ui.handle(.character("q"))
    #expect(ui.state.page == .lobby, "no question it could not show")
  }
}

import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

/// A local match against an outside engine, as the controller sees it: the engine asked on its turn, its moves,
/// its forfeit (the game over, won by the player, shown), and the built-in computer after it.
@Suite struct EngineMatchTests {
  static func engineMatch(first: FirstPlayer = .me) -> (UIController, [Effect]) {
    var ui = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    ui.state.settings.first = first
    let effects = ui.startDirect(opponent: .engine("brain.py"))
    return (ui, effects)
  }

  @Test("the engine is asked on its turn, with the game so far, and its move is played")
  func askedOnItsTurn() throws {
    var (ui, effects) = Self.engineMatch(first: .them)
    let match = try #require(ui.state.match)
    #expect(effects == [.askEngine(game: match.game, token: match.token)])
    #expect(Screens.text(ui).contains("The engine is thinking"))
    // Keys cannot play for it.
    _ = ui.handle(.enter)
    #expect(ui.state.match?.notice == "Wait for the engine's move.")
    _ = ui.computerMoved(Position(row: 0, column: 0), token: match.token)
    #expect(ui.state.match?.game.history == [Position(row: 0, column: 0)])
    #expect(Screens.text(ui).contains("The engine plays a9. Your turn (O)"))
    effects = ui.handle(.enter)  // e5
    let after = try #require(ui.state.match)
    #expect(effects == [.askEngine(game: after.game, token: after.token)])
    #expect(after.game.history.count == 2)
  }

  @Test("a forfeit ends the game as the player's win, names the cause, and n plays the built-in computer")
  func forfeit() throws {
    var (ui, _) = Self.engineMatch()
    _ = ui.handle(.enter)
    let token = try #require(ui.state.match?.token)
    // A forfeit for another game changes nothing.
    #expect(ui.engineForfeited("late", token: token + 1) == [])
    #expect(ui.state.match?.forfeit == nil)
    _ = ui.engineForfeited("the engine stopped (exited with status 3)", token: token)
    let match = try #require(ui.state.match)
    #expect(match.isOver && match.score.first == 1)
    let screen = Screens.text(ui)
    #expect(screen.contains("You win: the engine stopped (exited with status 3).  n play the computer"))
    #expect(screen.contains("You 1 · Engine 0"))
    // Its move after the forfeit is not played, nor is the player's.
    _ = ui.computerMoved(Position(row: 0, column: 0), token: token)
    _ = ui.handle(.right)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.game.history.count == 1)
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.opponent == .computer(ui.state.settings.aiLevel))
    #expect(Screens.text(ui).contains("against the computer"))
  }

  @Test("an engine that cannot be run sends the player back to the lobby with the reason")
  func unavailable() throws {
    var ui = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    ui.state.settings.engine = "brain"
    ui.state.settings.useEngine = true
    ui.state.settings.first = .them
    _ = ui.handle(.enter)  // Play: the engine, which moves first
    let token = try #require(ui.state.match?.token)
    #expect(ui.engineUnavailable("The engine in settings.conf was not run.", token: token + 1) == [])
    #expect(ui.state.page == .game)
    _ = ui.engineUnavailable("The engine in settings.conf was not run.", token: token)
    #expect(ui.state.page == .lobby && ui.state.match == nil)
    #expect(Screens.text(ui).contains("The engine in settings.conf was not run."))
  }

  @Test("undo is refused against an engine; the engine's game cannot be taken back")
  func noUndo() throws {
    var (ui, _) = Self.engineMatch()
    _ = ui.handle(.enter)
    let token = try #require(ui.state.match?.token)
    _ = ui.computerMoved(Position(row: 0, column: 0), token: token)
    #expect(ui.handle(.character("u")) == [])
    #expect(ui.state.match?.game.history.count == 2)
    #expect(ui.state.match?.notice?.contains("cannot be taken back") == true)
  }

  @Test("Options: the opponent is the engine only when settings.conf names one; the lobby then starts it")
  func optionsAndLobby() {
    var ui = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    for _ in 0..<4 { _ = ui.handle(.down) }
    _ = ui.handle(.enter)  // Options
    for _ in 0..<6 { _ = ui.handle(.down) }
    #expect(ui.state.optionSelection == .opponent)
    #expect(Screens.text(ui).contains("Opponent        < computer (no engine set) >"))
    _ = ui.handle(.right)
    #expect(!ui.state.settings.useEngine)
    ui.state.settings.engine = "python3 /opt/brains/brain.py --fast"
    _ = ui.handle(.right)
    #expect(ui.state.settings.useEngine)
    #expect(Screens.text(ui).contains("Opponent        < engine brain.py >"))
    _ = ui.handle(.escape)
    for _ in 0..<4 { _ = ui.handle(.up) }
    let effects = ui.handle(.enter)  // Play the computer: the engine, as Options chose
    #expect(ui.state.match?.opponent == .engine("brain.py"))
    if ui.state.match?.humanMark == .o { #expect(effects.count == 1) }
    // On a board an engine cannot play, the lobby says so.
    var small = Screens.ui(80, 24, .unicode)
    small.state.settings.engine = "brain"
    small.state.settings.useEngine = true
    _ = small.handle(.enter)
    #expect(small.state.match == nil)
    #expect(Screens.text(small).contains("An engine plays five in a row"))
  }
}

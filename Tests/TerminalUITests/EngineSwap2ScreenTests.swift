import GameCore
import PlayerSettings
import Testing
import UntrustedText

@testable import TerminalUI

/// Swap2 against an outside engine on the full screen, as the controller sees it: the engine asked for its part
/// of the opening with an effect (the driver sends SWAP2BOARD off the screen's way), each of its answers shown as
/// the computer's are, and an engine that does not play Swap2 said on screen before the usual opening.
@Suite struct EngineSwap2ScreenTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// A 15×15 game against the engine `brain` with Swap2 asked for on the command line, or only by the setting.
  private func game(first: FirstPlayer = .me, asked: Bool = true) -> (UIController, [Effect]) {
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.opening = .swap2
    settings.first = first
    var state = UIState(settings: settings, seed: 1)
    state.glyphs = .ascii
    var ui = UIController(state: state)
    if asked { ui.openEngineGames(with: .swap2) }
    let effects = ui.startDirect(opponent: .engine("brain"))
    return (ui, effects)
  }

  /// Moves the cursor to the cell named `name` with the go-to field, then places there.
  private func place(_ ui: inout UIController, _ name: String) -> [Effect] {
    _ = ui.handle(.character("g"))
    _ = ui.handle(.paste(name))
    _ = ui.handle(.enter)
    return ui.handle(.enter)
  }

  @Test func theEngineIsAskedForItsAnswerAndEachStepIsShown() throws {
    var (ui, effects) = game()
    #expect(effects.isEmpty)
    var text = Screens.text(ui)
    #expect(text.contains("Swap2 against the engine brain: you are the first player"), "\(text)")
    #expect(text.contains("Swap2, you: place stone 1 of 3 (X)"), "\(text)")
    _ = place(&ui, "h8")
    _ = place(&ui, "j8")
    effects = place(&ui, "h9")
    let match = try #require(ui.state.match)
    guard case .askEngineSwap2(let opening, let token) = effects.first, effects.count == 1 else {
      Issue.record("the engine was not asked for its answer: \(effects)")
      return
    }
    #expect(opening.step == .secondChooses && opening.game.history.count == 3 && token == match.token)
    #expect(Screens.text(ui).contains("Swap2: the engine is thinking"))
    // Keys cannot answer for it.
    _ = ui.handle(.character("b"))
    #expect(ui.state.match?.notice == "Wait for the engine's answer.")
    #expect(ui.state.match?.swap2?.opening.log.count == 3)
    // An answer for another game is not played.
    #expect(ui.computerAnsweredSwap2([.choice(.black)], token: token + 1) == [])
    #expect(ui.state.match?.swap2?.opening.log.count == 3)
    // It places two more (O at a1, X at o15) and leaves the choice to the player.
    effects = ui.computerAnsweredSwap2([.choice(.placeTwo), .stone(p(14, 0)), .stone(p(0, 14))], token: token)
    #expect(effects.isEmpty)
    text = Screens.text(ui)
    #expect(text.contains("Swap2, you: choose b take X, o take O"), "\(text)")
    #expect(text.contains("The engine chose to place 2 more and placed a1 o15."), "\(text)")
    #expect(text.contains("b take X | o take O | ? help") && !text.contains("u undo"), "no undo against an engine")
    // The player takes O and moves next; the move after it asks the engine for an ordinary move.
    _ = ui.handle(.character("o"))
    text = Screens.text(ui)
    #expect(text.contains("You took O. Your turn (O)"), "\(text)")
    #expect(ui.state.match?.humanMark == .o)
    effects = place(&ui, "c3")
    let after = try #require(ui.state.match)
    #expect(effects == [.askEngine(game: after.game, token: after.token)])
    #expect(after.game.history.count == 6 && after.game.turn == .x)
    _ = ui.computerMoved(p(0, 0), token: after.token)
    #expect(Screens.text(ui).contains("The engine plays a15. Your turn (O)"))
  }

  @Test func anEngineThatIsFirstIsAskedAtOnceAndItsStonesAreShown() throws {
    var (ui, effects) = game(first: .them)
    guard case .askEngineSwap2(let opening, let token) = effects.first, effects.count == 1 else {
      Issue.record("the engine was not asked to open: \(effects)")
      return
    }
    #expect(opening.step == .placeThree && opening.game.history.isEmpty)
    #expect(Screens.text(ui).contains("you are the second player (you answer)"))
    effects = ui.computerAnsweredSwap2([.stone(p(7, 7)), .stone(p(7, 8)), .stone(p(6, 7))], token: token)
    #expect(effects.isEmpty)
    let text = Screens.text(ui)
    #expect(text.contains("The engine placed h8 i8 h9."), "\(text)")
    #expect(text.contains("Swap2, you: choose b take X, o take O, p place 2 more"), "\(text)")
    // The player takes X: O is to move, and that is the engine, asked for an ordinary move.
    effects = ui.handle(.character("b"))
    let match = try #require(ui.state.match)
    #expect(match.humanMark == .x && match.swap2?.opening.isSettled == true)
    #expect(effects == [.askEngine(game: match.game, token: match.token)])
  }

  @Test func anEngineWithoutSwap2IsSaidAndTheUsualOpeningPlayed() throws {
    var (ui, effects) = game(first: .them)
    guard case .askEngineSwap2(_, let token) = effects.first else {
      Issue.record("the engine was not asked to open: \(effects)")
      return
    }
    // Words for another game change nothing.
    #expect(ui.engineRefusedSwap2("UNKNOWN SWAP2BOARD", token: token + 1) == [])
    #expect(ui.state.match?.swap2 != nil)
    effects = ui.engineRefusedSwap2("UNKNOWN SWAP2BOARD", token: token)
    let match = try #require(ui.state.match)
    #expect(match.swap2 == nil && match.game.history.isEmpty && match.humanMark == .o)
    #expect(match.token != token, "the engine's answers for the opening are stale now")
    // X moves first in the usual opening, and X is the engine: it is asked for a move (a new process).
    #expect(effects == [.askEngine(game: match.game, token: match.token)])
    _ = ui.computerMoved(p(7, 7), token: match.token)
    let text = Screens.text(ui)
    #expect(text.contains("You play O against the engine brain"), "\(text)")
    #expect(text.contains("No Swap2: the engine answered \"UNKNOWN SWAP2BOARD\". Usual opening; you play O."))
    #expect(text.contains("The engine plays h8. Your turn (O)"), "\(text)")
  }

  @Test func theEnginesWordsAreShownSanitisedAndCutShort() throws {
    var (ui, _) = game()
    _ = place(&ui, "h8")
    _ = place(&ui, "j8")
    guard case .askEngineSwap2(_, let token) = place(&ui, "h9").first else {
      Issue.record("the engine was not asked")
      return
    }
    let hostile = PeerText("ERROR \u{1b}]2;owned\u{07}\u{1b}[2J" + String(repeating: "w", count: 500))
    _ = ui.engineRefusedSwap2(hostile, token: token)
    let note = try #require(ui.state.match?.openingNote)
    #expect(!note.unicodeScalars.contains { $0.properties.generalCategory == .control })
    #expect(note.count <= 78, "\(note.count): \(note)")
    #expect(note.hasSuffix("Usual opening; you play X."))
    #expect(Screens.text(ui).contains(note))
    // The next game asks again, and says nothing of the last one's answer until then.
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.openingNote == nil && ui.state.match?.swap2 != nil)
  }

  @Test func theSettingAloneOpensAnEnginesGameAsUsual() throws {
    let (ui, effects) = game(asked: false)
    #expect(effects.isEmpty)
    #expect(ui.state.match?.swap2 == nil)
    #expect(Screens.text(ui).contains("You play X against the engine brain"))
  }
}

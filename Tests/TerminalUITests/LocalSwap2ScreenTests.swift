import GameCore
import GameRecords
import PlayerSettings
import Testing

@testable import TerminalUI

/// Swap2 in a local game on the full screen: each step shown (who places, how many stones are left, the choice
/// with its keys), the computer asked for its answers off the loop, undo one action (and the computer's answers
/// after it), and the Options row offered only where Swap2 is played (its clock: `LocalSwap2ClockTests`).
@Suite struct LocalSwap2ScreenTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// A game on 15×15 with Swap2 against the computer (`hotseat`: two players), the player first unless `first`
  /// says otherwise.
  private func game(
    _ opponent: Opponent = .computer(.normal), first: FirstPlayer = .me, clock: TimeControl = .none
  ) -> UIController {
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.opening = .swap2
    settings.first = first
    settings.clock = clock
    var state = UIState(settings: settings, seed: 1)
    state.glyphs = .ascii
    var ui = UIController(state: state)
    _ = ui.clockTick(now: 100)
    _ = ui.startDirect(opponent: opponent)
    return ui
  }

  /// Moves the cursor to the cell named `name` with the go-to field, then places there.
  private func place(_ ui: inout UIController, _ name: String) -> [Effect] {
    _ = ui.handle(.character("g"))
    _ = ui.handle(.paste(name))
    _ = ui.handle(.enter)
    return ui.handle(.enter)
  }

  @Test func thePlayerPlacesThreeTheComputerChoosesAndTheGameGoesOn() throws {
    var ui = game()
    var text = Screens.text(ui)
    #expect(text.contains("Swap2 against the computer (normal): you are the first player"), "\(text)")
    #expect(text.contains("Swap2, you: place stone 1 of 3 (X)"), "\(text)")
    #expect(text.contains("The first player places 3 stones (X, O, X); the second then chooses a colour."))
    #expect(place(&ui, "h8").isEmpty)
    #expect(Screens.text(ui).contains("Swap2, you: place stone 2 of 3 (O)"))
    _ = place(&ui, "j8")
    let effects = place(&ui, "h9")
    let match = try #require(ui.state.match)
    guard case .answerSwap2(let opening, let token, _) = effects.first, effects.count == 1 else {
      Issue.record("the computer was not asked for its answer: \(effects)")
      return
    }
    #expect(opening.step == .secondChooses && token == match.token && match.aiThinking)
    #expect(Screens.text(ui).contains("Swap2: the computer is thinking"))
    // Keys while the computer thinks: nothing placed, nothing chosen.
    _ = ui.handle(.character("b"))
    #expect(ui.state.match?.notice == "Wait for the computer's answer." && ui.state.match?.swap2?.isOpening == true)
    // An answer for an older game is dropped; the real one takes O and moves.
    #expect(ui.computerAnsweredSwap2([.choice(.black)], token: token - 1).isEmpty)
    #expect(ui.computerAnsweredSwap2([.choice(.white), .stone(p(6, 8))], token: token).isEmpty)
    let after = try #require(ui.state.match)
    #expect(after.humanMark == .x && after.game.history.count == 4 && after.swap2?.isOpening == false)
    text = Screens.text(ui)
    #expect(text.contains("The computer took O and plays i9. Your turn (X)"), "\(text)")
    #expect(text.contains("You play X against the computer"), "\(text)")
    // The game goes on as any: the player's move, then the computer's by its search.
    let next = place(&ui, "a1")
    guard case .think(let game, _, _, _) = next.first else {
      Issue.record("the computer was not asked to move: \(next)")
      return
    }
    #expect(game.history.count == 5 && game.turn == .o)
  }

  @Test func aChoiceIsShownWithItsKeysAndUndoTakesBackTheComputersAnswers() throws {
    var ui = game(first: .them)
    let asked = ui.state.match.map { $0.computerToAnswerSwap2 }
    #expect(asked == true)
    #expect(Screens.text(ui).contains("you are the second player (you answer)"))
    let token = try #require(ui.state.match?.token)
    // The computer's three stones (it was asked as the game began).
    _ = ui.computerAnsweredSwap2([.stone(p(7, 7)), .stone(p(7, 8)), .stone(p(8, 7))], token: token)
    let text = Screens.text(ui)
    #expect(text.contains("Swap2, you: choose b take X, o take O, p place 2 more"), "\(text)")
    #expect(text.contains("The computer placed h8 i8 h7."), "\(text)")
    #expect(text.contains(" b take X | o take O | p place 2 more | u undo"), "\(text)")
    // A stone is not a choice; the choice is made by its key.
    _ = ui.handle(.enter)
    #expect(ui.state.match?.notice == "Choose first: b take X, o take O, p place 2 more.")
    _ = ui.handle(.character("p"))
    #expect(Screens.text(ui).contains("Swap2, you: place stone 1 of 2 (O)"))
    _ = place(&ui, "a1")
    let effects = place(&ui, "a2")
    #expect(effects.count == 1 && ui.state.match?.computerToAnswerSwap2 == true)
    let answer = try #require(ui.state.match?.token)
    _ = ui.computerAnsweredSwap2([.choice(.black)], token: answer)
    let settled = try #require(ui.state.match)
    #expect(settled.humanMark == .o && settled.swap2?.opening.mark(of: .first) == .x)
    #expect(Screens.text(ui).contains("The computer took X. Your turn (O)"), "\(Screens.text(ui))")
    // Undo: the computer's choice and the player's last stone go; the player places the 5th stone again.
    _ = ui.handle(.character("u"))
    let undone = try #require(ui.state.match)
    #expect(undone.game.history.count == 4 && undone.swap2?.isOpening == true && !undone.computerToAnswerSwap2)
    #expect(Screens.text(ui).contains("Swap2, you: place stone 2 of 2 (X)"))
    // Back to the start: the computer's stones stay (they are not the player's to undo).
    _ = ui.handle(.character("u"))
    _ = ui.handle(.character("u"))
    _ = ui.handle(.character("u"))
    #expect(ui.state.match?.game.history.count == 3 && ui.state.match?.notice == "Nothing to undo.")
  }

  @Test func hotSeatPlayersChooseInTurnAndTheRecordKeepsTheOpening() throws {
    var ui = game(.hotseat)
    #expect(Screens.text(ui).contains("Swap2 at one keyboard: P1 is the first player and places 3 stones"))
    for cell in ["h8", "j8", "h9"] { _ = place(&ui, cell) }
    #expect(Screens.text(ui).contains("Swap2, P2: choose b take X, o take O, p place 2 more"))
    #expect(Screens.text(ui).contains("x: P2 plays X, and O moves next; o: P2 plays O, and moves next."))
    _ = ui.handle(.character("o"))
    let match = try #require(ui.state.match)
    #expect(match.humanMark == .x && match.player(with: .o) == "P2")
    #expect(Screens.text(ui).contains("P2 took O. O to move (P2)"), "\(Screens.text(ui))")
    for cell in ["a1", "h10", "a2", "h11", "a3", "h12"] { _ = place(&ui, cell) }
    let over = try #require(ui.state.match)
    #expect(over.game.outcome?.winner == .x && over.score.first == 1)
    #expect(over.swap2.flatMap { RecordOpening($0.opening) } == .swap2([.white]))
  }

  @Test func theOptionsRowOffersSwap2OnlyWhereItIsPlayed() {
    var ui = Screens.ui(80, 24, .ascii)
    _ = ui.adjust(.opening, by: 1)
    #expect(ui.state.settings.opening == .standard, "3×3 has no Swap2")
    #expect(OptionsView.value(of: .opening, ui.state.settings, glyphs: .ascii) == "standard (swap2: k 5, 9x9 up)")
    ui.state.settings.size = 9
    ui.state.settings.k = 5
    _ = ui.adjust(.opening, by: 1)
    #expect(ui.state.settings.opening == .swap2 && ui.state.settings.openingInPlay == .swap2)
    #expect(OptionsView.value(of: .opening, ui.state.settings, glyphs: .ascii) == "swap2")
    ui.state.settings.k = 4
    #expect(ui.state.settings.openingInPlay == .standard, "the setting holds only where Swap2 is played")
    _ = ui.adjust(.opening, by: 1)
    #expect(ui.state.settings.opening == .swap2, "not offered on k = 4, so not changed")
  }

  @Test func anEngineGameOpensAsUsual() {
    var ui = game(.engine("pbrain"))
    #expect(ui.state.match?.swap2 == nil)
    _ = ui.handle(.character("b"))
    #expect(ui.state.match?.notice == nil)
  }
}

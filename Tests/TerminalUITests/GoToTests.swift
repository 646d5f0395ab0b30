import GameCore
import Testing

@testable import TerminalUI

/// The go-to key: `g`, a typed cell, Enter, and the cursor is there, with nothing placed.
@Suite struct GoToTests {
  private func type(_ text: String, _ ui: inout UIController) {
    for character in text { _ = ui.handle(.character(character)) }
  }

  @Test func aTypedCoordinateMovesTheCursorAcrossABigBoard() {
    var ui = Screens.ui(80, 24, .unicode, size: 15, k: 5)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)  // two players at this keyboard: no computer moves in between
    _ = ui.handle(.character("g"))
    #expect(Screens.text(ui).contains("Go to: "), "\(Screens.text(ui))")
    type("a1", &ui)  // h, j, k, l and the like are typed, not keys, while the field is open
    #expect(ui.state.match?.cursor == Position(row: 7, column: 7))
    _ = ui.handle(.enter)
    #expect(ui.state.match?.cursor == Position(row: 14, column: 0))
    #expect(ui.state.match?.goTo == nil && ui.state.match?.game.history.isEmpty == true, "moved, nothing placed")
    _ = ui.handle(.character("g"))
    type("hjkl", &ui)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.cursor == Position(row: 14, column: 0), "not a cell: the cursor stays")
    #expect(Screens.text(ui).contains("\"hjkl\" is not a move"), "\(Screens.text(ui))")
    _ = ui.handle(.escape)
    #expect(ui.state.match?.goTo == nil && ui.state.page == .game, "Esc closes the field, and only the field")
    _ = ui.handle(.character("g"))
    _ = ui.handle(.paste("o15"))
    _ = ui.handle(.enter)
    #expect(ui.state.match?.cursor == Position(row: 0, column: 14))
  }

  @Test func aCellNumberOnThreeByThree() {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    _ = ui.handle(.character("g"))
    type("7", &ui)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.cursor == Position(row: 2, column: 0))
    #expect(ui.state.match?.game.history.isEmpty == true)
  }

  @Test func inANetworkGameToo() throws {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode)
    _ = ui.handle(.character("g"))
    type("b2", &ui)
    #expect(ui.state.net?.chatField == nil, "letters go to the field, not to chat or resign")
    _ = ui.handle(.enter)
    #expect(ui.state.net?.cursor == Position(row: 13, column: 1))
    #expect(ui.state.net?.goTo == nil)
  }
}

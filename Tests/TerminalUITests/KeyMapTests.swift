import Testing

@testable import TerminalUI

@Suite struct KeyMapTests {
  private func game(_ key: Key, digits: Bool = true) -> Action? {
    KeyMap.action(for: key, in: .game(digitsPlace: digits))
  }
  private func menu(_ key: Key) -> Action? { KeyMap.action(for: key, in: .menu) }

  @Test func arrowsAndVimKeysMoveTheCursor() {
    for (keys, move) in [
      ([Key.up, .character("k")], (-1, 0)), ([.down, .character("j")], (1, 0)),
      ([.left, .character("h")], (0, -1)), ([.right, .character("l")], (0, 1)),
    ] {
      for key in keys { #expect(game(key) == .moveCursor(rows: move.0, columns: move.1)) }
    }
  }

  @Test func enterAndSpacePlace() {
    #expect(game(.enter) == .place)
    #expect(game(.character(" ")) == .place)
  }

  @Test func digitsPlaceOnlyWhenTheBoardIsThreeByThree() {
    for digit in 1...9 {
      let key = Key.character(Character(String(digit)))
      #expect(game(key) == .placeNumber(digit))
      #expect(game(key, digits: false) == nil)
    }
    #expect(game(.character("0")) == nil)
  }

  @Test func gameCommands() {
    #expect(game(.character("u")) == .undo)
    #expect(game(.character("n")) == .newGame)
    #expect(game(.character("?")) == .help)
    #expect(game(.function(1)) == .help)
    #expect(game(.character("q")) == .back)
    #expect(game(.escape) == .back)
    #expect(game(.click(row: 4, column: 9)) == .click(row: 4, column: 9))
    #expect(game(.resize) == .redraw)
    #expect(game(.character("z")) == nil)
  }

  @Test func menuKeys() {
    #expect(menu(.up) == .moveCursor(rows: -1, columns: 0))
    #expect(menu(.character("j")) == .moveCursor(rows: 1, columns: 0))
    #expect(menu(.left) == .adjust(-1))
    #expect(menu(.character("l")) == .adjust(1))
    #expect(menu(.enter) == .select)
    #expect(menu(.escape) == .back)
    #expect(menu(.character("q")) == .back)
    #expect(menu(.function(1)) == .help)
  }

  @Test func anyKeyClosesAnOverlay() {
    #expect(KeyMap.action(for: .character("x"), in: .overlay) == .back)
    #expect(KeyMap.action(for: .resize, in: .overlay) == .redraw)
  }

  @Test func glyphsFollowTheLocale() {
    #expect(Glyphs.choose(environment: ["LANG": "C.UTF-8"], forceASCII: false) == .unicode)
    #expect(Glyphs.choose(environment: ["LANG": "en_US.utf8"], forceASCII: false) == .unicode)
    #expect(Glyphs.choose(environment: ["LANG": "C"], forceASCII: false) == .ascii)
    #expect(Glyphs.choose(environment: [:], forceASCII: false) == .ascii)
    #expect(Glyphs.choose(environment: ["LC_ALL": "C", "LANG": "C.UTF-8"], forceASCII: false) == .ascii)
    #expect(Glyphs.choose(environment: ["LANG": "C.UTF-8"], forceASCII: true) == .ascii)
  }
}

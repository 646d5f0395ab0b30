import Testing

@testable import TerminalUI

/// An Esc that came with more in the same read is a key sequence (Alt+key, a key terminfo does not know for
/// this TERM), never the Esc key: a lone Esc leaves a game, and the sequence's letters are keys of their own.
@Suite struct EscapeSequenceTests {
  private func keys(_ text: String) -> [Key] {
    text.map { $0 == "\u{1B}" ? Key.escape : .character($0) }
  }

  @Test func aLoneEscIsEsc() {
    #expect(KeyMap.droppingEscapeSequences([.escape]) == [.escape])
    #expect(KeyMap.droppingEscapeSequences([.character("h"), .escape]) == [.character("h"), .escape])
  }

  @Test(arguments: [
    "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[H", "\u{1B}[F", "\u{1B}OH", "\u{1B}OF", "\u{1B}[1;5C", "\u{1B}[200~",
  ])
  func homeAndEndUnderAnotherTermAreNeitherEscNorLetters(sequence: String) {
    #expect(KeyMap.droppingEscapeSequences(keys(sequence)) == [])
    // In the game's key map none of it means anything: no back, no move.
    let after = KeyMap.droppingEscapeSequences(keys(sequence + "l"))
    #expect(after == [.character("l")], "the key after the sequence is kept")
  }

  @Test func altAndAKeyIsNotEsc() {
    #expect(KeyMap.droppingEscapeSequences(keys("\u{1B}x")) == [])
    #expect(KeyMap.droppingEscapeSequences(keys("\u{1B}q")) == [], "Alt+q does not leave")
    #expect(KeyMap.droppingEscapeSequences([.escape, .up]) == [.up], "Alt+Up is still Up")
  }

  @Test func aSequenceEndsAtItsFinalByte() {
    // A control sequence's parameters run to its final byte; what follows is typed text.
    #expect(KeyMap.droppingEscapeSequences(keys("\u{1B}[12;3Rab")) == [.character("a"), .character("b")])
    #expect(KeyMap.droppingEscapeSequences(keys("\u{1B}[")) == [], "a sequence cut short is dropped whole")
  }
}

import Testing

@testable import TerminalUI

@Suite struct TextFieldTests {
  /// A field holding `text` with the cursor before the character at `cursor` (typed, then moved with Left).
  static func field(_ text: String, cursor: Int? = nil, limit: Int = 100) -> TextField {
    var field = TextField(text, limit: limit)
    for _ in 0..<(text.count - (cursor ?? text.count)) { field.handle(.left) }
    return field
  }

  /// Applies `keys` and returns the text with `|` where the cursor is.
  static func after(_ field: TextField, _ keys: Key...) -> String {
    var field = field
    for key in keys {
      let used = field.handle(key)
      #expect(used, "\(key) is an editing key")
    }
    var shown = field.characters
    shown.insert("|", at: field.cursor)
    return String(shown)
  }

  @Test("moving: Left, Right, Home, End and Ctrl-A, Ctrl-E, stopping at the ends")
  func moving() {
    let field = Self.field("abc")
    #expect(Self.after(field, .left) == "ab|c")
    #expect(Self.after(field, .left, .left, .left, .left) == "|abc")
    #expect(Self.after(field, .right) == "abc|")
    #expect(Self.after(field, .home) == "|abc")
    #expect(Self.after(field, .control("a")) == "|abc")
    #expect(Self.after(field, .home, .end) == "abc|")
    #expect(Self.after(field, .home, .control("e")) == "abc|")
  }

  @Test("typing inserts at the cursor")
  func typing() {
    #expect(Self.after(Self.field("ac", cursor: 1), .character("b")) == "ab|c")
    #expect(Self.after(Self.field("ad", cursor: 1), .paste("bc")) == "abc|d")
  }

  @Test("deleting: Backspace before, Delete and Ctrl-D under, Ctrl-U to the start, Ctrl-K to the end")
  func deleting() {
    let field = Self.field("abcd", cursor: 2)
    #expect(Self.after(field, .backspace) == "a|cd")
    #expect(Self.after(field, .delete) == "ab|d")
    #expect(Self.after(field, .control("d")) == "ab|d")
    #expect(Self.after(field, .control("u")) == "|cd")
    #expect(Self.after(field, .control("k")) == "ab|")
    #expect(Self.after(Self.field("ab", cursor: 0), .backspace) == "|ab")
    #expect(Self.after(Self.field("ab"), .delete) == "ab|")
  }

  @Test("Ctrl-W deletes the word before the cursor and the spaces after it")
  func deletingAWord() {
    #expect(Self.after(Self.field("join alice.example  "), .control("w")) == "join |")
    #expect(Self.after(Self.field("one two three", cursor: 7), .control("w")) == "one | three")
    #expect(Self.after(Self.field("word"), .control("w"), .control("w")) == "|")
  }

  @Test("Enter, Esc, Up, Down and other control keys are the screen's, not the field's")
  func notEditingKeys() {
    var field = Self.field("abc")
    for key in [Key.enter, .escape, .up, .down, .tab, .control("l"), .resize, .function(1)] {
      let used = field.handle(key)
      #expect(!used, "\(key)")
    }
    #expect(field.text == "abc" && field.cursor == 3)
  }

  @Test("the limit is in UTF-8 bytes and never splits a character; controls and line breaks are dropped")
  func limitsAndCleaning() {
    var field = TextField(limit: 5)
    field.insert("ab\u{1B}]2;x\u{07}\ncé")
    // ESC and BEL are unsafe and dropped; "]2;x" are printable; the newline is dropped.
    #expect(field.text == "ab]2;")
    var accents = TextField(limit: 5)
    accents.insert("ééé")
    #expect(accents.text == "éé", "a third é (2 bytes) would make 6")
    accents.handle(.character("x"))
    #expect(accents.text == "ééx")
    accents.handle(.character("y"))
    #expect(accents.text == "ééx", "full")
    #expect(TextField("a\u{202E}b", limit: 10).text == "ab", "a bidi override is dropped")
  }

  @Test("the window shows the end of a long text and follows the cursor left")
  func window() {
    let short = Self.field("abc")
    #expect(short.window(width: 10) == ("abc", 3))
    let long = Self.field("0123456789")
    #expect(long.window(width: 5) == ("6789", 4), "the cursor after the last character, in the last column")
    let middle = Self.field("0123456789", cursor: 3)
    #expect(middle.window(width: 5) == ("23456", 1), "one character of context before the cursor")
    let start = Self.field("0123456789", cursor: 0)
    #expect(start.window(width: 5) == ("01234", 0))
    let exact = Self.field("01234")
    #expect(exact.window(width: 5) == ("1234", 4))
    for cursor in 0...10 {
      let (text, column) = Self.field("0123456789", cursor: cursor).window(width: 4)
      #expect(text.count <= 4 && (0..<4).contains(column), "cursor \(cursor): \(text) \(column)")
      let shown = Array(text)
      if cursor < 10 { #expect(shown[column] == Array("0123456789")[cursor], "the cursor's character is shown") }
    }
  }
}

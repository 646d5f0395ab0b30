import Testing

@testable import WireProtocol

/// Names and software versions in `hello` are shown on the other screen: what could not be shown as it is
/// is refused when decoded, with the character named.
@Suite struct NameCheckTests {
  private func decodeHello(name: String, software: String = "tictactoe 0.2.0") throws(WireError) -> Message? {
    try Message.decode(Message.hello(versions: [1], name: name, software: software).frame)
  }

  @Test(arguments: [
    ("ma\u{1B}]2;x\u{07}", "U+001B"), ("a\u{0}b", "U+0000"), ("line\nbreak", "U+000A"), ("c1\u{9B}", "U+009B"),
    ("del\u{7F}", "U+007F"), ("\u{202E}ecila", "U+202E"), ("alice\u{200B}", "U+200B"), ("\u{2066}x", "U+2066"),
    ("bom\u{FEFF}", "U+FEFF"), ("p\u{2029}", "U+2029"),
  ])
  func aNameWithAControlBidiOrInvisibleCharacterIsRefused(name: String, code: String) {
    #expect(
      throws: WireError.badValue(
        "player name", reason: "it contains \(code), a control, bidirectional or invisible character")
    ) {
      try decodeHello(name: name)
    }
  }

  @Test func ordinaryNamesInAnyScriptPass() throws {
    for name in ["alice", "Zoë", "王小明", "🦊 fox", "O'Brien", "José María", "👩‍👩‍👧"] {
      #expect(try decodeHello(name: name) == .hello(versions: [1], name: name, software: "tictactoe 0.2.0"))
    }
  }

  @Test func aNameIsAtMost32CharactersAndNotOnlySpaces() throws {
    let longest = String(repeating: "é", count: 32)
    #expect(try decodeHello(name: longest) != nil)
    #expect(throws: WireError.badValue("player name", reason: "it has 33 characters (at most 32)")) {
      try decodeHello(name: String(repeating: "a", count: 33))
    }
    #expect(throws: WireError.badValue("player name", reason: "it is only spaces")) { try decodeHello(name: "   ") }
  }

  @Test func theSoftwareVersionIsCheckedToo() {
    #expect(
      throws: WireError.badValue(
        "software version", reason: "it contains U+001B, a control, bidirectional or invisible character")
    ) {
      try decodeHello(name: "bob", software: "evil\u{1B}[2J")
    }
  }
}

import Testing
import UntrustedText

@Suite("Peer text on its way to a terminal or log")
struct VisibleTextTests {
  @Test("ordinary names, accents, CJK and emoji pass unchanged")
  func safeTextIsUnchanged() {
    for text in ["alice", "Zoë", "王小明", "🦊 fox", "a\\b", "O'Brien – \"ok\""] {
      #expect(VisibleText.escaping(text) == text)
    }
  }

  @Test("escape sequences, OSC titles and clipboard writes become visible")
  func terminalControlIsEscaped() {
    #expect(VisibleText.escaping("\u{1B}]2;pwned\u{07}") == "\\x1B]2;pwned\\x07")
    #expect(VisibleText.escaping("\u{1B}]52;c;Y3VybA==\u{1B}\\") == "\\x1B]52;c;Y3VybA==\\x1B\\")
    #expect(VisibleText.escaping("\u{1B}[2J\u{1B}[HFAKE") == "\\x1B[2J\\x1B[HFAKE")
    #expect(VisibleText.escaping("\u{9B}31m") == "\\x9B31m")  // the one-byte C1 CSI
    #expect(VisibleText.escaping("a\u{7F}b") == "a\\x7Fb")
  }

  @Test("newlines, carriage returns, tabs and NUL cannot start or cut a line")
  func lineBreaksAndNulAreEscaped() {
    #expect(VisibleText.escaping("bob\nalice wins!") == "bob\\nalice wins!")
    #expect(VisibleText.escaping("x\r\ny") == "x\\r\\ny")
    #expect(VisibleText.escaping("a\tb") == "a\\tb")
    #expect(VisibleText.escaping("al\u{0}ice") == "al\\x00ice")
    #expect(VisibleText.escaping("a\u{2028}b\u{2029}") == "a\\u{2028}b\\u{2029}")
  }

  @Test("bidirectional controls and invisible characters are shown, so lookalike names differ on screen")
  func bidiAndInvisiblesAreEscaped() {
    #expect(VisibleText.escaping("alice\u{200B}") == "alice\\u{200B}")
    #expect(VisibleText.escaping("\u{202E}ecila") == "\\u{202E}ecila")
    #expect(VisibleText.escaping("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
    #expect(VisibleText.escaping("\u{FEFF}bob") == "\\u{FEFF}bob")
    #expect(VisibleText.escaping("a\u{00AD}b") == "a\\xADb")
  }

  @Test("every escaped result is itself safe: no unsafe scalar survives")
  func outputIsAlwaysSafe() {
    var scalars: [Unicode.Scalar] = []
    for value in UInt32(0)...0x3000 {
      if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    let shown = VisibleText.escaping(text)
    #expect(!shown.unicodeScalars.contains(where: VisibleText.isUnsafe))
  }

  @Test("a PeerText interpolates sanitised and keeps its raw characters for comparison")
  func peerTextInterpolatesSanitised() {
    let name = PeerText("mallory\u{1B}[2J")
    #expect("\(name)" == "mallory\\x1B[2J")
    #expect(name.unsanitised == "mallory\u{1B}[2J")
    #expect(String(describing: name) == "mallory\\x1B[2J")
  }
}

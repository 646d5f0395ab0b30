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

  /// What must never reach a terminal, decided from Unicode's own data and not from the sanitiser's list (a test
  /// that asked the sanitiser would pass whatever its list said):
  /// - every control (Cc: C0, DEL, C1) and every line or paragraph separator (Zl, Zp);
  /// - every bidirectional control (the Bidi_Control property: U+061C, U+200E, U+200F, the embeddings,
  ///   overrides and isolates), which reorder what is shown;
  /// - every format character (Cf) that is a default-ignorable code point, which shows as nothing and so makes
  ///   two names look the same, except the two joiners (U+200C, U+200D) and the emoji tags (U+E0020–U+E007F),
  ///   which scripts and emoji need to be spelt at all.
  /// Surrogates (Cs) cannot occur in a Swift string. Private-use (Co) and unassigned (Cn) scalars pass: a terminal
  /// shows them as a glyph or a box, they move nothing.
  static func mustBeEscaped(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    switch properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: return true
    case .format:
      if properties.isBidiControl { return true }
      let neededToSpell = scalar.value == 0x200C || scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)
      return properties.isDefaultIgnorableCodePoint && !neededToSpell
    default:
      return properties.isBidiControl
    }
  }

  static let allScalars: [Unicode.Scalar] = (UInt32(0)...0x10_FFFF).compactMap(Unicode.Scalar.init)

  /// Printable ASCII is returned as it is without a scalar-by-scalar look: every other ASCII byte inside
  /// otherwise printable text still sends it the long way, and is escaped there.
  @Test("each ASCII control inside printable ASCII is escaped; printable ASCII is unchanged")
  func asciiControlsInsidePlainTextAreEscaped() {
    let plain = String(decoding: Array(UInt8(0x20)...UInt8(0x7E)), as: UTF8.self)
    #expect(VisibleText.escaping(plain) == plain)
    for byte in Array(UInt8(0x00)...UInt8(0x1F)) + [0x7F] {
      let text = "bob" + String(UnicodeScalar(byte)) + "by"
      let shown = VisibleText.escaping(text)
      #expect(shown != text, "byte \(byte)")
      #expect(shown.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "byte \(byte): \(shown)")
    }
  }

  @Test("every scalar Unicode says must not reach a terminal is escaped, alone and within text")
  func everyScalarThatMustNotReachATerminalIsEscaped() {
    #expect(Self.allScalars.count == 0x11_0000 - 0x800, "every scalar but the surrogates")
    let dangerous = Self.allScalars.filter(Self.mustBeEscaped)
    #expect(dangerous.count > 100)
    var missed: [String] = []
    for scalar in dangerous {
      let alone = VisibleText.escaping(String(scalar))
      if alone == String(scalar) || alone.unicodeScalars.contains(where: { !(0x20...0x7E).contains($0.value) }) {
        missed.append("U+" + String(scalar.value, radix: 16, uppercase: true))
      }
    }
    #expect(missed.isEmpty, "reach the terminal as they are: \(missed.joined(separator: " "))")
    var text = ""
    text.unicodeScalars.append(contentsOf: Self.allScalars)
    let leaked = VisibleText.escaping(text).unicodeScalars.filter(Self.mustBeEscaped)
    #expect(leaked.isEmpty, "within text: \(leaked.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
    // The bidirectional controls by name, the ones a shorter list would most likely lose.
    for value: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069] {
      let scalar = Unicode.Scalar(value)!
      #expect(Self.mustBeEscaped(scalar))
      #expect(
        VisibleText.escaping("a\(scalar)b") == "a\\u{\(String(value, radix: 16, uppercase: true).leftPadded(4))}b")
    }
  }

  @Test("letters, marks, numbers, punctuation, symbols and spaces pass unchanged, whatever the script")
  func everyScalarAWordIsMadeOfIsKept() {
    var changed: [String] = []
    for scalar in Self.allScalars {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: continue
      default:
        if VisibleText.escaping(String(scalar)) != String(scalar) {
          changed.append("U+" + String(scalar.value, radix: 16, uppercase: true))
        }
      }
    }
    #expect(changed.isEmpty, "escaped though printable: \(changed.prefix(50).joined(separator: " "))")
  }

  @Test("a PeerText interpolates sanitised and keeps its raw characters for comparison")
  func peerTextInterpolatesSanitised() {
    let name = PeerText("mallory\u{1B}[2J")
    #expect("\(name)" == "mallory\\x1B[2J")
    #expect(name.unsanitised == "mallory\u{1B}[2J")
    #expect(String(describing: name) == "mallory\\x1B[2J")
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

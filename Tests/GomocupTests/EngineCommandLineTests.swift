import Gomocup
import Testing

/// An engine's command split into words the way the documentation says, never through a shell.
@Suite("Engine command words")
struct EngineCommandLineTests {
  @Test("spaces separate; quotes and backslashes keep what they hold; nothing else is special")
  func words() throws {
    let cases: [(String, [String])] = [
      ("pbrain-x", ["pbrain-x"]),
      ("  python3   brain.py\t--fast ", ["python3", "brain.py", "--fast"]),
      ("'/opt/my engines/brain' -v", ["/opt/my engines/brain", "-v"]),
      ("brain \"a \\\"b\\\" c\" 'x\\y'", ["brain", "a \"b\" c", "x\\y"]),
      ("brain \"a\\nb\"", ["brain", "a\\nb"]),
      ("brain a\\ b", ["brain", "a b"]),
      ("brain ''", ["brain", ""]),
      (
        "brain $HOME `id` ; rm -rf * | cat > f",
        ["brain", "$HOME", "`id`", ";", "rm", "-rf", "*", "|", "cat", ">", "f"]
      ),
      ("br'ai'n\"x\"", ["brainx"]),
    ]
    for (text, expected) in cases {
      #expect(try EngineCommandLine.words(text).get() == expected, "\(text)")
    }
  }

  @Test("empty, unclosed quotes, a last backslash, line ends and too long are refused")
  func refused() {
    let cases: [(String, EngineCommandError)] = [
      ("", .empty), ("   ", .empty), ("''", .empty), ("brain 'x", .unclosedQuote("'")),
      ("brain \"x", .unclosedQuote("\"")),
      ("brain \\", .trailingBackslash), ("brain\nrm", .controlCharacter), ("brain \u{1B}", .controlCharacter),
      (String(repeating: "a", count: 5000), .tooLong(EngineCommandLine.limit)),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text.prefix(20))") { try EngineCommandLine.words(text).get() }
    }
  }
}

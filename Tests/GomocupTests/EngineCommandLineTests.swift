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

/// Bytes cut into lines with a bound.
@Suite("Protocol line splitter")
struct LineSplitterTests {
  @Test("LF and CR LF end lines, across any cut of the bytes; a last line without an end comes at the finish")
  func lines() {
    let text = Array("START 15\r\nBEGIN\nTURN 1,2\r\nEND".utf8)
    for cut in 0...text.count {
      var splitter = LineSplitter()
      let lines = splitter.feed(text[..<cut]) + splitter.feed(text[cut...]) + splitter.finish()
      #expect(lines == ["START 15", "BEGIN", "TURN 1,2", "END"], "cut at \(cut)")
    }
  }

  @Test("a line of any length is kept as one line of lineLimit + 1 bytes, the next line whole")
  func longLines() {
    var splitter = LineSplitter()
    var lines: [String] = []
    for _ in 0..<100 { lines += splitter.feed(Array(repeating: UInt8(ascii: "A"), count: 10_000)) }
    lines += splitter.feed(Array("\r\nOK\r\n".utf8))
    #expect(lines.count == 2)
    #expect(lines.first?.utf8.count == ProtocolText.lineLimit + 1)
    #expect(lines.last == "OK")
  }
}

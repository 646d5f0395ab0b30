import Gomocup
import Testing

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

import Glibc
import Testing

@testable import App
@testable import OutsideEngines

/// Standard input a line at a time, without blocking; input with no line end does not grow it without end.
@Suite struct LineReaderTests {
  private func pipeWith(_ bytes: [UInt8]) -> Int32 {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    let writer = fds[1]
    _ = fcntl(writer, 1031, 1 << 20)  // F_SETPIPE_SZ (Linux; not imported): room for it all before it is read
    _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    close(writer)
    return fds[0]
  }

  @Test func linesComeWholeWithoutTheirEndsAndTheLastOneAtTheEnd() {
    let fd = pipeWith(Array("5\r\nquit\nno end".utf8))
    defer { close(fd) }
    var reader = LineReader(fd: fd)
    var lines: [String] = []
    while !reader.closed { lines += reader.readLines() }
    #expect(lines == ["5", "quit", "no end"])
  }

  @Test func inputWithNoLineEndIsTakenALongLineAtATime() {
    let fd = pipeWith([UInt8](repeating: 0, count: LineReader.lineLimit + 100))
    defer { close(fd) }
    var reader = LineReader(fd: fd)
    var lines: [String] = []
    while !reader.closed { lines += reader.readLines() }
    #expect(lines.map(\.utf8.count) == [LineReader.lineLimit, 100])
  }
}

import Glibc
import Testing

@testable import PlayerFiles

/// The log of a service run by systemd: its lines go to the journal's stream (standard error, as
/// `JOURNAL_STREAM` names it), not to a file.
@Suite struct LogJournalTests {
  /// A pipe standing for the journal's stream; its read end, its write end and its `JOURNAL_STREAM` value.
  private func stream() throws -> (read: Int32, write: Int32, name: String) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    var info = stat()
    try #require(fstat(ends[1], &info) == 0)
    return (ends[0], ends[1], "\(info.st_dev):\(info.st_ino)")
  }

  @Test func theLinesGoToTheStreamJournalStreamNames() throws {
    let (readEnd, writeEnd, name) = try stream()
    defer { close(readEnd) }
    let log = try #require(Log.journal(environment: ["JOURNAL_STREAM": name], descriptor: writeEnd))
    close(writeEnd)
    #expect(log.isJournal && log.place == "the journal")
    log.write("bot stopped: line\nforged")
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(readEnd, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    #expect(text.hasSuffix("] bot stopped: line\\nforged\n"), "one line, escaped as in the file: \(text)")
  }

  @Test func anotherStreamOrNoneIsNotTheJournal() throws {
    let (readEnd, writeEnd, name) = try stream()
    let other = try stream()
    defer { for fd in [readEnd, writeEnd, other.read, other.write] { close(fd) } }
    #expect(Log.journal(environment: [:], descriptor: writeEnd) == nil)
    #expect(Log.journal(environment: ["JOURNAL_STREAM": name + "1"], descriptor: writeEnd) == nil)
    #expect(Log.journal(environment: ["JOURNAL_STREAM": name], descriptor: other.write) == nil, "another stream")
    let directory = try makeTemporaryDirectory()
    let file = Log(path: directory + "/x.log")
    #expect(!file.isJournal && file.place == directory + "/x.log")
  }
}

import Foundation
import GameCore
import GameRecords
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import PlayerFiles

/// The index on disk: made from the records, used while a file is unchanged, brought up to date when it changes.
@Suite struct TallyIndexFileTests {
  private func directory(with results: [RecordResult]) throws -> (String, [String]) {
    let folder = try TestDirectory.make("tally") + "/games"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var names: [String] = []
    for (index, result) in results.enumerated() {
      var record = GameArchiveTests.record
      record.result = result
      let name = RecordDirectory.fileName(year: 2026, month: 12, day: 1, secondOfDay: index, millisecond: 0, random: 1)
      try AtomicFile.write(record.sgf, to: folder + "/" + name)
      names.append(name)
    }
    return (folder, names)
  }

  private func results(_ folder: String) -> [RecordResult] {
    TallyIndexFile.summaries(folder).map(\.result).sorted { "\($0)" < "\($1)" }
  }

  @Test func theIndexIsMadeFromTheRecordsAndFollowsTheirChanges() throws {
    let (folder, names) = try directory(with: [.won(.x, .line), .drawn(.full)])
    #expect(results(folder) == [.won(.x, .line), .drawn(.full)].sorted { "\($0)" < "\($1)" })
    let index = try String(contentsOfFile: folder + "/.tally-index", encoding: .utf8)
    #expect(index.split(separator: "\n").count == 2)
    // A record changed (another result, another size): read again.
    var changed = GameArchiveTests.record
    changed.result = .won(.o, .resignation)
    changed.black.name = "someone else"
    try AtomicFile.write(changed.sgf, to: folder + "/" + names[1])
    #expect(results(folder) == [.won(.o, .line), .won(.x, .line)].sorted { "\($0)" < "\($1)" })
    // A record removed: dropped from the index.
    try FileManager.default.removeItem(atPath: folder + "/" + names[0])
    #expect(results(folder) == [.won(.o, .line)])
    #expect(try String(contentsOfFile: folder + "/.tally-index", encoding: .utf8).split(separator: "\n").count == 1)
  }

  @Test func aCorruptIndexIsRebuiltAndAnEntryIsUsedWhileItsFileIsUnchanged() throws {
    let (folder, _) = try directory(with: [.won(.x, .line)])
    try "garbage\n\u{0}\n".write(toFile: folder + "/.tally-index", atomically: true, encoding: .utf8)
    #expect(results(folder) == [.won(.x, .line)])
    let index = try String(contentsOfFile: folder + "/.tally-index", encoding: .utf8)
    #expect(index.hasSuffix("\tB\n") && !index.contains("garbage"))
    // The index is what is read while the file keeps its size and time: an entry saying otherwise is believed.
    try index.replacingOccurrences(of: "\tB\n", with: "\tW\n").write(
      toFile: folder + "/.tally-index", atomically: true, encoding: .utf8)
    #expect(results(folder) == [.won(.o, .line)])
  }

  @Test func noRecordsDirectoryIsNotMade() {
    let folder = TestDirectory.path("none") + "/games"
    #expect(TallyIndexFile.summaries(folder).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder))
  }
}

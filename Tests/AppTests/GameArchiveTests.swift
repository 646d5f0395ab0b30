import Foundation
import GameCore
import GameRecords
import PlayerSettings
import Session
import TerminalUI
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination
@testable import PlayerFiles

/// Where finished games go: one SGF file each, private, under a size cap; a failure told once and never fatal.
@Suite struct GameArchiveTests {
  private func setUp(enabled: Bool = true, cap: Int = RecordDirectory.defaultCap) throws -> (
    GameArchive, Paths, Reports
  ) {
    let root = try TestDirectory.make("archive")
    let paths = Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
    let reports = Reports()
    let log = Log(path: root + "/log", maximumBytes: 65536)
    let archive = GameArchive(paths: paths, enabled: enabled, log: log, cap: cap) { reports.texts.append($0) }
    return (archive, paths, reports)
  }

  final class Reports: @unchecked Sendable { var texts: [String] = [] }

  static let record = RecordOfGame.local(
    game: try! Game(rules: .standard, moves: [0, 1, 3, 4, 6].map { Position(cellNumber: $0 + 1, rules: .standard)! }),
    opponent: .computer(.perfect), humanMark: .o, playerName: "alice", date: "2026-12-01")!

  @Test func writesEachGameAsAPrivateSGFFileThatReadsBack() throws {
    let (archive, paths, reports) = try setUp()
    let path = try #require(archive.keep(Self.record))
    #expect(path.hasPrefix(paths.data + "/games/"))
    #expect(RecordDirectory.isRecordName(URL(fileURLWithPath: path).lastPathComponent))
    #expect(try GameRecord.parse(String(contentsOfFile: path, encoding: .utf8)) == Self.record)
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    #expect(try FileManager.default.attributesOfItem(atPath: paths.data + "/games")[.posixPermissions] as? Int == 0o700)
    #expect(archive.keep(Self.record) != path, "a second game gets a file of its own")
    #expect(try FileManager.default.contentsOfDirectory(atPath: paths.data + "/games").count == 2)
    #expect(reports.texts.isEmpty)
  }

  @Test func aGameWrittenAgainUnderItsKeyReplacesItsFile() throws {
    let (archive, paths, _) = try setUp()
    let first = try #require(archive.keep(Self.record, key: 7))
    var again = Self.record
    again.result = .drawn(.full)
    #expect(archive.keep(again, key: 7) == first)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: paths.data + "/games") == [
        URL(fileURLWithPath: first).lastPathComponent
      ])
    #expect(try GameRecord.parse(String(contentsOfFile: first, encoding: .utf8)).result == .drawn(.full))
  }

  @Test func recordsOffWritesNothing() throws {
    let (archive, paths, _) = try setUp(enabled: false)
    #expect(archive.keep(Self.record) == nil)
    #expect(!FileManager.default.fileExists(atPath: paths.data + "/games"))
  }

  @Test func anUnwritableDirectoryIsReportedOnceAndNeverThrows() throws {
    let (archive, paths, reports) = try setUp()
    try FileManager.default.createDirectory(atPath: paths.data, withIntermediateDirectories: true)
    // A file where the directory should be: nothing can be written under it (even by root).
    #expect(FileManager.default.createFile(atPath: paths.data + "/games", contents: Data("x".utf8)))
    #expect(archive.keep(Self.record) == nil)
    #expect(archive.keep(Self.record) == nil)
    #expect(reports.texts.count == 1)
    #expect(reports.texts.first?.hasPrefix("The game record could not be saved (") == true)
    #expect(reports.texts.first?.hasSuffix("); the game goes on.") == true)
  }

  @Test func theOldestRecordsGoWhenTheDirectoryIsOverItsCap() throws {
    let size = Self.record.sgf.utf8.count
    let (archive, paths, _) = try setUp(cap: size * 3)
    let directory = paths.data + "/games"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let old = [
      "2020-01-01T00-00-00-000Z-000001.sgf", "2020-01-02T00-00-00-000Z-000002.sgf",
      "2020-01-03T00-00-00-000Z-000003.sgf",
    ]
    for name in old + ["notes.txt"] {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(Self.record.sgf.utf8)))
    }
    let new = try #require(archive.keep(Self.record))
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    #expect(left == [old[1], old[2], "notes.txt", URL(fileURLWithPath: new).lastPathComponent])
  }

  @Test func capDecisions() {
    let entries = [("b", 10), ("a", 10), ("c", 10)].map { (name: $0.0, bytes: $0.1) }
    #expect(RecordDirectory.overCap(entries, cap: 30) == [])
    #expect(RecordDirectory.overCap(entries, cap: 29) == ["a"])
    #expect(RecordDirectory.overCap(entries, cap: 10) == ["a", "b"])
    #expect(RecordDirectory.overCap(entries, cap: 0) == ["a", "b"], "the newest is kept")
  }

  @Test func fileNamesSortByTimeAndAreRecognised() {
    let name = RecordDirectory.fileName(
      year: 2026, month: 12, day: 1, secondOfDay: 3723, millisecond: 45, random: 0xAB)
    #expect(name == "2026-12-01T01-02-03-045Z-0000ab.sgf")
    #expect(RecordDirectory.isRecordName(name))
    let later = RecordDirectory.fileName(
      year: 2026, month: 12, day: 1, secondOfDay: 3723, millisecond: 46, random: 0)
    #expect(name < later)
    let others = [
      "notes.txt", name + ".tmp", "." + name, "x.sgf", "2026-12-01T01-02-03-045Z-0000aG.sgf",
      "2026-12-01T01-02-03x045Z-0000ab.sgf",
    ]
    for other in others {
      #expect(!RecordDirectory.isRecordName(other), "\(other)")
    }
  }

  @Test func settingsTurnRecordsOff() throws {
    #expect(try SettingsFile.parse("records = off\n", path: "s").records == false)
    #expect(try SettingsFile.parse("", path: "s").records == true)
    var settings = Settings()
    settings.records = false
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s").records == false)
    #expect(throws: FileError.self) { try SettingsFile.parse("records = maybe\n", path: "s") }
  }
}

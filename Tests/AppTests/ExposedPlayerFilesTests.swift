import Foundation
import GameCore
import GameRecords
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination
@testable import PlayerFiles
@testable import PracticeBot

/// The game records and the log follow the rules of the player's other files (settings, known_peers): nothing is
/// written into a directory others may write, through a symbolic link, or into a file others may change.
@Suite struct ExposedPlayerFilesTests {
  final class Reports: @unchecked Sendable { var texts: [String] = [] }

  static let record = RecordOfGame.local(
    game: try! Game(rules: .standard, moves: [0, 1, 3, 4, 6].map { Position(cellNumber: $0 + 1, rules: .standard)! }),
    opponent: .computer(.perfect), humanMark: .o, playerName: "alice", date: "2026-12-01")!

  private func names(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  @Test func noRecordGoesIntoAGamesDirectoryOthersMayWrite() throws {
    let root = try TestDirectory.make("exposed-games")
    let paths = Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
    let games = paths.data + "/games"
    try FileManager.default.createDirectory(atPath: games, withIntermediateDirectories: true)
    #expect(chmod(games, 0o777) == 0)
    let reports = Reports()
    let log = Log(path: root + "/log")
    let archive = GameArchive(paths: paths, enabled: true, log: log) { reports.texts.append($0) }
    #expect(archive.keep(Self.record) == nil)
    #expect(try names(games).isEmpty)
    #expect(reports.texts.count == 1 && reports.texts[0].contains("chmod 700 \(games)"), "\(reports.texts)")
    // The bot's day collections neither.
    let written = BotCollection.store(
      [BotCollection.Game(record: Self.record, day: "2026-12-01")], in: games, cap: RecordDirectory.defaultCap)
    #expect(written.failure?.contains("chmod 700 \(games)") == true, "\(String(describing: written.failure))")
    #expect(try names(games).isEmpty)
    // Once it is the player's alone, records are written again.
    #expect(chmod(games, 0o700) == 0)
    #expect(archive.keep(Self.record) != nil)
  }

  @Test func theLogIsNotWrittenThroughALink() throws {
    let root = try TestDirectory.make("log-link")
    let elsewhere = root + "/elsewhere"
    try "".write(toFile: elsewhere, atomically: true, encoding: .utf8)
    #expect(symlink(elsewhere, root + "/tictactoe.log") == 0)
    let log = Log(path: root + "/tictactoe.log")
    log.write("a line that must not land elsewhere")
    #expect(try String(contentsOfFile: elsewhere, encoding: .utf8).isEmpty)
    #expect(log.problem?.contains("symbolic link") == true, "\(String(describing: log.problem))")
  }

  @Test func theLogIsNotWrittenWhereOthersMayChangeIt() throws {
    let root = try TestDirectory.make("log-exposed")
    let open = root + "/open"
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
    #expect(chmod(open, 0o777) == 0)
    let inOpen = Log(path: open + "/tictactoe.log")
    inOpen.write("x")
    #expect(try names(open).isEmpty)
    #expect(inOpen.problem?.contains("chmod 700 \(open)") == true, "\(String(describing: inOpen.problem))")

    let shared = root + "/shared.log"
    try "".write(toFile: shared, atomically: true, encoding: .utf8)
    #expect(chmod(shared, 0o666) == 0)
    let writable = Log(path: shared)
    writable.write("x")
    #expect(try String(contentsOfFile: shared, encoding: .utf8).isEmpty)
    #expect(writable.problem?.contains("chmod 600 \(shared)") == true, "\(String(describing: writable.problem))")

    let mine = Log(path: root + "/mine.log")
    mine.write("x")
    #expect(mine.problem == nil)
    #expect(try String(contentsOfFile: root + "/mine.log", encoding: .utf8).hasSuffix(" x\n"))
  }
}

import Foundation
import GameCore
import GameRecords
import PlayerFiles
import TerminalUI
import TestSupport
import Testing

@testable import App
@testable import FrontEnds

/// Issue 29, item 6: a finished local game taken back was not played that way: its record goes, and a game
/// finished another way afterwards is recorded as it ended.
@Suite struct UndoneGameRecordTests {
  private func recorder() throws -> (LocalGameRecorder, String) {
    let root = try TestDirectory.make("undo-record")
    let paths = Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
    let log = Log(path: root + "/log", maximumBytes: 65536)
    let archive = GameArchive(paths: paths, enabled: true, log: log) { Issue.record("reported: \($0)") }
    return (LocalGameRecorder(archive: archive, playerName: "carol"), paths.data + "/games")
  }

  private func records(_ directory: String) -> [GameRecord] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter(RecordDirectory.isRecordName).compactMap {
      try? GameRecord.parse(String(contentsOfFile: directory + "/" + $0, encoding: .utf8))
    }
  }

  private func play(_ cells: [Int], on match: inout Match) throws {
    for cell in cells { try match.game.play(try #require(Position(cellNumber: cell, rules: .standard))) }
  }

  @Test func undoingAFinishedGameRemovesItsRecord() throws {
    let (recorder, directory) = try recorder()
    var match = Match(opponent: .hotseat, rules: .standard, humanMark: .x)
    try play([1, 4, 2, 5, 3], on: &match)
    recorder.update(match)
    #expect(records(directory).map(\.result) == [.won(.x, .line)])
    match.game.undo()
    recorder.update(match)
    #expect(records(directory).isEmpty, "the undone game is still listed")
    // Finished another way (X 7, O 6 completes 4-5-6): recorded as it ended, once.
    try play([7], on: &match)
    recorder.update(match)
    #expect(records(directory).isEmpty)
    try play([6], on: &match)
    recorder.update(match)
    recorder.update(match)
    let kept = records(directory)
    #expect(kept.count == 1 && kept.first?.result == .won(.o, .line), "\(kept.map(\.result))")
  }

  @Test func aGameInProgressAndAnotherFinishedGameKeepTheirRecords() throws {
    let (recorder, directory) = try recorder()
    var first = Match(opponent: .hotseat, rules: .standard, humanMark: .x)
    try play([1, 4, 2, 5, 3], on: &first)
    recorder.update(first)
    var second = Match(opponent: .hotseat, rules: .standard, humanMark: .x)
    second.number = first.number + 1
    try play([5], on: &second)
    recorder.update(second)
    #expect(records(directory).count == 1, "a new game (n) does not take the last one's record")
  }
}

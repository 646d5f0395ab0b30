import Foundation
import GameRecords
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import PlayerFiles
@testable import PracticeBot

/// The bot's day collections: games appended, one file a day, never through a link, the oldest days removed.
@Suite struct BotCollectionTests {
  /// A write handed to the worker (`BotCollection.run`), run by the test when it chooses.
  typealias Job = (work: @Sendable () -> BotCollection.Written, done: (BotCollection.Written) -> Void)

  private func setUp(cap: Int = RecordDirectory.defaultCap) throws -> (BotCollection, String) {
    let root = try TestDirectory.make("bot-records")
    let paths = Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
    let collection = BotCollection(
      paths: paths, enabled: true, log: Log(path: root + "/log", maximumBytes: 65536), cap: cap)
    return (collection, paths.data + "/games")
  }

  @Test func gamesOfADayAreAppendedToItsCollection() throws {
    let (collection, directory) = try setUp()
    var second = GameArchiveTests.record
    second.result = .won(.o, .resignation)
    #expect(collection.append(GameArchiveTests.record, day: "2026-12-01") == directory + "/bot-2026-12-01.sgf")
    collection.append(second, day: "2026-12-01")
    collection.append(second, day: "2026-12-02")
    let text = try String(contentsOfFile: directory + "/bot-2026-12-01.sgf", encoding: .utf8)
    #expect(try GameRecord.parseCollection(text) == [GameArchiveTests.record, second])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
        "bot-2026-12-01.sgf", "bot-2026-12-02.sgf",
      ])
  }

  @Test func aLinkInPlaceOfTheCollectionIsNotFollowed() throws {
    let (collection, directory) = try setUp()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = TestDirectory.path("elsewhere")
    #expect(FileManager.default.createFile(atPath: target, contents: Data("keep".utf8)))
    try FileManager.default.createSymbolicLink(atPath: directory + "/bot-2026-12-01.sgf", withDestinationPath: target)
    #expect(collection.append(GameArchiveTests.record, day: "2026-12-01") == nil)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
  }

  @Test func aFullDayStopsGrowingAndTheFileStillParses() throws {
    let (_, directory) = try setUp()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/bot-2026-12-01.sgf"
    let sgf = GameArchiveTests.record.sgf
    #expect(try BotCollection.append([sgf], to: path, limit: sgf.utf8.count * 2))
    #expect(try BotCollection.append([sgf], to: path, limit: sgf.utf8.count * 2))
    #expect(try !BotCollection.append([sgf], to: path, limit: sgf.utf8.count * 2), "the third does not fit")
    #expect(try GameRecord.parseCollection(String(contentsOfFile: path, encoding: .utf8)).count == 2)
  }

  @Test func theOldestDaysGoWhenTheCollectionsAreOverTheCap() throws {
    let size = GameArchiveTests.record.sgf.utf8.count
    let (collection, directory) = try setUp(cap: size * 2)
    for day in ["2026-11-29", "2026-11-30", "2026-12-01"] { collection.append(GameArchiveTests.record, day: day) }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
        "bot-2026-11-30.sgf", "bot-2026-12-01.sgf",
      ])
    #expect(RecordDirectory.isBotCollectionName("bot-2026-12-01.sgf"))
    #expect(!RecordDirectory.isBotCollectionName("bot-2026-12-01.sgf.tmp"))
    #expect(!RecordDirectory.isBotCollectionName("bot-2026-1x-01.sgf"))
  }

  /// With a worker the files are written off the loop, one batch at a time: the records that end while a write
  /// is out go in the next one, in the order they ended.
  @Test func recordsKeptWhileAWriteIsOutGoTogetherInTheNextOne() throws {
    let (collection, directory) = try setUp()
    var jobs: [Job] = []
    collection.run = { work, done in jobs.append((work, done)) }
    var second = GameArchiveTests.record
    second.result = .won(.o, .resignation)
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    collection.keep(second, day: "2026-12-01")
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    #expect(jobs.count == 1 && collection.isWriting)
    #expect(!FileManager.default.fileExists(atPath: directory), "nothing is written on the loop")
    let first = jobs.removeFirst()
    first.done(first.work())
    #expect(jobs.count == 1, "the two kept meanwhile make one batch")
    let next = jobs.removeFirst()
    next.done(next.work())
    #expect(jobs.isEmpty && !collection.isWriting)
    let text = try String(contentsOfFile: directory + "/bot-2026-12-01.sgf", encoding: .utf8)
    #expect(try GameRecord.parseCollection(text) == [GameArchiveTests.record, second, GameArchiveTests.record])
  }

  /// With the loop's timer a write waits for the interval: every record kept meanwhile goes in it, and the
  /// next batch waits for its own interval after the write; a stopping bot writes at once.
  @Test func recordsWaitForTheIntervalAndGoInOneBatch() throws {
    let (collection, directory) = try setUp()
    var jobs: [Job] = []
    var timers: [(seconds: Double, action: () -> Void)] = []
    collection.run = { work, done in jobs.append((work, done)) }
    collection.after = { seconds, action in timers.append((seconds, action)) }
    for _ in 0..<3 { collection.keep(GameArchiveTests.record, day: "2026-12-01") }
    #expect(jobs.isEmpty && timers.count == 1 && timers[0].seconds == BotCollection.batchInterval)
    #expect(collection.isWriting, "a stopping bot waits for records still to be written")
    timers.removeFirst().action()
    #expect(jobs.count == 1 && timers.isEmpty)
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    let first = jobs.removeFirst()
    first.done(first.work())
    #expect(jobs.isEmpty && timers.count == 1, "the record kept during the write waits for the next interval")
    collection.flush()
    #expect(jobs.count == 1, "flushed at once")
    let second = jobs.removeFirst()
    second.done(second.work())
    timers.removeFirst().action()
    #expect(jobs.isEmpty && timers.isEmpty && !collection.isWriting)
    let text = try String(contentsOfFile: directory + "/bot-2026-12-01.sgf", encoding: .utf8)
    #expect(try GameRecord.parseCollection(text).count == 4)
  }

  /// A stopping bot does not wait for the interval after a write that was out when it stopped, and a batch of
  /// `batchLimit` records goes without waiting for the rest of its interval.
  @Test func aStoppingBotAndAFullBatchDoNotWaitForTheInterval() throws {
    let (collection, _) = try setUp()
    var jobs: [Job] = []
    var timers: [() -> Void] = []
    collection.run = { work, done in jobs.append((work, done)) }
    collection.after = { _, action in timers.append(action) }
    for _ in 0..<(BotCollection.batchLimit - 1) { collection.keep(GameArchiveTests.record, day: "2026-12-01") }
    #expect(jobs.isEmpty && timers.count == 1)
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    #expect(jobs.count == 1, "a full batch goes at once")
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    collection.flush()
    #expect(jobs.count == 1, "one write at a time")
    jobs.removeFirst().done(BotCollection.Written())
    #expect(jobs.count == 1, "after the write that was out, the stopping bot's last record goes at once")
    jobs.removeFirst().done(BotCollection.Written())
    #expect(!collection.isWriting)
  }

  @Test func aBatchStopsAtTheDaysLimitAndKeepsWhatFits() throws {
    let (_, directory) = try setUp()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/bot-2026-12-01.sgf"
    let sgf = GameArchiveTests.record.sgf
    #expect(try !BotCollection.append([sgf, sgf, sgf], to: path, limit: sgf.utf8.count * 2))
    #expect(try GameRecord.parseCollection(String(contentsOfFile: path, encoding: .utf8)).count == 2)
  }

  /// A write that never finishes (a stalled disk) holds at most `queueLimit` records; the rest are only logged.
  @Test func recordsWaitingForAStalledDiskAreCapped() throws {
    let root = try TestDirectory.make("bot-records-stalled")
    let paths = Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"])
    let collection = BotCollection(paths: paths, enabled: true, log: Log(path: root + "/log", maximumBytes: 65536))
    var started = 0
    collection.run = { _, _ in started += 1 }
    for _ in 0...(BotCollection.queueLimit + 1) { collection.keep(GameArchiveTests.record, day: "2026-12-01") }
    #expect(started == 1)
    let log = try String(contentsOfFile: root + "/log", encoding: .utf8)
    #expect(log.contains("\(BotCollection.queueLimit) records wait for the disk; this game is only in the log"))
  }

  @Test func aSmallerRecordAfterOneThatDoesNotFitIsStillKept() throws {
    let (_, directory) = try setUp()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/bot-2026-12-01.sgf"
    let sgf = GameArchiveTests.record.sgf
    #expect(try !BotCollection.append([sgf + sgf, sgf], to: path, limit: sgf.utf8.count + 1))
    #expect(try GameRecord.parseCollection(String(contentsOfFile: path, encoding: .utf8)).count == 1)
  }

  /// A day whose file is full takes no more: its later games are not made into text and handed to the worker
  /// (a busy bot fills a day in a second, then made every game's SGF for nothing); they are in the log. The next
  /// day's games are written as before.
  @Test func aFullDaysLaterGamesAreNotMadeIntoTextButTheNextDaysAre() throws {
    let (collection, directory) = try setUp()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // The day's file one byte short of its limit: no record fits.
    let full = directory + "/bot-2026-12-01.sgf"
    let filler = String(repeating: "x", count: RecordDirectory.botCollectionCap - 1)
    try filler.write(toFile: full, atomically: false, encoding: .utf8)
    var jobs: [Job] = []
    collection.run = { work, done in jobs.append((work, done)) }
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    let first = jobs.removeFirst()
    let written = first.work()
    #expect(written.full == ["2026-12-01"] && written.failure?.contains("is full") == true, "\(written)")
    first.done(written)
    collection.keep(GameArchiveTests.record, day: "2026-12-01")
    #expect(jobs.isEmpty && !collection.isWriting, "a full day's game was queued")
    #expect(collection.append(GameArchiveTests.record, day: "2026-12-01") == nil)
    collection.keep(GameArchiveTests.record, day: "2026-12-02")
    #expect(jobs.count == 1)
    let next = jobs.removeFirst()
    let nextWritten = next.work()
    next.done(nextWritten)
    #expect(nextWritten.full.isEmpty && nextWritten.failure == nil)
    let text = try String(contentsOfFile: directory + "/bot-2026-12-02.sgf", encoding: .utf8)
    #expect(try GameRecord.parseCollection(text) == [GameArchiveTests.record])
    #expect(try String(contentsOfFile: full, encoding: .utf8) == filler, "the full day's file is unchanged")
  }
}

import GameRecords
import Glibc
import PlayerFiles
import Security

/// The bot's game records: each game appended to the SGF collection of its UTC day in
/// `<XDG_DATA_HOME>/tictactoe/games/bot-YYYY-MM-DD.sgf`, a new file each day (the rotation); the day files together
/// stay under the directory's cap, the oldest days removed first; one day's file stops at 4 MiB (games past it are
/// only logged). A failure is logged once and never stops the bot.
///
/// With a worker (`run`, which the bot sets to `EventLoop.perform`) the files are written off the event loop, as
/// every write with an fsync must be: the records that end while a write is out go in the next one, each day's
/// with one write and one fsync. With a timer too (`after`, the loop's) a write starts at most every
/// `batchInterval` seconds, so a busy bot writes a few large batches a second instead of one per turn of its
/// loop (each batch costs a hand-over to the worker, a wake-up, the file's checks, an open and an fsync).
/// Without a worker each record is written at once.
package final class BotCollection {
  let directory: String
  let enabled: Bool
  let cap: Int
  private let log: Log
  private var reported = false
  /// Runs work on a worker thread and its completion on the loop.
  var run: ((@escaping @Sendable () -> Written, @escaping (Written) -> Void) -> Void)?
  /// Runs an action on the loop after some seconds: with it, records wait up to `batchInterval` to go together.
  var after: ((Double, @escaping () -> Void) -> Void)?
  private var queued: [Game] = []
  /// The latest day whose file is full (`Written.full`: a record did not fit): its games are no longer made into
  /// text for a write that would drop them (a busy bot fills a day within a second, then made every game's SGF
  /// for nothing). What is left in the file is less than that record, so a smaller game that would still have fit
  /// goes to the log only, like the rest; a file moved away during the day is begun again the next day (or when
  /// the bot restarts). Every game is in the log.
  private var fullDay: String?
  private var writing = false
  /// A write is planned for when the interval is over.
  private var planned = false
  /// The bot is stopping: nothing waits for the interval any more.
  private var flushing = false
  /// A batch this large goes at once, without waiting for the rest of the interval.
  static let batchLimit = 1024
  /// The longest a record waits before its batch is handed to the worker (a crash loses at most these; every
  /// game is in the log too).
  static let batchInterval = 0.25
  /// At most this many records wait for a write that is slow to finish (a stalled disk): the ones after them
  /// are only in the log, so the bot's memory does not grow with the games it plays meanwhile.
  static let queueLimit = 4096

  /// One record's SGF text and the day whose collection it goes to. The text is made when the game is kept, on
  /// the loop, a game at a time: made on the worker, a quarter second's batch of texts held a CPU the worker
  /// shares with the loop (the benchmark's bot has one) in one stretch, and the bot's p99 move latency was
  /// 589–880 µs against 467–622 µs this way (three runs each, in turn; BENCHMARKS.md).
  struct Game: Sendable {
    let sgf: String
    let day: String

    init(record: GameRecord, day: String) {
      sgf = record.sgf
      self.day = day
    }
  }

  /// What a write did, for the log (written on the loop).
  struct Written: Sendable {
    /// The first failure (a full day, a link in place of the file, a disk error).
    var failure: String?
    /// The days removed for the cap.
    var removed: [String] = []
    /// The days whose file did not take every record (it holds its 4 MiB).
    var full: [String] = []
  }

  package init(paths: Paths, enabled: Bool, log: Log, cap: Int = RecordDirectory.defaultCap) {
    self.directory = paths.data + "/games"
    self.enabled = enabled
    self.cap = cap
    self.log = log
  }

  /// Whether records are still being written: a bot that is stopping waits for them.
  var isWriting: Bool { writing || !queued.isEmpty }

  /// Keeps `record` in `day`'s collection: off the loop with a worker, else at once.
  func keep(_ record: GameRecord, day: String) {
    guard enabled, day != fullDay else { return }
    guard run != nil else {
      append(record, day: day)
      return
    }
    guard queued.count < BotCollection.queueLimit else {
      say(Written(failure: "\(BotCollection.queueLimit) records wait for the disk; this game is only in the log"))
      return
    }
    queued.append(Game(record: record, day: day))
    plan()
  }

  /// Writes what waits now, and from now on each batch as soon as the one before is written, without waiting
  /// for the interval: the bot is stopping.
  func flush() {
    flushing = true
    writeNext()
  }

  /// Starts a write once the interval is over, unless one is out or planned; at once without a timer, when the
  /// bot is stopping, or when `batchLimit` records wait (a disk that keeps up never fills the queue).
  private func plan() {
    guard !writing, !queued.isEmpty else { return }
    guard let after, !flushing, queued.count < BotCollection.batchLimit else { return writeNext() }
    guard !planned else { return }
    planned = true
    after(BotCollection.batchInterval) { [weak self] in
      guard let self else { return }
      planned = false
      writeNext()
    }
  }

  /// Appends `record` to `day`'s collection at once; returns the file, or nil when records are off or it was not
  /// written.
  @discardableResult
  func append(_ record: GameRecord, day: String) -> String? {
    guard enabled, day != fullDay else { return nil }
    let written = BotCollection.store([Game(record: record, day: day)], in: directory, cap: cap)
    say(written)
    return written.failure == nil ? directory + "/" + RecordDirectory.botCollectionName(day: day) : nil
  }

  private func writeNext() {
    guard !writing, !queued.isEmpty, let run else { return }
    writing = true
    let batch = queued
    queued = []
    let (directory, cap) = (self.directory, self.cap)
    let work: @Sendable () -> Written = { BotCollection.store(batch, in: directory, cap: cap) }
    run(work) { [weak self] written in
      guard let self else { return }
      writing = false
      say(written)
      plan()
    }
  }

  private func say(_ written: Written) {
    if let day = written.full.last, day >= fullDay ?? "" { fullDay = day }
    if let failure = written.failure, !reported {
      log.write("bot game records not saved: \(failure)")
      reported = true
    }
    for name in written.removed { log.write("bot game records \(name) removed: over the \(cap >> 20) MiB cap") }
  }

  /// Writes `games`, each day's in one append with one fsync, then removes the oldest days over `cap`.
  static func store(_ games: [Game], in directory: String, cap: Int) -> Written {
    var written = Written()
    do {
      try FileSystem.makeDirectories(directory)
    } catch {
      written.failure = "\(error)"
      return written
    }
    var days: [String] = []
    var byDay: [String: [String]] = [:]
    for game in games {
      if byDay[game.day] == nil { days.append(game.day) }
      byDay[game.day, default: []].append(game.sgf)
    }
    for day in days {
      let path = directory + "/" + RecordDirectory.botCollectionName(day: day)
      do {
        if let (reason, fix) = FileExposure.problem(file: path) {
          throw FileError(path: path, reason: "\(reason); not written: run `\(fix)`")
        }
        if try !append(byDay[day] ?? [], to: path, limit: RecordDirectory.botCollectionCap) {
          written.full.append(day)
          let limit = RecordDirectory.botCollectionCap >> 20
          throw FileError(path: path, reason: "is full (\(limit) MiB a day); its games are only in the log")
        }
      } catch {
        if written.failure == nil { written.failure = "\(error)" }
      }
    }
    let entries = FileSystem.regularFileSizes(in: directory, RecordDirectory.isBotCollectionName)
    for name in RecordDirectory.overCap(entries, cap: cap) {
      unlink(directory + "/" + name)
      written.removed.append(name)
    }
    return written
  }

  /// Appends the `texts` that fit under `limit`, in one write and one fsync, never through a symbolic link; a
  /// write that fails part way is cut back off, so the collection never ends in half a game. Returns false when
  /// a text did not fit (it is only in the log; a smaller one after it in `texts` may still fit, but the
  /// collection takes no later batch for the day, `fullDay`); throws when the file could not be written.
  @discardableResult
  static func append(_ texts: [String], to path: String, limit: Int) throws(FileError) -> Bool {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw FileError(path: path, reason: "is not a regular file")
    }
    var bytes: [UInt8] = []
    var full = false
    for text in texts {
      let more = Array(text.utf8)
      guard Int(info.st_size) + bytes.count + more.count <= limit else {
        full = true
        continue
      }
      bytes += more
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written <= 0 {
        let reason = String(cString: strerror(errno))
        _ = ftruncate(fd, info.st_size)
        throw FileError(path: path, reason: reason)
      }
      offset += written
    }
    if !bytes.isEmpty, fsync(fd) != 0 { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    return !full
  }
}

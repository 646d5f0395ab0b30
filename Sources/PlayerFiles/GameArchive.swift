import GameRecords
import Glibc
import PeerTrust
import Security

/// Keeps finished games as SGF files in `<XDG_DATA_HOME>/tictactoe/games/`, each written atomically, the directory
/// kept under its size cap (oldest removed first). A failure (a full disk, an unwritable directory) is reported
/// once through `report` and never stops the game.
public final class GameArchive {
  public let directory: String
  /// Whether records are kept (the `records` setting; the Options screen changes it while the game runs).
  public var enabled: Bool
  public let cap: Int
  private let log: Log
  /// How a failure is shown, once: on stderr unless a front end shows it on its screen.
  public var report: (String) -> Void
  private var reported = false
  /// The file each local game was written to, by its number, so a game finished again after an undo replaces it.
  private var files: [Int: String] = [:]

  public init(
    paths: Paths, enabled: Bool, log: Log, cap: Int = RecordDirectory.defaultCap,
    report: @escaping (String) -> Void
  ) {
    self.directory = paths.data + "/games"
    self.enabled = enabled
    self.cap = cap
    self.log = log
    self.report = report
  }

  /// Writes `record`; `key` names a game whose record may be written again (a local game's number). Returns the
  /// file written, or nil when records are off or the write failed.
  @discardableResult
  public func keep(_ record: GameRecord, key: Int? = nil, replacing old: String? = nil) -> String? {
    guard let path = destination(key: key, replacing: old) else { return nil }
    let result = GameArchive.write(record.sgf, to: path, directory: directory, cap: cap, log: log)
    written(result, to: path, key: key)
    return try? result.get()
  }

  /// Removes the record of the local game numbered `key`, written before and since taken back: a game undone
  /// after it ended was not played that way. True when a file was removed.
  @discardableResult
  public func discard(key: Int) -> Bool {
    guard let path = files.removeValue(forKey: key) else { return false }
    guard unlink(path) == 0 || errno == ENOENT else {
      log.write("game record \(path) not removed after an undo: \(String(cString: strerror(errno)))")
      return false
    }
    log.write("game record \(path) removed: the game was taken back")
    return true
  }

  /// Where a record goes: nil when records are off.
  public func destination(key: Int? = nil, replacing old: String? = nil) -> String? {
    guard enabled else { return nil }
    return old ?? key.flatMap { files[$0] } ?? directory + "/" + GameArchive.newName()
  }

  /// After a write: a failure is logged and reported once; a local game's file is remembered by its number.
  public func written(_ result: Result<String, any Error>, to path: String, key: Int? = nil) {
    switch result {
    case .success:
      if let key { files[key] = path }
    case .failure(let error):
      log.write("game record not saved: \(error)")
      if !reported {
        reported = true
        report("The game record could not be saved (\(error)); the game goes on.")
      }
    }
  }

  /// The part of keeping a record that may run off the loop: `sgf` written atomically to `path` (never into a
  /// directory others may write: they could swap the records), then the directory pruned to its cap.
  public static func write(_ sgf: String, to path: String, directory: String, cap: Int, log: Log)
    -> Result<String, any Error>
  {
    if let (reason, fix) = FileExposure.problem(file: path) {
      return .failure(FileError(path: path, reason: "\(reason); not written: run `\(fix)`"))
    }
    do {
      try AtomicFile.write(sgf, to: path)
    } catch {
      return .failure(error)
    }
    prune(directory, cap: cap, log: log)
    return .success(path)
  }

  /// Removes the oldest records while the directory is over its cap.
  private static func prune(_ directory: String, cap: Int, log: Log) {
    let entries = FileSystem.regularFileSizes(in: directory, RecordDirectory.isRecordName)
    for name in RecordDirectory.overCap(entries, cap: cap) {
      unlink(directory + "/" + name)
      log.write("game record \(name) removed: the records directory is over its \(cap >> 20) MiB cap")
    }
  }

  /// A new record's file name: now, in UTC, and random digits.
  public static func newName() -> String {
    var clock = timespec()
    clock_gettime(CLOCK_REALTIME, &clock)
    let now = Int64(clock.tv_sec)
    let day = CalendarDay(secondsSince1970: now)
    let secondOfDay = Int(now - (now / 86_400) * 86_400)
    return RecordDirectory.fileName(
      year: day.year, month: day.month, day: day.day, secondOfDay: secondOfDay,
      millisecond: Int(clock.tv_nsec / 1_000_000), random: UInt32.random(in: 0...0xFF_FFFF))
  }
}

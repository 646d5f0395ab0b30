import GameRecords
import Glibc
import PeerTrust
import Security

/// Keeps finished games as SGF files in `<XDG_DATA_HOME>/tictactoe/games/`, each written atomically, the directory
/// kept under its size cap (oldest removed first). A failure (a full disk, an unwritable directory) is reported
/// once through `report` and never stops the game.
final class GameArchive {
  let directory: String
  /// Whether records are kept (the `records` setting; the Options screen changes it while the game runs).
  var enabled: Bool
  let cap: Int
  private let log: Log
  /// How a failure is shown, once: on stderr unless a front end shows it on its screen.
  var report: (String) -> Void
  private var reported = false
  /// The file each local game was written to, by its number, so a game finished again after an undo replaces it.
  private var files: [Int: String] = [:]

  init(
    paths: Paths, enabled: Bool, log: Log, cap: Int = RecordDirectory.defaultCap,
    report: @escaping (String) -> Void = { writeError("tictactoe: \($0)\n") }
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
  func keep(_ record: GameRecord, key: Int? = nil, replacing old: String? = nil) -> String? {
    guard enabled else { return nil }
    let path = old ?? key.flatMap { files[$0] } ?? directory + "/" + GameArchive.newName()
    do {
      // As settings and known_peers: never into a directory others may write (they could swap the records).
      if let (reason, fix) = FileExposure.problem(file: path) {
        throw FileError(path: path, reason: "\(reason); not written: run `\(fix)`")
      }
      try AtomicFile.write(record.sgf, to: path)
    } catch {
      log.write("game record not saved: \(error)")
      if !reported {
        reported = true
        report("The game record could not be saved (\(error)); the game goes on.")
      }
      return nil
    }
    if let key { files[key] = path }
    prune()
    return path
  }

  /// Removes the oldest records while the directory is over its cap.
  private func prune() {
    let entries = PosixFiles.regularFileSizes(in: directory, RecordDirectory.isRecordName)
    for name in RecordDirectory.overCap(entries, cap: cap) {
      unlink(directory + "/" + name)
      log.write("game record \(name) removed: the records directory is over its \(cap >> 20) MiB cap")
    }
  }

  /// A new record's file name: now, in UTC, and random digits.
  static func newName() -> String {
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

import GameRecords
import Glibc

/// The bot's game records: each game appended to the SGF collection of its UTC day in
/// `<XDG_DATA_HOME>/tictactoe/games/bot-YYYY-MM-DD.sgf`, a new file each day (the rotation); the day files together
/// stay under the directory's cap, the oldest days removed first; one day's file stops at 4 MiB (games past it are
/// only logged). A failure is logged once and never stops the bot.
final class BotCollection {
  let directory: String
  let enabled: Bool
  let cap: Int
  private let log: Log
  private var reported = false

  init(paths: Paths, enabled: Bool, log: Log, cap: Int = RecordDirectory.defaultCap) {
    self.directory = paths.data + "/games"
    self.enabled = enabled
    self.cap = cap
    self.log = log
  }

  /// Appends `record` to `day`'s collection; returns the file, or nil when records are off or it was not written.
  @discardableResult
  func append(_ record: GameRecord, day: String) -> String? {
    guard enabled else { return nil }
    let path = directory + "/" + RecordDirectory.botCollectionName(day: day)
    do {
      try PosixFiles.makeDirectories(directory)
      try BotCollection.append(record.sgf, to: path, limit: RecordDirectory.botCollectionCap)
    } catch {
      if !reported { log.write("bot game records not saved: \(error)") }
      reported = true
      return nil
    }
    prune()
    return path
  }

  /// Appends `text` in one write, never through a symbolic link; a write that fails part way is cut back off, so
  /// the collection never ends in half a game.
  static func append(_ text: String, to path: String, limit: Int) throws(FileError) {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw FileError(path: path, reason: "is not a regular file")
    }
    let bytes = Array(text.utf8)
    guard Int(info.st_size) + bytes.count <= limit else {
      throw FileError(path: path, reason: "is full (\(limit >> 20) MiB a day); this game is only in the log")
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
    guard fsync(fd) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
  }

  /// Removes the oldest days while the bot's collections are over the cap (today's is always kept).
  private func prune() {
    let entries = PosixFiles.regularFileSizes(in: directory, RecordDirectory.isBotCollectionName)
    for name in RecordDirectory.overCap(entries, cap: cap) {
      unlink(directory + "/" + name)
      log.write("bot game records \(name) removed: over the \(cap >> 20) MiB cap")
    }
  }
}

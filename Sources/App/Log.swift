import Foundation

/// Appends timestamped lines to the log file under XDG_STATE_HOME; never writes to the terminal.
public final class Log: @unchecked Sendable {
  private let lock = NSLock()
  private let handle: FileHandle?
  /// Made once: creating a formatter costs tens of microseconds (ICU), too much for a line per game on a bot
  /// host serving a thousand games. Used only under `lock`.
  private let formatter = ISO8601DateFormatter()

  public init(path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    handle = fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : nil
  }

  public func write(_ message: String) {
    lock.lock()
    defer { lock.unlock() }
    let stamp = formatter.string(from: Date())
    handle?.write(Data("\(stamp) [\(getpid())] \(message)\n".utf8))
  }
}

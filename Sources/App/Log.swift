import Glibc
import Synchronization
import UntrustedText

/// Appends timestamped lines to the log file under XDG_STATE_HOME; never writes to the terminal.
public final class Log: Sendable {
  private let fd: Int32
  /// Serialises writers (the computer player thinks on another thread).
  private let lock = Mutex(())

  public init(path: String) {
    try? PosixFiles.makeDirectories(PosixFiles.directory(of: path))
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
  }

  deinit { if fd >= 0 { close(fd) } }

  /// Appends one line: a newline or control character in `message` (which may hold peer text) is escaped,
  /// so one event is always one line and nobody can forge another.
  public func write(_ message: String) {
    guard fd >= 0 else { return }
    let line = Array("\(Self.timestamp()) [\(getpid())] \(VisibleText.escaping(message))\n".utf8)
    lock.withLock { _ in
      var written = 0
      while written < line.count {
        let count = line[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        written += count
      }
    }
  }

  /// The current UTC time as ISO 8601, "2026-11-29T14:39:32Z".
  static func timestamp(_ seconds: time_t = time(nil)) -> String {
    var moment = seconds
    var parts = tm()
    gmtime_r(&moment, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

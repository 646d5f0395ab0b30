import Glibc
import Security
import Synchronization
import UntrustedText

/// Appends timestamped lines to the log file under XDG_STATE_HOME; never writes to the terminal. With a size
/// cap the file is rotated: past the cap it becomes `FILE.1` (replacing an older one) and a new file begins, so
/// the log never holds much more than twice the cap. Like the player's other files it is written only where it
/// is the user's alone: never through a symbolic link, never into a file of another user, one that others may
/// change, or a directory they may write (`problem` says why, and the log is then not written).
public final class Log: Sendable {
  private struct State {
    public var fd: Int32
    public var size: Int
    public var problem: String?
    /// Lines kept for one write at `flush()`, while `hold()` is on (nil: each line is written at once).
    public var held: [UInt8]? = nil
    /// The second of the last line's time, and its text: lines come many a second, the text is made once.
    public var stampSecond: time_t = -1
    public var stamp = ""
  }

  /// The size at which the program's log is rotated (8 MiB: a practice bot logs a line per game).
  public static let cap = 8 * 1024 * 1024

  private let path: String
  private let maximumBytes: Int?
  /// " [PID] ", the process's id as every line names it: read and written out once (glibc asks the kernel on each
  /// `getpid()`, and a line a game made a string each time).
  private let pidText = Array(" [\(getpid())] ".utf8)
  /// Serialises writers (the computer player thinks on another thread).
  private let state: Mutex<State>

  public init(path: String, maximumBytes: Int? = nil) {
    self.path = path
    self.maximumBytes = maximumBytes
    isJournal = false
    try? FileSystem.makeDirectories(FileSystem.directory(of: path))
    state = Mutex(Log.open(path))
  }

  /// The log of a program run by systemd with its standard error going to the journal (`descriptor`, whose
  /// device and inode `JOURNAL_STREAM` names, as systemd sets it for a service): each line goes there, where
  /// `journalctl` shows it, and no file is written. Nil when the program does not run so.
  public static func journal(environment: [String: String], descriptor: Int32 = 2) -> Log? {
    var info = stat()
    guard let stream = environment["JOURNAL_STREAM"], fstat(descriptor, &info) == 0,
      stream == "\(info.st_dev):\(info.st_ino)"
    else { return nil }
    let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
    return fd < 0 ? nil : Log(journal: fd)
  }

  private init(journal fd: Int32) {
    path = "the journal"
    maximumBytes = nil
    state = Mutex(State(fd: fd, size: 0, problem: nil))
    isJournal = true
  }

  /// Whether the lines go to the journal rather than to a file.
  public let isJournal: Bool
  /// Where the lines go: the file's path, or "the journal".
  public var place: String { path }

  deinit {
    release()
    state.withLock { if $0.fd >= 0 { close($0.fd) } }
  }

  /// Why the log is not being written (a link, another user's file, a file or directory others may change),
  /// with the command that fixes it; nil while it is.
  public var problem: String? { state.withLock { $0.problem } }

  private static func open(_ path: String) -> State {
    if let (reason, fix) = FileExposure.problem(file: path) {
      return State(fd: -1, size: 0, problem: "The log \(path) \(reason); it is not written: run `\(fix)`.")
    }
    // O_NOFOLLOW: a link planted at the path fails here rather than be written through; O_NONBLOCK: nor does a
    // FIFO there hold the program up.
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard fd >= 0 else {
      let why = errno == ELOOP ? "is a symbolic link" : String(cString: strerror(errno))
      return State(fd: -1, size: 0, problem: "The log \(path) \(why); it is not written: run `rm \(path)`.")
    }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
      info.st_mode & 0o022 == 0
    else {
      close(fd)
      return State(
        fd: -1, size: 0,
        problem: "The log \(path) is not a file of yours alone; it is not written: run `rm \(path)`.")
    }
    return State(fd: fd, size: Int(info.st_size), problem: nil)
  }

  /// Appends one line: a newline or control character in `message` (which may hold peer text) is escaped,
  /// so one event is always one line and nobody can forge another. While `hold()` is on, the line waits for
  /// `flush()`, in order with the others.
  public func write(_ message: String) {
    let text = VisibleText.escaping(message)
    let now = time(nil)
    state.withLock { state in
      if state.stampSecond != now {
        state.stampSecond = now
        state.stamp = Self.timestamp(now)
      }
      if state.held != nil {
        // Appended in place to what waits for the flush: no string or array made for the line.
        appendLine(text, stamp: state.stamp, to: &state.held!)
      } else {
        var line: [UInt8] = []
        appendLine(text, stamp: state.stamp, to: &line)
        append(line, to: &state)
      }
    }
  }

  /// A line's bytes: its time, the process, the text, the line's end.
  private func appendLine(_ text: String, stamp: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: stamp.utf8)
    bytes.append(contentsOf: pidText)
    bytes.append(contentsOf: text.utf8)
    bytes.append(UInt8(ascii: "\n"))
  }

  /// The most room the held lines keep between flushes (bytes).
  static let keptHeldRoom = 65_536

  /// From now on lines wait and go out together at `flush()`: a program that logs many lines a second (the
  /// practice bot, a line per game) flushes once per turn of its loop, one write rather than one a line.
  public func hold() {
    state.withLock { state in
      if state.held == nil { state.held = [] }
    }
  }

  /// Writes the lines held so far in one write (the log still rotated past its cap); they keep being held.
  public func flush() {
    state.withLock { state in
      guard var held = state.held, !held.isEmpty else { return }
      state.held = nil
      append(held, to: &state)
      // Kept with its room for the next turn's lines, not grown again from nothing; a burst's room past
      // `keptHeldRoom` is given back.
      held.removeAll(keepingCapacity: held.capacity <= Log.keptHeldRoom)
      state.held = held
    }
  }

  /// Writes what is held and stops holding: each line is written at once again.
  public func release() {
    state.withLock { state in
      guard let held = state.held else { return }
      state.held = nil
      if !held.isEmpty { append(held, to: &state) }
    }
  }

  private func append(_ bytes: [UInt8], to state: inout State) {
    if let maximumBytes, state.size > 0, state.size + bytes.count > maximumBytes {
      if state.fd >= 0 { close(state.fd) }
      rename(path, path + ".1")
      let kept = state
      state = Log.open(path)
      (state.held, state.stampSecond, state.stamp) = (kept.held, kept.stampSecond, kept.stamp)
    }
    guard state.fd >= 0 else { return }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(state.fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      written += count
    }
    state.size += written
  }

  /// The current UTC time as ISO 8601, "2026-11-29T14:39:32Z".
  public static func timestamp(_ seconds: time_t = time(nil)) -> String {
    var moment = seconds
    var parts = tm()
    gmtime_r(&moment, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

import Glibc
import UntrustedText

/// Where the game keeps its files, following the XDG base directories (so tests isolate themselves by
/// setting XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_STATE_HOME).
public struct Paths: Sendable, Equatable {
  public let config: String
  public let data: String
  public let state: String

  public init(environment: [String: String]) {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileSystem.homeDirectory()
    func base(_ variable: String, _ fallback: String) -> String {
      // The spec says a relative path must be ignored.
      if let value = environment[variable], value.hasPrefix("/") { return value }
      return home + "/" + fallback
    }
    config = base("XDG_CONFIG_HOME", ".config") + "/tictactoe"
    data = base("XDG_DATA_HOME", ".local/share") + "/tictactoe"
    state = base("XDG_STATE_HOME", ".local/state") + "/tictactoe"
  }

  public var settingsFile: String { config + "/settings.conf" }
  public var logFile: String { state + "/tictactoe.log" }
}

/// Writes files so that a crash or a kill never leaves half a file: a temporary file in the same
/// directory, flushed to disk, then renamed over the old one, and the directory flushed too. Directories
/// are made 0700, files 0600. Temporary files of writers that were killed are removed on the next write.
public enum AtomicFile {
  public static func write(_ text: String, to path: String) throws {
    let directory = FileSystem.directory(of: path)
    try FileSystem.makeDirectories(directory)
    let name = FileSystem.lastComponent(of: path)
    removeStaleTemporaries(of: name, in: directory)
    // A name nobody can guess, created afresh and never through a symbolic link: a link planted in the
    // directory cannot make this write land in another file.
    let unguessable = (0..<6).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
    let temporary = "\(directory)/.\(name).\(getpid()).\(unguessable).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(path: temporary, reason: String(cString: strerror(errno))) }
    var ok = true
    text.utf8CString.withUnsafeBufferPointer { buffer in
      var offset = 0
      let count = buffer.count - 1  // without the terminating NUL
      while offset < count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, count - offset)
        if written <= 0 {
          ok = false
          break
        }
        offset += written
      }
    }
    let reason = String(cString: strerror(errno))
    if !ok || fsync(fd) != 0 {
      close(fd)
      unlink(temporary)
      throw FileError(path: path, reason: reason)
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw FileError(path: path, reason: reason)
    }
    let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }

  /// Removes `.NAME.PID.RANDOM.tmp` (and older `.NAME.PID.tmp`) files whose process is gone (killed before its
  /// rename).
  private static func removeStaleTemporaries(of name: String, in directory: String) {
    let prefix = ".\(name)."
    for entry in FileSystem.entries(of: directory)
    where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
      let pidText = entry.dropFirst(prefix.count).dropLast(4).prefix { $0 != "." }
      guard let pid = Int32(pidText), pid > 0, kill(pid, 0) != 0 && errno == ESRCH else {
        continue
      }
      unlink("\(directory)/\(entry)")
    }
  }
}

/// A file could not be read or written: which one, and why.
public struct FileError: Error, CustomStringConvertible {
  public let path: String
  public let line: Int?
  public let reason: String
  /// What the player can do, when the reason does not say it already.
  public let hint: String?

  public init(path: String, line: Int? = nil, reason: String, hint: String? = nil) {
    self.path = path
    self.line = line
    self.reason = reason
    self.hint = hint
  }

  /// A file given by name (or kept by the game) that could not be read.
  public static func unreadable(_ path: String) -> FileError {
    FileError(path: path, reason: "cannot be read", hint: "check that it is there and that you may read it")
  }

  /// Through the one sanitiser: the path and the reason may quote a file's own bytes (a settings line).
  public var description: String {
    let place = line.map { "\(path) line \($0)" } ?? path
    return VisibleText.escaping("\(place): \(reason)" + (hint.map { "; \($0)" } ?? ""))
  }
}

import Glibc
import Security

/// The one rule for the player's own files (known peers, settings, identity, games, the log, the running hosts'
/// invites): whether someone else could change a file the game trusts or swap it for another. The file, and
/// the directory it is in, must belong to the user, and group and others may not write either; the file must be
/// a regular file; a symbolic link is followed and the same rule applied to where it leads (its file and that
/// file's directory). OpenSSH refuses its known_hosts and keys in such places; so does this game, with the
/// command that fixes it. `read` opens a file only after the rule and checks the descriptor again.
public enum FileExposure {
  /// The problem with `path` and its directory, and the command that fixes it; nil when both are the user's
  /// alone (or the file does not exist yet). `secret`: the file may not be readable by group or others either
  /// (a private key).
  public static func problem(file path: String, secret: Bool = false) -> (reason: String, fix: String)? {
    if let problem = problem(directory: FileSystem.directory(of: path)) { return problem }
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    if info.st_uid != geteuid() {
      return ("belongs to another user (uid \(info.st_uid))", "chown $(id -u) \(path)")
    }
    if info.st_mode & S_IFMT == S_IFLNK {
      // A link of ours to nothing: nothing is read through it, and a write replaces the link.
      guard let target = resolved(path) else { return nil }
      guard let (reason, fix) = problem(file: target, secret: secret) else { return nil }
      return ("is a link to \(target), which \(reason)", fix)
    }
    return problem(info, path: path, secret: secret)
  }

  /// The problem with a directory the player's files are kept in: another user's, or writable by group or
  /// others (they could rename a file away and put theirs in its place). Nil when it does not exist.
  public static func problem(directory: String) -> (reason: String, fix: String)? {
    var folder = stat()
    guard stat(directory, &folder) == 0 else { return nil }
    if folder.st_uid != geteuid() {
      return ("is in \(directory), which belongs to another user (uid \(folder.st_uid))", "chown $(id -u) \(directory)")
    }
    if folder.st_mode & 0o022 != 0 {
      let mode = String(folder.st_mode & 0o777, radix: 8)
      return ("is in \(directory), which others can write (mode \(mode))", "chmod 700 \(directory)")
    }
    return nil
  }

  /// The whole file at `path` once it passes the rule, from `open`. At most `limit` bytes.
  public static func read(_ path: String, secret: Bool = false, limit: Int = 16 << 20) -> Reading {
    let descriptor: Int32
    switch open(path, secret: secret) {
    case .opened(let opened): descriptor = opened
    case .missing: return .missing
    case .exposed(let reason, let fix): return .exposed(reason: reason, fix: fix)
    case .unreadable(let reason): return .unreadable(reason: reason)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .unreadable(reason: FileSystem.describeErrno())
      }
      if count == 0 { return .contents(bytes) }
      bytes += piece[0..<count]
      if bytes.count > limit { return .unreadable(reason: "the file is larger than \(limit >> 20) MiB") }
    }
  }

  /// A descriptor for reading `path` once it passes the rule, opened without following a link (a link's target
  /// is opened, once checked) and without waiting (a FIFO put in its place never hangs the program), then checked
  /// again on the descriptor: a regular file of the user's that others cannot write. The caller closes it.
  public static func open(_ path: String, secret: Bool = false) -> Reading.Opening {
    if let (reason, fix) = problem(file: path, secret: secret) { return .exposed(reason: reason, fix: fix) }
    let target = resolved(path) ?? path
    let descriptor = Glibc.open(target, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      return errno == ENOENT ? .missing : .unreadable(reason: FileSystem.describeErrno())
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let reason = FileSystem.describeErrno()
      close(descriptor)
      return .unreadable(reason: reason)
    }
    if let (reason, fix) = problem(info, path: target, secret: secret) {
      close(descriptor)
      return .exposed(reason: reason, fix: fix)
    }
    return .opened(descriptor)
  }

  /// What `read` found.
  public enum Reading: Sendable, Equatable {
    case contents([UInt8])
    /// No file there (nor a link to one).
    case missing
    /// It fails the rule: why, and the command that fixes it.
    case exposed(reason: String, fix: String)
    case unreadable(reason: String)

    /// What `open` found.
    public enum Opening: Sendable, Equatable {
      case opened(Int32)
      case missing
      case exposed(reason: String, fix: String)
      case unreadable(reason: String)
    }
  }

  /// Where the link at `path` leads, every link resolved; nil when it leads nowhere.
  static func resolved(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  /// The checks on the file itself (not a link): a regular file that others cannot write (nor read, `secret`).
  private static func problem(_ info: stat, path: String, secret: Bool) -> (reason: String, fix: String)? {
    if info.st_uid != geteuid() {
      return ("belongs to another user (uid \(info.st_uid))", "chown $(id -u) \(path)")
    }
    // A directory in its place is damage, not exposure: reading it fails and says so ("Is a directory").
    if info.st_mode & S_IFMT == S_IFDIR { return nil }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return ("is not a regular file (a FIFO or a device)", "rm \(path)")
    }
    let mode = String(info.st_mode & 0o777, radix: 8)
    if secret, info.st_mode & 0o077 != 0 {
      return ("can be read by others (mode \(mode))", "chmod 600 \(path)")
    }
    if info.st_mode & 0o022 != 0 {
      return ("can be changed by others (mode \(mode))", "chmod 600 \(path)")
    }
    return nil
  }
}

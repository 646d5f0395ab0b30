import Glibc

/// Whether someone else could change a file the game trusts (known peers, settings) or swap it for another: the
/// file or its directory belongs to another user, or group or others may write it. OpenSSH refuses its
/// known_hosts and keys in such places; so does this game, with the command that fixes it.
public enum FileExposure {
  /// The problem with `path` and its directory, and the command that fixes it; nil when both are the user's
  /// alone (or do not exist yet).
  public static func problem(file path: String) -> (reason: String, fix: String)? {
    let directory = FileSystem.directory(of: path)
    var folder = stat()
    if stat(directory, &folder) == 0 {
      if folder.st_uid != geteuid() {
        return (
          "is in \(directory), which belongs to another user (uid \(folder.st_uid))", "chown $(id -u) \(directory)"
        )
      }
      if folder.st_mode & 0o022 != 0 {
        let mode = String(folder.st_mode & 0o777, radix: 8)
        return ("is in \(directory), which others can write (mode \(mode))", "chmod 700 \(directory)")
      }
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    if info.st_uid != geteuid() {
      return ("belongs to another user (uid \(info.st_uid))", "chown $(id -u) \(path)")
    }
    if info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o022 != 0 {
      let mode = String(info.st_mode & 0o777, radix: 8)
      return ("can be changed by others (mode \(mode))", "chmod 600 \(path)")
    }
    return nil
  }
}

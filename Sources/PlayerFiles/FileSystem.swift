import Glibc
import Security

/// The player's files' one set of file helpers, done with the C library: private directories, whole-file reads,
/// atomic writes (temporary file in the same directory, fsync, rename, fsync of the directory), appends and locks;
/// plain reads, listings and path parts in `FileSystem+Listing.swift`. The program links no Foundation:
/// Foundation and the ICU data it loads were over half of its resident memory (docs/BENCHMARKS.md).
public enum FileSystem {
  /// The text of the last system error.
  static func describeErrno(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
  }

  /// Creates `path` (and missing parents) with `mode`; with `tighten`, also sets an existing
  /// directory to `mode` (only for directories that belong to this program alone).
  static func ensurePrivateDirectory(_ path: String, mode: mode_t = 0o700, tighten: Bool = true) throws(SecurityError) {
    var info = stat()
    if stat(path, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw SecurityError.unwritableFile(path: path, reason: "it exists and is not a directory")
      }
      if tighten && (info.st_mode & 0o777) != mode && chmod(path, mode) != 0 {
        throw SecurityError.unwritableFile(path: path, reason: "cannot restrict its permissions: \(describeErrno())")
      }
      return
    }
    let parent = directory(of: path)
    if parent != path && !parent.isEmpty && !exists(parent) {
      try ensurePrivateDirectory(parent, mode: mode, tighten: false)
    }
    if mkdir(path, mode) != 0 && errno != EEXIST {
      throw SecurityError.unwritableFile(path: path, reason: describeErrno())
    }
    if chmod(path, mode) != 0 {
      throw SecurityError.unwritableFile(path: path, reason: "cannot restrict its permissions: \(describeErrno())")
    }
  }

  /// The whole file, or nil when it does not exist; refused past `limit` bytes.
  static func read(_ path: String, limit: Int = 16 << 20) throws(SecurityError) -> [UInt8]? {
    var contents: [UInt8] = []
    var tooLarge = false
    let found = try readPieces(path) { piece in
      contents += piece
      tooLarge = contents.count > limit
      return !tooLarge
    }
    if tooLarge { throw SecurityError.unreadableFile(path: path, reason: "the file is larger than \(limit >> 20) MiB") }
    return found ? contents : nil
  }

  /// Hands the file to `take` a piece (at most 1 MiB) at a time, until its end or until `take` says false.
  /// Returns false when the file does not exist.
  static func readPieces(_ path: String, _ take: (ArraySlice<UInt8>) -> Bool) throws(SecurityError) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return false }
      throw SecurityError.unreadableFile(path: path, reason: describeErrno())
    }
    defer { close(descriptor) }
    try readPieces(descriptor, path: path, take)
    return true
  }

  /// As `readPieces(_:_:)` from an open `descriptor` (of `path`, for messages), which the caller closes.
  static func readPieces(_ descriptor: Int32, path: String, _ take: (ArraySlice<UInt8>) -> Bool) throws(SecurityError) {
    var piece = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SecurityError.unreadableFile(path: path, reason: describeErrno())
      }
      if count == 0 || !take(piece[0..<count]) { return }
    }
  }

  /// Replaces `path` with `bytes` so that readers see either the old or the new file, never a
  /// mix, and the file has `mode` from its first byte.
  static func writeAtomically(_ path: String, bytes: [UInt8], mode: mode_t) throws(SecurityError) {
    try writeAtomically(path, mode: mode) { write throws(SecurityError) in try write(bytes) }
  }

  /// As `writeAtomically(_:bytes:mode:)` with the bytes handed over a piece at a time by `produce`, through the
  /// `write` it is given: a file written this way is never held whole.
  static func writeAtomically(
    _ path: String, mode: mode_t,
    produce: (_ write: ([UInt8]) throws(SecurityError) -> Void) throws(SecurityError) -> Void
  ) throws(SecurityError) {
    let folder = directory(of: path)
    removeStaleTemporaries(of: path)
    var suffix = [UInt8](repeating: 0, count: 6)
    for index in suffix.indices { suffix[index] = UInt8.random(in: 0...255) }
    let temporary = path + ".tmp-\(getpid())-" + suffix.map { String($0, radix: 16) }.joined()
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw SecurityError.unwritableFile(path: path, reason: describeErrno())
    }
    var failure: String?
    if fchmod(descriptor, mode) != 0 { failure = "cannot set permissions: \(describeErrno())" }
    do {
      if failure == nil { try produce { bytes throws(SecurityError) in try writeAll(descriptor, bytes, path: path) } }
    } catch {
      failure = error.description
    }
    if failure == nil && fsync(descriptor) != 0 { failure = "fsync failed: \(describeErrno())" }
    if close(descriptor) != 0 && failure == nil { failure = describeErrno() }
    if failure == nil && rename(temporary, path) != 0 { failure = describeErrno() }
    if let failure {
      unlink(temporary)
      throw SecurityError.unwritableFile(path: path, reason: failure)
    }
    let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// Writes all of `bytes` to `descriptor` (of `path`, for the message).
  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(SecurityError) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SecurityError.unwritableFile(path: path, reason: describeErrno())
      }
      offset += count
    }
  }

  /// Appends `bytes` to `path` (created with `mode` if missing) and makes them durable. If the file does not end
  /// with a newline (a line cut short by a writer that was killed), one is written first, so the cut line stays
  /// alone on its line. `O_APPEND`: writers in other processes cannot interleave within one write.
  static func append(_ path: String, bytes: [UInt8], mode: mode_t) throws(SecurityError) {
    let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw SecurityError.unwritableFile(path: path, reason: describeErrno()) }
    defer { close(descriptor) }
    var payload = bytes
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_size > 0 {
      var last: UInt8 = 0
      if pread(descriptor, &last, 1, info.st_size - 1) == 1, last != UInt8(ascii: "\n") {
        payload.insert(UInt8(ascii: "\n"), at: 0)
      }
    }
    var offset = 0
    while offset < payload.count {
      let count = payload[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SecurityError.unwritableFile(path: path, reason: describeErrno())
      }
      offset += count
    }
    if fsync(descriptor) != 0 {
      throw SecurityError.unwritableFile(path: path, reason: "fsync failed: \(describeErrno())")
    }
  }

  /// Runs `body` holding an exclusive lock on `path`.lock (created 0600 beside it, never through a link), so
  /// that writers in other processes take turns: each reads the file, applies its change and replaces the file
  /// while no other can. A lock on the file itself would not do: a rename replaces the file under it.
  static func withLock<R>(on path: String, _ body: () throws -> R) throws -> R {
    let lockPath = path + ".lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw SecurityError.unwritableFile(path: lockPath, reason: "cannot open its lock: \(describeErrno())")
    }
    defer { close(descriptor) }  // closing releases the lock
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw SecurityError.unwritableFile(path: lockPath, reason: "cannot lock it: \(describeErrno())")
      }
    }
    return try body()
  }

  /// A descriptor holding a shared lock on `path`.lock once no writer holds it (`withLock`), waiting at most
  /// `patience` seconds; nil when it could not be had by then (or the lock cannot be opened). The caller closes it.
  static func sharedLock(on path: String, patience: Double) -> Int32? {
    let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    var waited = 0.0
    while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, waited < patience else {
        close(descriptor)
        return nil
      }
      usleep(10_000)
      waited += 0.01
    }
    return descriptor
  }

  /// Removes the temporary files earlier writes of `path` left behind when their process was killed before the
  /// rename (`NAME.tmp-PID-…` whose process is gone): they may hold an old private key. A temporary file of a
  /// process still running is left alone (it may be writing right now).
  static func removeStaleTemporaries(of path: String) {
    let folder = directory(of: path)
    let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    let prefix = base + ".tmp-"
    guard let listing = opendir(folder) else { return }
    defer { closedir(listing) }
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
        kill(pid, 0) != 0 && errno == ESRCH
      else { continue }
      unlink(join(folder, name))
    }
  }

  /// Removes `path` (nothing to do if it is already gone) and makes the removal durable.
  static func remove(_ path: String) throws(SecurityError) {
    if unlink(path) != 0 && errno != ENOENT {
      throw SecurityError.unwritableFile(path: path, reason: "cannot remove it: \(describeErrno())")
    }
    let folderDescriptor = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// `directory` + "/" + `name`.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}

import Glibc
import PeerTrust

/// The known-peers file on disk: read it, append to it, and replace it atomically with mode 0600.
public struct KnownPeersFile: Sendable {
  public let path: String

  public init(path: String) {
    self.path = path
  }

  /// The peers in the file; none when the file does not exist yet.
  public func load() throws(KnownPeersError) -> KnownPeers {
    let descriptor: Int32
    switch FileExposure.open(path) {
    case .opened(let opened): descriptor = opened
    case .missing: return KnownPeers()
    case .exposed(let reason, let fix): throw KnownPeersError.exposed(path: path, reason: reason, fix: fix)
    case .unreadable(let reason): throw KnownPeersError.unreadable(path: path, reason: reason)
    }
    defer { close(descriptor) }
    // Read a piece at a time, with no limit on the whole: however many players a bot has let in, it starts.
    // A line that is not an entry (or one past KnownPeersReader.lineLimit) stops the reading at once.
    var reader = KnownPeersReader(path: path)
    var refusal: KnownPeersError?
    do {
      try FileSystem.readPieces(descriptor, path: path) { piece in
        do throws(KnownPeersError) {
          try reader.feed(piece)
          return true
        } catch {
          refusal = error
          return false
        }
      }
    } catch {
      if case .unreadableFile(_, let reason) = error {
        throw KnownPeersError.unreadable(path: path, reason: reason)
      }
      throw KnownPeersError.unreadable(path: path, reason: error.description)
    }
    if let refusal { throw refusal }
    return try reader.finish()
  }

  /// Runs `change` holding the lock every writer of this file takes (`PATH.lock` beside it, created with a
  /// missing parent directory as 0700): a change read, applied and written under it is not lost to another
  /// process's (two `peers forget`, two joins remembering their hosts). `change` reads the file itself, inside.
  public func locked<R>(_ change: () throws -> R) throws -> R {
    let folder = FileSystem.directory(of: path)
    if !FileSystem.exists(folder) {
      try FileSystem.ensurePrivateDirectory(folder, tighten: false)
    }
    return try FileSystem.withLock(on: path, change)
  }

  /// Appends `entries` as lines, with one fsync (creating a missing parent directory as 0700): what a bot
  /// that lets new players in does instead of rewriting the whole file for each.
  public func append(_ entries: [(name: String, fingerprint: Fingerprint, added: CalendarDay)]) throws(SecurityError) {
    guard !entries.isEmpty else { return }
    let folder = FileSystem.directory(of: path)
    if !FileSystem.exists(folder) {
      try FileSystem.ensurePrivateDirectory(folder, tighten: false)
    }
    var text = ""
    for entry in entries { text += "\(KnownPeers.escape(entry.name)) \(entry.fingerprint) \(entry.added)\n" }
    try FileSystem.append(path, bytes: Array(text.utf8), mode: 0o600)
  }

  /// Replaces the file with `peers` (creating a missing parent directory as 0700).
  public func save(_ peers: KnownPeers) throws(SecurityError) {
    let folder = FileSystem.directory(of: path)
    if !FileSystem.exists(folder) {
      try FileSystem.ensurePrivateDirectory(folder, tighten: false)
    }
    try FileSystem.writeAtomically(path, bytes: Array(peers.render().utf8), mode: 0o600)
  }
}

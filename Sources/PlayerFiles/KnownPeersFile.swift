import Glibc
import PeerTrust
import Security

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
    try Self.readPieces(descriptor, path: path) { piece throws(KnownPeersError) in try reader.feed(piece) }
    return try reader.finish()
  }

  /// Hands known_peers, open on `descriptor` (of `path`, for messages), to `feed` a piece at a time, until its
  /// end or until `feed` refuses a piece: that refusal is thrown, and a read that fails is `unreadable`.
  static func readPieces(
    _ descriptor: Int32, path: String, _ feed: (ArraySlice<UInt8>) throws(KnownPeersError) -> Void
  ) throws(KnownPeersError) {
    var refusal: KnownPeersError?
    do {
      try FileSystem.readPieces(descriptor, path: path) { piece in
        do throws(KnownPeersError) {
          try feed(piece)
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
    try append(lines: entries.map { .peer(name: $0.name, fingerprint: $0.fingerprint, added: $0.added) })
  }

  /// Appends `lines` as `KnownPeers.render` writes them, with one fsync (creating a missing parent directory as
  /// 0700).
  package func append(lines: [KnownPeers.Line]) throws(SecurityError) {
    guard !lines.isEmpty else { return }
    let folder = FileSystem.directory(of: path)
    if !FileSystem.exists(folder) {
      try FileSystem.ensurePrivateDirectory(folder, tighten: false)
    }
    try FileSystem.append(path, bytes: Array(lines.map(KnownPeers.render).joined().utf8), mode: 0o600)
  }

  /// Replaces the file with `peers` (creating a missing parent directory as 0700). Never an excerpt, which would
  /// leave out every peer it was not made for.
  public func save(_ peers: KnownPeers) throws(SecurityError) {
    guard !peers.isExcerpt else {
      throw SecurityError.unwritableFile(path: path, reason: "only some of its lines were read (an excerpt)")
    }
    let folder = FileSystem.directory(of: path)
    if !FileSystem.exists(folder) {
      try FileSystem.ensurePrivateDirectory(folder, tighten: false)
    }
    try FileSystem.writeAtomically(path, bytes: Array(peers.render().utf8), mode: 0o600)
  }

  /// `line` with `address` among its addresses (a peer line; anything else as it is).
  package static func adding(_ address: String, to line: KnownPeers.Line) -> KnownPeers.Line {
    guard case .peer(let name, let fingerprint, let added, let addresses) = line, !addresses.contains(address) else {
      return line
    }
    return .peer(name: name, fingerprint: fingerprint, added: added, addresses: addresses + [address])
  }

  /// Rewrites the file a line at a time (atomically, as `save`), never holding it whole: each line as `change`
  /// gives it back (handed the line and its number), then `appending`; the index (`KnownPeersIndexFile`) is made
  /// for the new file as it is written. A last line cut short is left out, as
  /// `save` of what `load` read leaves it out; a bad line stops the rewrite with the file as it was. What a host's
  /// or joiner's change needs in place of `load`, change, `save` for a file of millions of peers.
  package func rewrite(
    _ change: (KnownPeers.Line, Int) -> KnownPeers.Line, appending: [KnownPeers.Line] = []
  ) throws {
    let peers: Int32
    switch FileExposure.open(path) {
    case .opened(let descriptor): peers = descriptor
    case .missing:
      var peers = KnownPeers()
      for line in appending { peers.append(line) }
      return try save(peers)
    case .exposed(let reason, let fix): throw KnownPeersError.exposed(path: path, reason: reason, fix: fix)
    case .unreadable(let reason): throw KnownPeersError.unreadable(path: path, reason: reason)
    }
    defer { close(peers) }
    var refusal: KnownPeersError?
    var index = IndexCollector(KnownPeersIndexFile(peersPath: path))
    do {
      try writeLines(from: peers, change, appending: appending, index: &index) { refusal = $0 }
    } catch {
      throw refusal ?? error
    }
    index.finish()
  }

  /// The rewrite itself; a bad line of the file is handed to `refused` before the write fails.
  private func writeLines(
    from peers: Int32, _ change: (KnownPeers.Line, Int) -> KnownPeers.Line, appending: [KnownPeers.Line],
    index: inout IndexCollector, refused: (KnownPeersError) -> Void
  ) throws(SecurityError) {
    try FileSystem.writeAtomically(path, mode: 0o600) { write throws(SecurityError) in
      var buffered: [UInt8] = []
      var failure: SecurityError?
      do throws(KnownPeersError) {
        try KnownPeersIndexFile(peersPath: path).read(peers) { line, place in
          let changed = change(line, place.line)
          let bytes = Array(KnownPeers.render(changed).utf8)
          index.add(changed, length: bytes.count)
          buffered += bytes
          guard buffered.count >= 1 << 16, failure == nil else { return }
          do throws(SecurityError) { try write(buffered) } catch { failure = error }
          buffered.removeAll(keepingCapacity: true)
        }
      } catch {
        refused(error)
        throw SecurityError.unwritableFile(path: path, reason: "known_peers could not be read again")
      }
      if let failure { throw failure }
      for line in appending {
        let bytes = Array(KnownPeers.render(line).utf8)
        index.add(line, length: bytes.count)
        buffered += bytes
      }
      try write(buffered)
    }
  }
}

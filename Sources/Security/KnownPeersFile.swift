/// The known-peers file on disk: read it, and replace it atomically with mode 0600.
public struct KnownPeersFile: Sendable {
  public let path: String

  public init(path: String) {
    self.path = path
  }

  /// The peers in the file; none when the file does not exist yet.
  public func load() throws(KnownPeersError) -> KnownPeers {
    if let (reason, fix) = FileExposure.problem(file: path) {
      throw KnownPeersError.exposed(path: path, reason: reason, fix: fix)
    }
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.read(path)
    } catch {
      if case .unreadableFile(_, let reason) = error {
        throw KnownPeersError.unreadable(path: path, reason: reason)
      }
      throw KnownPeersError.unreadable(path: path, reason: error.description)
    }
    guard let bytes else { return KnownPeers() }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      // Decoding would replace the bad bytes, and the next save would write that back over the player's line.
      let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
      throw KnownPeersError.malformed(path: path, line: bad + 1, reason: "the line is not valid UTF-8 text")
    }
    return try KnownPeers.parse(text, path: path)
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

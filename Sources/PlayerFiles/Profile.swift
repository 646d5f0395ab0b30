import Glibc
import PeerTrust
import Security

/// The player's identity and the peers it knows, under XDG_DATA_HOME.
public struct Profile: Sendable {
  public let paths: Paths
  public let name: String

  public init(paths: Paths, name: String) {
    self.paths = paths
    self.name = name
  }

  public var identityDirectory: String { paths.data + "/identity" }
  public var knownPeersPath: String { paths.data + "/known_peers" }

  /// The login name, as the default display name.
  public static func loginName(environment: [String: String]) -> String {
    if let user = environment["USER"], !user.isEmpty { return user }
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
    return "player"
  }

  /// The known peers, read again only when the file changed since this process last read or wrote it. The whole
  /// file: for the commands that list or change it; a match looks up what it needs (`knownPeersExcerpt`).
  public func knownPeers() throws -> KnownPeers {
    try KnownPeersSnapshot.load(knownPeersPath)
  }

  /// The index beside known_peers, through which a match finds the lines it needs.
  public var knownPeersIndex: KnownPeersIndexFile { KnownPeersIndexFile(peersPath: knownPeersPath) }

  /// The lines of known_peers a decision about one peer needs (its key, its names, the address joined at), at
  /// their line numbers: looked up through the index, each line read from the file and checked.
  public func knownPeersExcerpt(_ query: KnownPeersQuery) throws(KnownPeersError) -> KnownPeers {
    try knownPeersIndex.excerpt(query)
  }

  /// Remembers a peer the player accepted; a host's key also with the `address` it was met at (unless another key
  /// holds it). A new key whose entry takes the address, or none, is one line appended (one write, one fsync); a
  /// known key's entry given the address is rewritten a line at a time. Made under the file's lock, on the file as
  /// it is then (another process's change is kept), reading only the lines of that key and address; the index is
  /// made again before the lock is let go.
  public func remember(name: String, fingerprint: Fingerprint, address: String? = nil) throws {
    let file = KnownPeersFile(path: knownPeersPath)
    try file.locked {
      let index = knownPeersIndex
      let torn = try index.prepare()?.droppedTornLine
      let known = try index.excerpt(KnownPeersQuery(key: fingerprint, names: [], address: address), holdingLock: true)
      let today = CalendarDay.today()
      let free = address.map { known.lookup(address: $0).map { $0.fingerprint == fingerprint } ?? true } ?? false
      let new = !known.contains(name: name, fingerprint: fingerprint)
      let first = known.lookup(fingerprint: fingerprint)
      // A new key's own line takes the address (it is the key's first entry); a known key's first entry does.
      let own = free && first == nil ? address.map { [$0] } ?? [] : []
      let line = KnownPeers.Line.peer(name: name, fingerprint: fingerprint, added: today, addresses: own)
      if torn == nil, first == nil || !free || first?.addresses.contains(address ?? "") == true {
        guard new else { return }
        return try index.appending([line]) { try file.append(lines: [line]) }
      }
      try file.rewrite(
        { line, number in
          guard free, let address, let first, number == first.line else { return line }
          return KnownPeersFile.adding(address, to: line)
        }, appending: new ? [line] : [])
    }
  }

  /// Records that a known host's key was met at `address` too (nothing to write when it is already there, or
  /// when another key holds that address). Under the file's lock, as `remember`.
  public func bind(_ fingerprint: Fingerprint, to address: String) throws {
    let file = KnownPeersFile(path: knownPeersPath)
    try file.locked {
      let index = knownPeersIndex
      let known = try index.excerpt(KnownPeersQuery(key: fingerprint, names: [], address: address), holdingLock: true)
      guard let entry = known.lookup(fingerprint: fingerprint), !entry.addresses.contains(address),
        known.lookup(address: address) == nil
      else { return }
      // That one line replaced, the rest of the file copied as it is and the index brought along; or, when the
      // index does not say where the line is, the file rewritten a line at a time.
      let line = KnownPeers.Line.peer(
        name: entry.name, fingerprint: fingerprint, added: entry.added, addresses: entry.addresses + [address])
      if try index.replace(line: entry.line, of: fingerprint, with: line) { return }
      try file.rewrite { line, number in number == entry.line ? KnownPeersFile.adding(address, to: line) : line }
    }
  }
}

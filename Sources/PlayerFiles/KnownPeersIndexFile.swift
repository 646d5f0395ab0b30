import Glibc
import PeerTrust
import Security

/// The index beside known_peers on disk (`known_peers.index`, see `KnownPeersIndex`): the lines a decision about
/// one peer needs (`excerpt`), found through the index in a few block reads, each line read from known_peers
/// itself and checked. An index that is missing, names another version of known_peers, fails the rule for the
/// player's files or is damaged is never believed: it is made again from known_peers (when it may be written
/// there), or known_peers is read through for the lines instead. Either way the lines come from known_peers.
public struct KnownPeersIndexFile: Sendable {
  /// known_peers' path.
  public let peersPath: String
  public var path: String { peersPath + ".index" }

  public init(peersPath: String) {
    self.peersPath = peersPath
  }

  /// How long a lookup that finds the index out of date waits for a writer holding known_peers' lock, which
  /// leaves the index up to date when it is done (a match's lookup just after its own new peer was appended), before
  /// it makes the index itself.
  public static let writerPatience = 5.0

  /// The lines of known_peers `query` needs, at their line numbers (none when there is no file). `holdingLock`:
  /// the caller is a writer holding known_peers' lock (nobody else's write is waited for).
  public func excerpt(_ query: KnownPeersQuery, holdingLock: Bool = false) throws(KnownPeersError) -> KnownPeers {
    if let found = try lookUp(query, orMake: false) { return found }
    let lock = holdingLock ? nil : FileSystem.sharedLock(on: peersPath, patience: KnownPeersIndexFile.writerPatience)
    defer { if let lock { close(lock) } }
    return try lookUp(query, orMake: true) ?? KnownPeers(excerpt: [])
  }

  /// The excerpt through the index; when it is not to be believed, nil, or (`orMake`) through an index made again,
  /// or known_peers read through when it cannot be.
  private func lookUp(_ query: KnownPeersQuery, orMake: Bool) throws(KnownPeersError) -> KnownPeers? {
    guard let peers = try openPeers() else { return KnownPeers(excerpt: []) }
    defer { close(peers) }
    let stamp = KnownPeersIndexFile.stamp(peers)
    if let found = indexed(query, peers: peers, stamp: stamp) { return found }
    guard orMake else { return nil }
    if (try? build(peers: peers)) != nil, let found = indexed(query, peers: peers, stamp: stamp) { return found }
    return try scan(query, peers: peers)
  }

  /// The index's header when it is the current one, after making it again if it was not: what `host` and `join`
  /// do before anyone connects, so the first decision finds it made (and a bad line of known_peers is reported
  /// then). Nil when known_peers does not exist; when the index cannot be written, known_peers is read through
  /// once instead (its torn last line found) and the header says what a written one would.
  @discardableResult
  public func prepare() throws(KnownPeersError) -> KnownPeersIndex.Header? {
    guard let peers = try openPeers() else { return nil }
    defer { close(peers) }
    if let header = current(peers: peers) { return header }
    return try build(peers: peers)
  }

  /// Makes the index again from known_peers as it is now (a writer does, under the file's lock, after changing
  /// it). Nothing when there is no known_peers.
  public func rebuild() throws(KnownPeersError) {
    guard let peers = try openPeers() else { return }
    defer { close(peers) }
    _ = try build(peers: peers)
  }

  // MARK: reading through the index

  /// The excerpt through the index, or nil when the index is not to be believed.
  private func indexed(_ query: KnownPeersQuery, peers: Int32, stamp: KnownPeersIndex.SourceStamp?)
    -> KnownPeers?
  {
    guard let stamp, let index = openIndex(), let header = header(index, source: stamp) else { return nil }
    defer { close(index) }
    var picked: [(line: KnownPeers.Line, number: Int)] = []
    var seen: Set<UInt64> = []
    for key in query.indexKeys {
      guard let records = KnownPeersIndex.search(key, blocks: header.blocks, read: { block(index, $0) }) else {
        return nil
      }
      for record in records where seen.insert(record.offset).inserted {
        guard let line = lineAt(record.offset, peers: peers), KnownPeersIndex.keys(of: line).contains(record.key)
        else { return nil }  // the index points at something else: damaged
        if query.matches(line) { picked.append((line, Int(record.line))) }
      }
    }
    return KnownPeers(excerpt: picked)
  }

  /// The header of the index open at `index` when it was made from `source` and is whole.
  func header(_ index: Int32, source: KnownPeersIndex.SourceStamp) -> KnownPeersIndex.Header? {
    guard let header = KnownPeersIndex.decodeHeader(readBlock(index, number: 0)), header.source == source else {
      return nil
    }
    var info = stat()
    guard fstat(index, &info) == 0, Int(info.st_size) == header.fileSize else { return nil }
    return header
  }

  func current(peers: Int32) -> KnownPeersIndex.Header? {
    guard let stamp = KnownPeersIndexFile.stamp(peers), let index = openIndex() else { return nil }
    defer { close(index) }
    return header(index, source: stamp)
  }

  func block(_ index: Int32, _ number: Int) -> [KnownPeersIndex.Record]? {
    KnownPeersIndex.decodeBlock(readBlock(index, number: number), number: number)
  }

  private func readBlock(_ index: Int32, number: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: KnownPeersIndex.blockSize)
    let count = bytes.withUnsafeMutableBytes {
      pread(index, $0.baseAddress, $0.count, off_t(number * KnownPeersIndex.blockSize))
    }
    return count == bytes.count ? bytes : []
  }

  /// The line that starts at `offset` of known_peers, when a line starts there and reads as one.
  func lineAt(_ offset: UInt64, peers: Int32) -> KnownPeers.Line? {
    guard offset <= UInt64(Int64.max) else { return nil }
    let start = Int64(offset)
    var bytes: [UInt8] = []
    var position = start == 0 ? 0 : start - 1
    var piece = [UInt8](repeating: 0, count: 512)
    while bytes.count <= KnownPeersReader.lineLimit + 1 {
      let count = piece.withUnsafeMutableBytes { pread(peers, $0.baseAddress, $0.count, off_t(position)) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      bytes += piece[0..<count]
      position += Int64(count)
      if count == 0 || piece[0..<count].contains(UInt8(ascii: "\n")) { break }
    }
    if start > 0 {
      guard bytes.first == UInt8(ascii: "\n") else { return nil }
      bytes.removeFirst()
    }
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    while line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard String(validating: line, as: UTF8.self) != nil else { return nil }
    var dates: [ArraySlice<UInt8>: CalendarDay] = [:]
    return try? KnownPeers.parseLine(line, dates: &dates)
  }

  // MARK: reading known_peers through

  /// The excerpt read from the whole of known_peers, a piece at a time, keeping only the lines asked for.
  private func scan(_ query: KnownPeersQuery, peers: Int32) throws(KnownPeersError) -> KnownPeers {
    var picked: [(line: KnownPeers.Line, number: Int)] = []
    try read(peers) { line, place in
      if query.matches(line) { picked.append((line, place.line)) }
    }
    return KnownPeers(excerpt: picked)
  }

  /// Hands every line of the open known_peers to `take`, from its start; returns the torn last line, if any, and
  /// how many lines there were.
  @discardableResult
  func read(_ peers: Int32, _ take: (KnownPeers.Line, KnownPeersScanner.Place) -> Void) throws(KnownPeersError)
    -> (torn: Int?, lines: Int)
  {
    guard lseek(peers, 0, SEEK_SET) == 0 else {
      throw KnownPeersError.unreadable(path: peersPath, reason: FileSystem.describeErrno())
    }
    var scanner = KnownPeersScanner(path: peersPath)
    try KnownPeersFile.readPieces(peers, path: peersPath) { piece throws(KnownPeersError) in
      try scanner.feed(piece) { line, place throws(KnownPeersError) in take(line, place) }
    }
    try scanner.finish { line, place throws(KnownPeersError) in take(line, place) }
    return (scanner.droppedTornLine, scanner.lines)
  }

  // MARK: files

  /// known_peers opened under the rule for the player's files; nil when there is none.
  func openPeers() throws(KnownPeersError) -> Int32? {
    switch FileExposure.open(peersPath) {
    case .opened(let descriptor): return descriptor
    case .missing: return nil
    case .exposed(let reason, let fix): throw KnownPeersError.exposed(path: peersPath, reason: reason, fix: fix)
    case .unreadable(let reason): throw KnownPeersError.unreadable(path: peersPath, reason: reason)
    }
  }

  /// The index opened under the same rule; nil when it is missing or may not be believed.
  func openIndex() -> Int32? {
    guard case .opened(let descriptor) = FileExposure.open(path) else { return nil }
    return descriptor
  }

  /// Which version of known_peers the descriptor reads.
  static func stamp(_ descriptor: Int32) -> KnownPeersIndex.SourceStamp? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return KnownPeersIndex.SourceStamp(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
  }
}

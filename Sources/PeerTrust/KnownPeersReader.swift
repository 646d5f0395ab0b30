/// Reads known_peers a piece at a time, so a big file is never held whole besides its entries: `feed` the
/// pieces in order, then `finish`. A line may be split across pieces. A last line without its newline that is
/// not valid UTF-8 or not an entry was cut short by a writer that was killed: it is dropped
/// (`KnownPeers.droppedTornLine`); any other bad line is refused with its number. The lines are read by
/// `KnownPeersScanner`.
package struct KnownPeersReader {
  /// A line longer than this is refused as it arrives (no entry comes near it): a file that is not
  /// known_peers, with no newline in it, is not read whole into memory to say so.
  package static let lineLimit = 1 << 20

  private var scanner: KnownPeersScanner
  private var peers = KnownPeers()

  package init(path: String) { scanner = KnownPeersScanner(path: path) }

  package mutating func feed(_ piece: ArraySlice<UInt8>) throws(KnownPeersError) {
    // Both taken out while the scanner hands lines over: one access to self at a time, neither copied.
    var (scanner, peers) = (self.scanner, self.peers)
    (self.scanner, self.peers) = (KnownPeersScanner(path: ""), KnownPeers())
    defer { (self.scanner, self.peers) = (scanner, peers) }
    try scanner.feed(piece) { line, _ in peers.append(line) }
  }

  /// The peers read; the last line is the one that may have been torn.
  package mutating func finish() throws(KnownPeersError) -> KnownPeers {
    var (scanner, peers) = (self.scanner, self.peers)
    (self.scanner, self.peers) = (KnownPeersScanner(path: ""), KnownPeers())
    defer { (self.scanner, self.peers) = (scanner, peers) }
    try scanner.finish { line, _ in peers.append(line) }
    peers.droppedTornLine = scanner.droppedTornLine
    return peers
  }
}

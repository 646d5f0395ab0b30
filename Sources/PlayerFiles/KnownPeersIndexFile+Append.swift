import Glibc
import PeerTrust
import Security

/// Keeping the index up to date when lines are appended to known_peers (a peer remembered): their records are
/// merged into the index, read and written through once, without reading known_peers again.
extension KnownPeersIndexFile {
  /// Runs `append`, which adds `lines` at the end of known_peers (the caller holds the file's lock), and brings
  /// the index up to date with them: merged into it when it was the index of the file just before and the file
  /// only grew by those lines; otherwise made again.
  package func appending(_ lines: [KnownPeers.Line], _ append: () throws -> Void) throws {
    var before: KnownPeersIndex.Header?
    if let peers = try openPeers() {
      before = current(peers: peers)
      close(peers)
    }
    try append()
    guard let before, before.droppedTornLine == nil, (try? merge(lines, into: before)) == true else {
      try? rebuild()
      return
    }
  }

  /// The index of the file before, with the records of `lines` appended at its end merged in; false when the
  /// file or the index is not as expected (then nothing was written).
  private func merge(_ lines: [KnownPeers.Line], into old: KnownPeersIndex.Header) throws(SecurityError) -> Bool {
    guard let peers = try? openPeers() else { return false }
    defer { close(peers) }
    guard let now = KnownPeersIndexFile.stamp(peers), now.device == old.source.device, now.inode == old.source.inode
    else { return false }
    let lengths = lines.map { KnownPeers.render($0).utf8.count }
    var offset = Int(now.size) - lengths.reduce(0, +)
    // A last line without its newline gets one before the first appended line.
    guard offset >= old.source.size, offset <= old.source.size + 1 else { return false }
    var added: [KnownPeersIndex.Record] = []
    var number = old.lines
    for (line, length) in zip(lines, lengths) {
      number += 1
      for key in KnownPeersIndex.keys(of: line) {
        added.append(KnownPeersIndex.Record(key: key, offset: UInt64(offset), line: UInt64(number)))
      }
      offset += length
    }
    added.sort()
    guard let index = openIndex() else { return false }
    defer { close(index) }
    guard header(index, source: old.source) == old else { return false }
    let header = KnownPeersIndex.Header(
      source: now, entries: old.entries + lines.count, records: old.records + added.count, droppedTornLine: nil,
      lines: number)
    var writer = try IndexWriter(path: path, header: header)
    var next = 0
    var previous: KnownPeersIndex.Record?
    for blockNumber in stride(from: 1, through: old.blocks, by: 1) {
      guard let records = block(index, blockNumber), previous.map({ records[0] >= $0 }) ?? true else {
        writer.abandon()
        return false
      }
      var merged: [KnownPeersIndex.Record] = []
      merged.reserveCapacity(records.count)
      for record in records {
        while next < added.count && added[next] < record {
          merged.append(added[next])
          next += 1
        }
        merged.append(record)
      }
      writer.add(merged)
      previous = records.last
    }
    writer.add(Array(added[next...]))
    try writer.finish()
    return true
  }
}

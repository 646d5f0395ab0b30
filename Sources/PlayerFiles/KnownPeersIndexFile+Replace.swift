import Glibc
import PeerTrust
import Security

/// One line of known_peers replaced (an address bound to a known key's line) without reading the file as entries:
/// the file copied byte for byte around the new line, and the index brought along (the records after the line
/// moved by the difference in length, the line's own made again), each read and written through once.
extension KnownPeersIndexFile {
  /// Replaces line `number`, the entry of `key` (found through the index), with `line`, and the index with it (or,
  /// when that fails, the index is left out of date, to be made again); false when the index is not the file's or
  /// does not point at that entry there: nothing was written, and the caller rewrites the file a line at a time
  /// instead. The caller holds the file's lock.
  package func replace(line number: Int, of key: Fingerprint, with line: KnownPeers.Line) throws -> Bool {
    guard let peers = try openPeers() else { return false }
    defer { close(peers) }
    guard let old = current(peers: peers), old.droppedTornLine == nil, let index = openIndex() else { return false }
    defer { close(index) }
    let found = KnownPeersIndex.search(KnownPeersIndex.Key.fingerprint(key), blocks: old.blocks) { block(index, $0) }
    guard let offset = found?.first(where: { $0.line == UInt64(number) })?.offset,
      let length = lineLength(at: Int(offset), peers: peers), let replaced = lineAt(offset, peers: peers),
      case .peer(_, key, _, _) = replaced
    else { return false }
    let bytes = Array(KnownPeers.render(line).utf8)
    try copy(peers, replacing: Int(offset)..<Int(offset) + length, with: bytes)
    var added = KnownPeersIndex.keys(of: line).map {
      KnownPeersIndex.Record(key: $0, offset: offset, line: UInt64(number))
    }
    added.sort()
    let dropped = KnownPeersIndex.keys(of: replaced).count
    _ = try? moveRecords(index, of: old, at: offset, by: bytes.count - length, dropping: dropped, adding: added)
    return true
  }

  /// The length of the line at `offset`, with its newline (or to the end of the file).
  private func lineLength(at offset: Int, peers: Int32) -> Int? {
    var piece = [UInt8](repeating: 0, count: 4096)
    var length = 0
    while length <= KnownPeersReader.lineLimit {
      let count = piece.withUnsafeMutableBytes { pread(peers, $0.baseAddress, $0.count, off_t(offset + length)) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return length }
      if let newline = piece[0..<count].firstIndex(of: UInt8(ascii: "\n")) { return length + newline + 1 }
      length += count
    }
    return nil
  }

  /// known_peers written anew: its bytes before `range`, then `bytes`, then its bytes after `range`.
  private func copy(_ peers: Int32, replacing range: Range<Int>, with bytes: [UInt8]) throws(SecurityError) {
    var size = stat()
    guard fstat(peers, &size) == 0 else {
      throw SecurityError.unreadableFile(path: peersPath, reason: FileSystem.describeErrno())
    }
    try FileSystem.writeAtomically(peersPath, mode: 0o600) { write throws(SecurityError) in
      for (start, end) in [(0, range.lowerBound), (range.upperBound, Int(size.st_size))] {
        var position = start
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        while position < end {
          let count = piece.withUnsafeMutableBytes {
            pread(peers, $0.baseAddress, min($0.count, end - position), off_t(position))
          }
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else {
            throw SecurityError.unreadableFile(path: peersPath, reason: "it ended while it was copied")
          }
          try write(Array(piece[0..<count]))
          position += count
        }
        if start == 0 { try write(bytes) }
      }
    }
  }

  /// The index for the file as it is now: every record of the old one but the replaced line's (`dropped` of
  /// them), those after it moved by `shift` bytes, and `added` (sorted) put in order.
  private func moveRecords(
    _ index: Int32, of old: KnownPeersIndex.Header, at offset: UInt64, by shift: Int, dropping dropped: Int,
    adding added: [KnownPeersIndex.Record]
  ) throws(SecurityError) -> Bool {
    guard let peers = try? openPeers() else { return false }
    defer { close(peers) }
    guard let now = KnownPeersIndexFile.stamp(peers), Int(now.size) == Int(old.source.size) + shift else {
      return false
    }
    var writer = try IndexWriter(path: path, header: old)
    var next = 0
    var kept = 0
    for blockNumber in stride(from: 1, through: old.blocks, by: 1) {
      guard let records = block(index, blockNumber) else {
        writer.abandon()
        return false
      }
      var merged: [KnownPeersIndex.Record] = []
      for var record in records where record.offset != offset {
        if record.offset > offset { record.offset = UInt64(Int(record.offset) + shift) }
        while next < added.count && added[next] < record {
          merged.append(added[next])
          next += 1
        }
        merged.append(record)
        kept += 1
      }
      writer.add(merged)
    }
    writer.add(Array(added[next...]))
    guard old.records - kept == dropped else {
      writer.abandon()
      return false
    }
    writer.replaceHeader(
      KnownPeersIndex.Header(
        source: now, entries: old.entries, records: kept + added.count, droppedTornLine: nil, lines: old.lines))
    try writer.finish()
    return true
  }
}

import Glibc
import PeerTrust
import Security

/// Making the index: known_peers read through once, each line's records put in one of
/// `KnownPeersIndex.partitions` anonymous files by the top bits of their hash, then each part sorted in memory
/// (a 64th of the records) and written as blocks to a new file that replaces the index atomically. Memory stays
/// small however big known_peers is.
extension KnownPeersIndexFile {
  /// Makes the index from the open known_peers and returns its header; written only when it may be written there
  /// (the rule for the player's files) and known_peers did not change while it was read. A bad line is refused
  /// (`KnownPeersError.malformed`) as a whole read refuses it.
  func build(peers: Int32) throws(KnownPeersError) -> KnownPeersIndex.Header {
    guard let before = KnownPeersIndexFile.stamp(peers) else {
      throw KnownPeersError.unreadable(path: peersPath, reason: FileSystem.describeErrno())
    }
    var parts = writable ? PartFiles(prefix: path + ".tmp-\(getpid())-part") : nil
    defer { parts?.close() }
    var entries = 0
    var records = 0
    let (torn, lines) = try read(peers) { line, place in
      let keys = KnownPeersIndex.keys(of: line)
      guard !keys.isEmpty else { return }
      entries += 1
      records += keys.count
      for key in keys {
        parts?.add(KnownPeersIndex.Record(key: key, offset: UInt64(place.offset), line: UInt64(place.line)))
      }
    }
    let header = KnownPeersIndex.Header(
      source: before, entries: entries, records: records, droppedTornLine: torn, lines: lines)
    guard var parts, parts.flush(), KnownPeersIndexFile.stamp(peers) == before, stillAt(before) else {
      return header
    }
    try? write(header, parts: &parts)
    return header
  }

  /// Whether the index may be written beside known_peers (its directory and any file there pass the rule).
  var writable: Bool { FileExposure.problem(file: path) == nil }

  /// Whether known_peers' path still leads to the file that was read.
  private func stillAt(_ stamp: KnownPeersIndex.SourceStamp) -> Bool {
    var info = stat()
    return stat(peersPath, &info) == 0 && UInt64(info.st_dev) == stamp.device
      && UInt64(info.st_ino) == stamp.inode
  }

  /// Writes the sorted parts as blocks to a new file and renames it over the index.
  func write(_ header: KnownPeersIndex.Header, parts: inout PartFiles) throws(SecurityError) {
    var writer = try IndexWriter(path: path, header: header)
    for part in 0..<KnownPeersIndex.partitions {
      guard let sorted = parts.sorted(part) else {
        writer.abandon()
        throw SecurityError.unwritableFile(path: path, reason: "the records could not be read back")
      }
      writer.add(sorted)
    }
    try writer.finish()
  }
}

/// A new index written a block at a time to a temporary file beside it (the header first, the records in order
/// after it), then renamed over the index.
struct IndexWriter {
  private let path: String
  private let temporary: String
  private let descriptor: Int32
  private var pending: [KnownPeersIndex.Record] = []
  private var number = 1
  private var ok: Bool

  init(path: String, header: KnownPeersIndex.Header) throws(SecurityError) {
    FileSystem.removeStaleTemporaries(of: path)
    self.path = path
    temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SecurityError.unwritableFile(path: path, reason: FileSystem.describeErrno()) }
    ok = writeAll(descriptor, KnownPeersIndex.encode(header))
  }

  /// Puts `header` in place of the one given at first (for a header known only once the file it names is in place).
  mutating func replaceHeader(_ header: KnownPeersIndex.Header) {
    let bytes = KnownPeersIndex.encode(header)
    ok = ok && pwrite(descriptor, bytes, bytes.count, 0) == bytes.count
  }

  /// Adds records that follow every record added before, in order.
  mutating func add(_ records: [KnownPeersIndex.Record]) {
    let perBlock = KnownPeersIndex.recordsPerBlock
    pending += records
    var start = 0
    while ok && pending.count - start >= perBlock {
      ok = writeAll(descriptor, KnownPeersIndex.encodeBlock(pending[start..<start + perBlock], number: number))
      start += perBlock
      number += 1
    }
    pending.removeFirst(start)
  }

  /// Writes the last block, makes the file durable and puts it in the index's place.
  mutating func finish() throws(SecurityError) {
    if ok && !pending.isEmpty { ok = writeAll(descriptor, KnownPeersIndex.encodeBlock(pending[...], number: number)) }
    ok = ok && fsync(descriptor) == 0
    ok = close(descriptor) == 0 && ok
    guard ok, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw SecurityError.unwritableFile(path: path, reason: FileSystem.describeErrno())
    }
  }

  /// Leaves the index as it was.
  func abandon() {
    close(descriptor)
    unlink(temporary)
  }
}

/// Writes all of `bytes`; false on an error.
private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { return false }
    offset += count
  }
  return true
}

/// The index of a known_peers being written anew (`KnownPeersFile.rewrite`), gathered a line at a time as each
/// is written, and written itself once the new file is in place: one pass over the file, not a write and then a
/// read. Nothing is written when the index may not be written there.
struct IndexCollector {
  private let index: KnownPeersIndexFile
  private var parts: PartFiles?
  private var entries = 0
  private var records = 0
  private var lines = 0
  private var offset = 0

  init(_ index: KnownPeersIndexFile) {
    self.index = index
    parts = index.writable ? PartFiles(prefix: index.path + ".tmp-\(getpid())-part") : nil
  }

  /// The next line of the new file, of `length` bytes with its newline.
  mutating func add(_ line: KnownPeers.Line, length: Int) {
    lines += 1
    let keys = KnownPeersIndex.keys(of: line)
    if !keys.isEmpty {
      entries += 1
      records += keys.count
      for key in keys {
        parts?.add(KnownPeersIndex.Record(key: key, offset: UInt64(offset), line: UInt64(lines)))
      }
    }
    offset += length
  }

  /// Writes the index of the new file, now at known_peers' path (its size checked against what was gathered).
  mutating func finish() {
    defer { parts?.close() }
    var info = stat()
    guard var parts, parts.flush(), stat(index.peersPath, &info) == 0, Int(info.st_size) == offset else { return }
    let source = KnownPeersIndex.SourceStamp(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    let header = KnownPeersIndex.Header(
      source: source, entries: entries, records: records, droppedTornLine: nil, lines: lines)
    try? index.write(header, parts: &parts)
  }
}

/// The anonymous files the records are parted into while the index is made (unlinked once open: nothing is left
/// behind when the process dies; named as the index's temporary files, which a later write removes when their
/// process is gone), each written through a buffer of its own.
struct PartFiles {
  private var descriptors: [Int32] = []
  private var buffers: [[UInt8]]
  private var failed = false
  private static let bufferSize = 1 << 16

  /// Nil when the files cannot be made (named `prefix` and a random number).
  init?(prefix: String) {
    buffers = Array(repeating: [], count: KnownPeersIndex.partitions)
    for _ in 0..<KnownPeersIndex.partitions {
      let name = prefix + "\(UInt64.random(in: 0...UInt64.max))"
      let descriptor = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        close()
        return nil
      }
      unlink(name)
      descriptors.append(descriptor)
    }
  }

  mutating func add(_ record: KnownPeersIndex.Record) {
    let part = record.partition
    withUnsafeBytes(of: (record.key.littleEndian, record.offset.littleEndian, record.line.littleEndian)) {
      buffers[part].append(contentsOf: $0)
    }
    if buffers[part].count >= PartFiles.bufferSize { flush(part) }
  }

  private mutating func flush(_ part: Int) {
    if !writeAll(descriptors[part], buffers[part]) { failed = true }
    buffers[part].removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered; false when any write failed.
  mutating func flush() -> Bool {
    for part in buffers.indices { flush(part) }
    return !failed
  }

  /// The records of `part`, sorted; nil when they cannot be read back.
  func sorted(_ part: Int) -> [KnownPeersIndex.Record]? {
    let descriptor = descriptors[part]
    var info = stat()
    guard fstat(descriptor, &info) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      offset += count
    }
    var records: [KnownPeersIndex.Record] = []
    records.reserveCapacity(bytes.count / 24)
    bytes.withUnsafeBytes { raw in
      for start in stride(from: 0, to: raw.count - 23, by: 24) {
        records.append(
          KnownPeersIndex.Record(
            key: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
            offset: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)),
            line: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self))))
      }
    }
    records.sort()
    return records
  }

  mutating func close() {
    for descriptor in descriptors { Glibc.close(descriptor) }
    descriptors = []
  }
}

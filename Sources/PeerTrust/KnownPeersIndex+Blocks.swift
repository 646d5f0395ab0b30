/// The index's blocks written and read, and the search through them.
extension KnownPeersIndex {
  /// The header block.
  public static func encode(_ header: Header) -> [UInt8] {
    var payload = magic
    let source = header.source
    for value in [source.device, source.inode, UInt64(bitPattern: source.size), UInt64(bitPattern: source.modified)] {
      payload += littleEndian(value)
    }
    payload += littleEndian(UInt64(bitPattern: source.changed))
    for value in [header.entries, header.records, header.droppedTornLine ?? 0, header.lines] {
      payload += littleEndian(UInt64(value))
    }
    return block(number: 0, count: 0, payload: payload)
  }

  /// The header, or nil when the block is not one (another format, damaged).
  public static func decodeHeader(_ bytes: [UInt8]) -> Header? {
    guard let payload = payload(bytes, number: 0), payload.starts(with: magic) else { return nil }
    var fields: [UInt64] = []
    var offset = payload.startIndex + magic.count
    for _ in 0..<9 {
      fields.append(word(payload, at: offset))
      offset += 8
    }
    guard fields[5...].allSatisfy({ $0 <= Int.max }) else { return nil }
    let source = SourceStamp(
      device: fields[0], inode: fields[1], size: Int64(bitPattern: fields[2]), modified: Int64(bitPattern: fields[3]),
      changed: Int64(bitPattern: fields[4]))
    return Header(
      source: source, entries: Int(fields[5]), records: Int(fields[6]),
      droppedTornLine: fields[7] == 0 ? nil : Int(fields[7]), lines: Int(fields[8]))
  }

  /// Block `number` (from 1) holding `records` (at most `recordsPerBlock`, sorted).
  public static func encodeBlock(_ records: ArraySlice<Record>, number: Int) -> [UInt8] {
    var payload: [UInt8] = []
    payload.reserveCapacity(records.count * recordSize)
    for record in records {
      payload += littleEndian(record.key)
      payload += littleEndian(record.offset)
      payload += littleEndian(record.line)
    }
    return block(number: number, count: records.count, payload: payload)
  }

  /// The records of block `number`, or nil when it is not that block, fails its checksum, or is out of order.
  public static func decodeBlock(_ bytes: [UInt8], number: Int) -> [Record]? {
    guard let payload = payload(bytes, number: number) else { return nil }
    let count = Int(word32(bytes, at: 8))
    guard count >= 1, count <= recordsPerBlock else { return nil }
    var records: [Record] = []
    records.reserveCapacity(count)
    for index in 0..<count {
      let at = payload.startIndex + index * recordSize
      let record = Record(
        key: word(payload, at: at), offset: word(payload, at: at + 8), line: word(payload, at: at + 16))
      if let previous = records.last, record < previous { return nil }
      records.append(record)
    }
    return records
  }

  /// The records with `key` among `blocks` blocks, which `read` gives by number (1...blocks; nil when one cannot
  /// be read or is damaged): a binary search on each block's last key, then on through the blocks that follow
  /// while they may hold more. Nil when a block read is damaged or the blocks are out of order: the index is then
  /// not to be believed.
  public static func search(_ key: UInt64, blocks: Int, read: (Int) -> [Record]?) -> [Record]? {
    var low = 1
    var high = blocks + 1
    while low < high {
      let middle = (low + high) / 2
      guard let records = read(middle), let last = records.last else { return nil }
      if last.key < key { low = middle + 1 } else { high = middle }
    }
    var found: [Record] = []
    var previous: Record?
    var number = low
    while number <= blocks {
      guard let records = read(number), let first = records.first, let last = records.last else { return nil }
      if let previous, first < previous { return nil }
      found += records.filter { $0.key == key }
      if last.key > key { break }
      previous = last
      number += 1
    }
    return found
  }

  /// A block: the checksum of the rest, the count, the block's number, the payload, zeros to the block's end.
  private static func block(number: Int, count: Int, payload: [UInt8]) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 8)
    bytes += littleEndian32(UInt32(count)) + littleEndian32(UInt32(number)) + payload
    bytes += [UInt8](repeating: 0, count: blockSize - bytes.count)
    let sum = littleEndian(checksum(bytes[8...]))
    bytes.replaceSubrange(0..<8, with: sum)
    return bytes
  }

  /// The payload of a block that is whole, is block `number` and passes its checksum.
  private static func payload(_ bytes: [UInt8], number: Int) -> ArraySlice<UInt8>? {
    guard bytes.count == blockSize, word(bytes[...], at: 0) == checksum(bytes[8...]),
      Int(word32(bytes, at: 12)) == number
    else { return nil }
    return bytes[16...]
  }

  private static func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
  private static func littleEndian32(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }

  private static func word(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << ($1 * 8) }
  }

  private static func word32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << ($1 * 8) }
  }
}

/// The payload of a frame: fields of tag (1 byte), length (2 bytes, big-endian) and value. Unknown tags are
/// skipped (so later versions can add fields); a tag may appear once.
///
/// Reading keeps the payload and where each field lies in it (a message has a handful of fields, so they are
/// searched from the front); a value becomes an array or a string only when asked for. This runs for every
/// message received, so it avoids allocating where it can.
struct Fields {
  private let payload: [UInt8]
  private var entries: [(tag: UInt8, range: Range<Int>)] = []
  /// The message the fields belong to, named in errors.
  let kind: Message.Kind

  init(decoding payload: [UInt8], kind: Message.Kind) throws(WireError) {
    self.payload = payload
    self.kind = kind
    // Room made once for a message's usual few fields (a field takes at least 3 bytes), not grown field by field.
    entries.reserveCapacity(Swift.min(payload.count / 3, 8))
    var index = 0
    while index < payload.count {
      guard index + 3 <= payload.count else { throw .truncatedField(tag: payload[index]) }
      let tag = payload[index]
      let length = Int(payload[index + 1]) << 8 | Int(payload[index + 2])
      guard index + 3 + length <= payload.count else { throw .truncatedField(tag: tag) }
      guard range(tag) == nil else { throw .duplicateField(tag: tag) }
      entries.append((tag, (index + 3)..<(index + 3 + length)))
      index += 3 + length
    }
  }

  /// Every field in the order it came, with its value.
  var all: [(tag: UInt8, value: [UInt8])] { entries.map { ($0.tag, Array(payload[$0.range])) } }

  private func range(_ tag: UInt8) -> Range<Int>? {
    entries.first { $0.tag == tag }?.range
  }

  private func range(_ tag: UInt8, _ name: String, count: Int? = nil) throws(WireError) -> Range<Int> {
    guard let range = range(tag) else { throw .missingField(name, in: "\(kind)") }
    if let count, range.count != count { throw .badValue(name, reason: "\(range.count) bytes, expected \(count)") }
    return range
  }

  func has(_ tag: UInt8) -> Bool { range(tag) != nil }

  func bytes(_ tag: UInt8, _ name: String, count: Int? = nil) throws(WireError) -> [UInt8] {
    Array(payload[try range(tag, name, count: count)])
  }

  func string(_ tag: UInt8, _ name: String, maximum: Int) throws(WireError) -> String {
    let range = try range(tag, name)
    guard range.count <= maximum else { throw .fieldTooLong(name, length: range.count, maximum: maximum) }
    guard let text = String(validating: payload[range], as: UTF8.self) else { throw .invalidUTF8(field: name) }
    return text
  }

  func optionalString(_ tag: UInt8, _ name: String, maximum: Int) throws(WireError) -> String? {
    has(tag) ? try string(tag, name, maximum: maximum) : nil
  }

  func u8(_ tag: UInt8, _ name: String) throws(WireError) -> UInt8 {
    payload[try range(tag, name, count: 1).lowerBound]
  }

  func u16(_ tag: UInt8, _ name: String) throws(WireError) -> UInt16 {
    let start = try range(tag, name, count: 2).lowerBound
    return UInt16(payload[start]) << 8 | UInt16(payload[start + 1])
  }

  func u32(_ tag: UInt8, _ name: String) throws(WireError) -> UInt32 {
    try bytes(tag, name, count: 4).reduce(0) { $0 << 8 | UInt32($1) }
  }

  func u16s(_ tag: UInt8, _ name: String) throws(WireError) -> [UInt16] {
    let range = try range(tag, name)
    guard range.count.isMultiple(of: 2), !range.isEmpty else {
      throw .badValue(name, reason: "\(range.count) bytes is not a list of 2-byte numbers")
    }
    return stride(from: range.lowerBound, to: range.upperBound, by: 2).map {
      UInt16(payload[$0]) << 8 | UInt16(payload[$0 + 1])
    }
  }
}

/// Writes one frame straight into the bytes to send: the 2-byte length, the type, then each field as tag,
/// length and value. Fields must be written in increasing tag order (the order a receiver's `Fields` does
/// not need, but the one this encoding has always produced).
struct FrameWriter {
  private var bytes: [UInt8]
  private var lastTag: UInt8?

  init(type: UInt8) {
    bytes = []
    bytes.reserveCapacity(32)
    bytes.append(0)
    bytes.append(0)
    bytes.append(type)
  }

  mutating func field(_ tag: UInt8, bytes value: some Collection<UInt8>) {
    header(tag, count: value.count)
    bytes += value
  }

  /// A field's tag and length, appended byte by byte (an array literal here would be an allocation a field).
  private mutating func header(_ tag: UInt8, count: Int) {
    precondition(lastTag.map { $0 < tag } ?? true, "fields are written in increasing tag order")
    lastTag = tag
    bytes.append(tag)
    bytes.append(UInt8(truncatingIfNeeded: count >> 8))
    bytes.append(UInt8(truncatingIfNeeded: count))
  }

  mutating func field(_ tag: UInt8, string: String) { field(tag, bytes: string.utf8) }
  mutating func field(_ tag: UInt8, u8: UInt8) {
    header(tag, count: 1)
    bytes.append(u8)
  }
  mutating func field(_ tag: UInt8, u16: UInt16) {
    header(tag, count: 2)
    bytes.append(UInt8(u16 >> 8))
    bytes.append(UInt8(u16 & 0xFF))
  }
  mutating func field(_ tag: UInt8, u32: UInt32) {
    header(tag, count: 4)
    for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: u32 >> shift)) }
  }
  mutating func field(_ tag: UInt8, u16s: [UInt16]) {
    header(tag, count: 2 * u16s.count)
    for value in u16s {
      bytes.append(UInt8(value >> 8))
      bytes.append(UInt8(value & 0xFF))
    }
  }

  /// The whole frame, its length filled in (in place: the writer is done with it).
  consuming func finish() -> [UInt8] {
    let length = bytes.count - 2
    bytes[0] = UInt8(truncatingIfNeeded: length >> 8)
    bytes[1] = UInt8(truncatingIfNeeded: length)
    return bytes
  }
}

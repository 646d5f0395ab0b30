/// The payload of a frame: fields of tag (1 byte), length (2 bytes, big-endian) and value. Unknown tags are
/// skipped (so later versions can add fields); a tag may appear once.
struct Fields {
  private var values: [UInt8: [UInt8]] = [:]
  let message: String

  init(message: String) { self.message = message }

  init(decoding payload: [UInt8], message: String) throws(WireError) {
    self.message = message
    var index = 0
    while index < payload.count {
      guard index + 3 <= payload.count else { throw .truncatedField(tag: payload[index]) }
      let tag = payload[index]
      let length = Int(payload[index + 1]) << 8 | Int(payload[index + 2])
      guard index + 3 + length <= payload.count else { throw .truncatedField(tag: tag) }
      guard values[tag] == nil else { throw .duplicateField(tag: tag) }
      values[tag] = Array(payload[(index + 3)..<(index + 3 + length)])
      index += 3 + length
    }
  }

  /// The encoded payload, fields in tag order.
  var bytes: [UInt8] {
    values.keys.sorted().flatMap { tag -> [UInt8] in
      let value = values[tag] ?? []
      return [tag, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    }
  }

  // MARK: Writing

  mutating func set(_ tag: UInt8, bytes: [UInt8]) { values[tag] = bytes }
  mutating func set(_ tag: UInt8, string: String) { values[tag] = Array(string.utf8) }
  mutating func set(_ tag: UInt8, u8: UInt8) { values[tag] = [u8] }
  mutating func set(_ tag: UInt8, u16: UInt16) { values[tag] = [UInt8(u16 >> 8), UInt8(u16 & 0xFF)] }
  mutating func set(_ tag: UInt8, u32: UInt32) {
    values[tag] = (0..<4).map { UInt8(truncatingIfNeeded: u32 >> (24 - 8 * $0)) }
  }
  mutating func set(_ tag: UInt8, u16s: [UInt16]) { values[tag] = u16s.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

  // MARK: Reading

  func has(_ tag: UInt8) -> Bool { values[tag] != nil }

  func bytes(_ tag: UInt8, _ name: String, count: Int? = nil) throws(WireError) -> [UInt8] {
    guard let value = values[tag] else { throw .missingField(name, in: message) }
    if let count, value.count != count { throw .badValue(name, reason: "\(value.count) bytes, expected \(count)") }
    return value
  }

  func string(_ tag: UInt8, _ name: String, maximum: Int) throws(WireError) -> String {
    let value = try bytes(tag, name)
    guard value.count <= maximum else { throw .fieldTooLong(name, length: value.count, maximum: maximum) }
    guard let text = String(validating: value, as: UTF8.self) else { throw .invalidUTF8(field: name) }
    return text
  }

  func optionalString(_ tag: UInt8, _ name: String, maximum: Int) throws(WireError) -> String? {
    has(tag) ? try string(tag, name, maximum: maximum) : nil
  }

  func u8(_ tag: UInt8, _ name: String) throws(WireError) -> UInt8 {
    try bytes(tag, name, count: 1)[0]
  }

  func u16(_ tag: UInt8, _ name: String) throws(WireError) -> UInt16 {
    let value = try bytes(tag, name, count: 2)
    return UInt16(value[0]) << 8 | UInt16(value[1])
  }

  func u32(_ tag: UInt8, _ name: String) throws(WireError) -> UInt32 {
    try bytes(tag, name, count: 4).reduce(0) { $0 << 8 | UInt32($1) }
  }

  func u16s(_ tag: UInt8, _ name: String) throws(WireError) -> [UInt16] {
    let value = try bytes(tag, name)
    guard value.count.isMultiple(of: 2), !value.isEmpty else {
      throw .badValue(name, reason: "\(value.count) bytes is not a list of 2-byte numbers")
    }
    return stride(from: 0, to: value.count, by: 2).map { UInt16(value[$0]) << 8 | UInt16(value[$0 + 1]) }
  }
}

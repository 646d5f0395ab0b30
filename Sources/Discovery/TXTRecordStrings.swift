/// The DNS TXT record wire format (RFC 1035 §3.3.14, RFC 6763 §6.1): a sequence of strings, each preceded by
/// its length in one byte.
enum TXTRecordStrings {
  /// The longest string one length byte can describe.
  static let maximumStringLength = 255

  /// Joins strings into TXT record data. An empty list becomes the single empty string (one zero byte), the
  /// smallest legal TXT record. Strings longer than 255 bytes are a programming error and are cut to 255.
  static func encode(_ strings: [[UInt8]]) -> [UInt8] {
    guard !strings.isEmpty else { return [0] }
    var bytes: [UInt8] = []
    for string in strings {
      let kept = string.prefix(maximumStringLength)
      bytes.append(UInt8(kept.count))
      bytes.append(contentsOf: kept)
    }
    return bytes
  }

  /// Splits TXT record data into its strings. When the last length byte promises more bytes than remain,
  /// `truncatedAt` is the offset of that length byte and the partial string is dropped.
  static func decode(_ bytes: [UInt8]) -> (strings: [[UInt8]], truncatedAt: Int?) {
    var strings: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
      let length = Int(bytes[offset])
      let start = offset + 1
      guard start + length <= bytes.count else { return (strings, offset) }
      strings.append(Array(bytes[start..<start + length]))
      offset = start + length
    }
    return (strings, nil)
  }
}

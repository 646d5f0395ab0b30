import GameCore

/// A record's text (its SGF, its signed bytes) built as UTF-8 bytes in one buffer whose room is reserved once: a
/// practice bot writes both for every game, thousands a second, and building them as Swift strings, piece by
/// interpolated piece, cost it about 50,000 instructions a game (callgrind; BENCHMARKS.md, 2026-12-05).
struct RecordBytes {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  mutating func add(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func add(_ text: String) {
    // A native string's bytes lie together and are copied at once; another (bridged, say) byte by byte.
    if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
      bytes.append(contentsOf: text.utf8)
    }
  }

  /// `number` in decimal, as `String(number)` writes it.
  mutating func add(_ number: Int) {
    if number < 0 { bytes.append(UInt8(ascii: "-")) }
    let value = number.magnitude
    var divisor: UInt = 1
    while divisor <= value / 10 { divisor *= 10 }
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    } while divisor > 0
  }

  /// `text` as an SGF text value: a backslash before each `\` and `]`. Both are ASCII, so a UTF-8 byte equal to
  /// one of them is that character, never part of another (a `]` before a combining mark is escaped too).
  mutating func addEscaped(_ text: String) {
    var text = text
    text.withUTF8 { source in
      // Copied in runs between the bytes to escape (most values, keys and signatures, have none: one run).
      var start = 0
      for index in source.indices where source[index] == UInt8(ascii: "\\") || source[index] == UInt8(ascii: "]") {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
        bytes.append(UInt8(ascii: "\\"))
        start = index
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
    }
  }

  /// An SGF point: the column's letter, then the row's (`SGFPoint.position` reads it back).
  mutating func addPoint(_ position: Position) {
    bytes.append(SGFPoint.letterBytes[position.column])
    bytes.append(SGFPoint.letterBytes[position.row])
  }

  /// The bytes as a string (they are UTF-8: every piece came from a string).
  var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// Standard base64 (RFC 4648 alphabet), written without padding as OpenSSH prints fingerprints.
package enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Encodes `bytes` without trailing `=`.
  package static func encodeUnpadded(_ bytes: [UInt8]) -> String {
    encode(bytes, padded: false)
  }

  /// Encodes `bytes` with `=` padding, as `openssl base64` and PEM write it.
  package static func encode(_ bytes: [UInt8]) -> String {
    encode(bytes, padded: true)
  }

  private static func encode(_ bytes: [UInt8], padded: Bool) -> String {
    let unpadded = (bytes.count * 4 + 2) / 3
    let count = padded ? (bytes.count + 2) / 3 * 4 : unpadded
    guard count > 0 else { return "" }
    // Written straight into the string's storage, padding and all (a practice bot encodes a signature for every
    // game).
    return alphabet.withUnsafeBufferPointer { symbols in
      bytes.withUnsafeBufferPointer { input in
        String(unsafeUninitializedCapacity: count) { output in
          var (index, written) = (0, 0)
          while index < input.count {
            let remaining = input.count - index
            let b0 = UInt32(input[index])
            let b1 = remaining > 1 ? UInt32(input[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(input[index + 2]) : 0
            let group = (b0 << 16) | (b1 << 8) | b2
            output[written] = symbols[Int((group >> 18) & 63)]
            output[written + 1] = symbols[Int((group >> 12) & 63)]
            written += 2
            if remaining > 1 {
              output[written] = symbols[Int((group >> 6) & 63)]
              written += 1
            }
            if remaining > 2 {
              output[written] = symbols[Int(group & 63)]
              written += 1
            }
            index += 3
          }
          while written < count {
            output[written] = UInt8(ascii: "=")
            written += 1
          }
          return written
        }
      }
    }
  }

  /// Decodes padded or unpadded base64; nil when a character is outside the alphabet,
  /// padding is misplaced, or the length is impossible.
  package static func decode(_ text: String) -> [UInt8]? {
    decode(symbols: Array(text.utf8))
  }

  /// Decodes the base64 characters `symbols` (padded or not).
  package static func decode(symbols text: [UInt8]) -> [UInt8]? {
    var symbols = text
    var padding = 0
    while symbols.last == UInt8(ascii: "=") {
      symbols.removeLast()
      padding += 1
    }
    if padding > 2 || symbols.count % 4 == 1 { return nil }
    if padding > 0 && (symbols.count + padding) % 4 != 0 { return nil }
    // Each group of up to 4 symbols straight into its bytes (a known_peers of millions of keys decodes them all).
    var output: [UInt8] = []
    output.reserveCapacity(symbols.count * 3 / 4)
    var group: UInt32 = 0
    var inGroup = 0
    for symbol in symbols {
      guard let value = value(of: symbol) else { return nil }
      group |= value << UInt32(18 - 6 * inGroup)
      inGroup += 1
      if inGroup == 4 {
        output.append(UInt8((group >> 16) & 0xFF))
        output.append(UInt8((group >> 8) & 0xFF))
        output.append(UInt8(group & 0xFF))
        group = 0
        inGroup = 0
      }
    }
    if inGroup > 0 {
      output.append(UInt8((group >> 16) & 0xFF))
      if inGroup > 2 { output.append(UInt8((group >> 8) & 0xFF)) }
    }
    return output
  }

  private static func value(of symbol: UInt8) -> UInt32? {
    switch symbol {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(symbol - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(symbol - UInt8(ascii: "a")) + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(symbol - UInt8(ascii: "0")) + 52
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }
}

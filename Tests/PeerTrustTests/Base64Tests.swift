import Foundation
import Testing

@testable import PeerTrust

/// The base64 the records, keys and known_peers are written in: the same text as Foundation's encoder, for every
/// length's padding, and back again.
@Suite struct Base64Tests {
  @Test func encodingIsFoundationsForEveryLengthUpTo100Bytes() {
    var generator = SystemRandomNumberGenerator()
    for length in 0...100 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let expected = Data(bytes).base64EncodedString()
      #expect(Base64.encode(bytes) == expected, "length \(length)")
      #expect(Base64.encodeUnpadded(bytes) == expected.replacingOccurrences(of: "=", with: ""), "length \(length)")
      #expect(Base64.decode(Base64.encodeUnpadded(bytes)) == bytes, "length \(length)")
    }
  }

  @Test func everySymbolOfTheAlphabetIsWritten() {
    // 0x00 0x10 0x83 ... : the 48 bytes whose 64 six-bit groups count 0 to 63.
    var bits: [UInt8] = []
    var accumulator = 0
    var held = 0
    for value in 0..<64 {
      accumulator = accumulator << 6 | value
      held += 6
      while held >= 8 {
        held -= 8
        bits.append(UInt8((accumulator >> held) & 0xFF))
      }
    }
    #expect(Base64.encode(bits) == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  }
}

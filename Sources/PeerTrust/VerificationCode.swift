/// Four words both players read to each other to check that nobody sits between them, even the first time
/// they meet: each is derived from the TLS session's keys (RFC 8446 exporter, this protocol's label), which a
/// man in the middle cannot make the same on his two connections. 44 bits: a man in the middle who retried
/// handshakes to aim for a collision would need about 2^43 of them on average.
public struct VerificationCode: Sendable, Hashable, CustomStringConvertible {
  /// The exporter label (RFC 5705 / RFC 8446 §7.5): this protocol's own.
  public static let exporterLabel = "EXPORTER-tictactoe-verification-code"
  public static let wordCount = 4

  /// The four words, e.g. `["kiro", "bade", "folo", "zami"]`.
  public let words: [String]

  /// The code for `material` (at least 6 bytes of exporter output; 44 bits are used, 11 a word).
  public init?(material: [UInt8]) {
    guard material.count >= 6 else { return nil }
    var bits: UInt64 = 0
    for byte in material.prefix(6) { bits = bits << 8 | UInt64(byte) }
    bits >>= 4  // 48 bits read, 44 kept
    var words: [String] = []
    for index in (0..<VerificationCode.wordCount).reversed() {
      words.append(VerificationCode.word(Int((bits >> (11 * UInt64(index))) & 0x7FF)))
    }
    self.words = words
  }

  /// `kiro-bade-folo-zami`.
  public var description: String { words.joined(separator: "-") }

  private static let firstConsonants = Array("bdfghjklmnprstvz")
  private static let vowels = Array("aeio")
  private static let secondConsonants = Array("bdklmnrt")

  /// Word number `value` (0–2047) of 2,048 that can be told apart aloud: consonant, vowel, consonant, vowel.
  static func word(_ value: Int) -> String {
    let first = firstConsonants[value >> 7 & 0xF]
    let second = vowels[value >> 5 & 0x3]
    let third = secondConsonants[value >> 2 & 0x7]
    let fourth = vowels[value & 0x3]
    return String([first, second, third, fourth])
  }
}

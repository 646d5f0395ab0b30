/// The SHA-256 hash of a certificate's public key (DER SubjectPublicKeyInfo): a player's identity.
///
/// Printed as OpenSSH prints key fingerprints: `SHA256:` followed by unpadded standard base64.
/// A certificate renewed with the same key keeps its fingerprint.
public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
  /// The digest as four words held in the value itself: a known_peers of millions of keys makes no allocation
  /// for each, and hashes and compares each key at once.
  private let words: (UInt64, UInt64, UInt64, UInt64)

  /// The 32 bytes of the SHA-256 digest.
  public var bytes: [UInt8] { withUnsafeBytes(of: words) { Array($0) } }

  /// The digest's first eight bytes as a word: already a uniform hash of the key (the index finds keys by it).
  package var leadingWord: UInt64 { words.0 }

  /// The prefix of the printed form.
  public static let prefix = "SHA256:"

  public func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
    hasher.combine(words.3)
  }

  public static func == (left: Fingerprint, right: Fingerprint) -> Bool {
    left.words == right.words
  }

  /// Wraps a 32-byte SHA-256 digest; nil for any other length.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 32 else { return nil }
    words = bytes.withUnsafeBytes { raw in
      (
        raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
      )
    }
  }

  /// Parses `SHA256:<base64>` (surrounding whitespace ignored; trailing `=` padding tolerated).
  public init?(parsing text: String) {
    let trimmed = text.trimmingASCIIWhitespace()
    guard trimmed.hasPrefix(Fingerprint.prefix) else { return nil }
    let encoded = String(trimmed.dropFirst(Fingerprint.prefix.count))
    guard let decoded = Base64.decode(encoded) else { return nil }
    self.init(bytes: decoded)
  }

  /// `SHA256:` + unpadded base64, e.g. `SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU`.
  public var description: String {
    Fingerprint.prefix + Base64.encodeUnpadded(bytes)
  }

  /// A form to read aloud over the phone: the first 16 bytes (128 bits) as 8 groups of
  /// 4 lowercase hex digits separated by spaces, e.g. `e3b0 c442 98fc 1c14 9afb f4c8 996f b924`.
  public var readAloud: String {
    let digits = Array("0123456789abcdef")
    var groups: [String] = []
    var index = 0
    while index < 16 {
      var group = ""
      for byte in bytes[index..<index + 2] {
        group.append(digits[Int(byte >> 4)])
        group.append(digits[Int(byte & 0x0F)])
      }
      groups.append(group)
      index += 2
    }
    return groups.joined(separator: " ")
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs, carriage returns and newlines.
  package func trimmingASCIIWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}

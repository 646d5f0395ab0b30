/// The player's own public keys: the one in use and every one an `identity new` or `identity import` replaced, so
/// that the games played with an earlier key stay the player's own (`games`, the record against each opponent).
public struct OwnKeys: Sendable, Equatable {
  /// The key in use (base64 of its SubjectPublicKeyInfo, as records name keys); nil before there is an identity.
  public let current: String?
  /// The keys used before, oldest first.
  public let past: [String]

  public init(current: String?, past: [String] = []) {
    self.current = current
    self.past = past
  }

  /// Whether `key` is one of the player's, in use or earlier.
  public func contains(_ key: String?) -> Bool {
    guard let key else { return false }
    return key == current || past.contains(key)
  }

  /// Every key, the one in use first.
  public var all: [String] { (current.map { [$0] } ?? []) + past.filter { $0 != current } }

  /// The text of the file of past keys (`identity.past`): a comment, then one key a line. A line that is not a key
  /// (a damaged or edited file) is skipped; it can only make a game of the player's look like a stranger's.
  public static func pastKeys(fromText text: String) -> [String] {
    var keys: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let key = line.split(separator: " ").first.map(String.init) ?? ""
      guard !line.hasPrefix("#"), key.utf8.count % 4 == 0, let der = Base64.decode(key), !der.isEmpty,
        !keys.contains(key)
      else { continue }
      keys.append(key)
    }
    return keys
  }

  /// The line that adds `key` to the file of past keys, with its fingerprint for a person reading the file.
  public static func line(for key: String, fingerprint: Fingerprint) -> String { "\(key) \(fingerprint)\n" }

  /// The comment that starts a new file of past keys.
  public static let header =
    "# Your own earlier public keys (replaced by identity new or import): games played with them are yours.\n"
}

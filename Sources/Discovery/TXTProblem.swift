/// Something wrong in a TXT record another publisher sent: the field it concerns is left out, never guessed.
public enum TXTProblem: Sendable, Hashable, CustomStringConvertible {
  /// A length byte at this offset promised more bytes than the record holds; the rest was ignored.
  case truncated(offset: Int)
  /// A string that starts with `=` (no key); it was ignored.
  case emptyKey
  /// A key with bytes outside printable ASCII; the string was ignored.
  case invalidKey
  /// One of our keys appeared again; only the first occurrence counts (RFC 6763 §6.4).
  case duplicateKey(String)
  /// One of our required keys is absent.
  case missingKey(String)
  /// One of our keys has no `=value`, or a value that is not valid for it (shown as received, lossily decoded).
  case invalidValue(key: String, value: String)
  /// One of our keys has a value that is not UTF-8 text.
  case notUTF8(key: String)
  /// `txtvers` is a version this program does not know; the fields it understands were still read.
  case unknownTXTVersion(String)

  public var description: String {
    switch self {
    case .truncated(let offset): "the record is cut short (length byte at offset \(offset))"
    case .emptyKey: "an entry has no key"
    case .invalidKey: "an entry's key is not printable ASCII"
    case .duplicateKey(let key): "'\(key)' appears more than once"
    case .missingKey(let key): "'\(key)' is missing"
    case .invalidValue(let key, let value): "'\(key)' has an invalid value \"\(value)\""
    case .notUTF8(let key): "'\(key)' is not UTF-8 text"
    case .unknownTXTVersion(let version): "unknown TXT version \"\(version)\""
    }
  }
}

import NetworkFacts
import UntrustedText

/// Addresses a host refuses before any TLS is spoken: the settings file's `deny = 203.0.113.0/24, 2001:db8::/32,
/// 198.51.100.7` (addresses and prefixes, separated by commas). A refused connection is closed at once.
public struct DenyList: Equatable, Sendable {
  /// One entry: the first `length` bits of `bytes` (4 bytes for IPv4, 16 for IPv6).
  public struct Prefix: Equatable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]
    public let length: Int

    public func contains(_ address: [UInt8]) -> Bool {
      guard address.count == bytes.count else { return false }
      let whole = length / 8
      guard address.prefix(whole) == bytes.prefix(whole) else { return false }
      let rest = length % 8
      guard rest > 0 else { return true }
      let mask = UInt8(0xFF) << (8 - rest)
      return address[whole] & mask == bytes[whole] & mask
    }

    public var description: String {
      let address =
        bytes.count == 4
        ? IPAddressText.dotted(bytes)
        : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
          .joined(separator: ":")
      return length == bytes.count * 8 ? address : "\(address)/\(length)"
    }
  }

  /// Why an entry was refused.
  public struct EntryError: Error, Equatable {
    public let reason: String
  }

  public let prefixes: [Prefix]

  /// Nobody refused.
  public init() { prefixes = [] }

  /// Parses the setting's value (`none`: no entries); an entry that is not an address or a prefix is refused with its text.
  public init(parsing text: String) throws(EntryError) {
    var prefixes: [Prefix] = []
    for raw in text.split(separator: ",") where text.trimmingWhitespace() != "none" {
      let entry = raw.trimmingWhitespace()
      guard !entry.isEmpty else { continue }
      let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
      guard !parts[0].contains("["), let bytes = SourceAddress.parse(String(parts[0])) else {
        throw EntryError(reason: "\"\(entry)\" is not an address or a prefix such as 203.0.113.0/24 or 2001:db8::/32")
      }
      // An IPv4-mapped IPv6 prefix is an IPv4 one: its length counts from the IPv4 part.
      let mapped = bytes.count == 4 && parts[0].contains(":")
      let bits = bytes.count * 8
      var length = bits
      if parts.count == 2 {
        guard let given = Int(parts[1]), (mapped ? 96...128 : 0...bits).contains(given) else {
          throw EntryError(reason: "\"\(entry)\": the prefix length must be a number from 0 to \(mapped ? 128 : bits)")
        }
        length = mapped ? given - 96 : given
      }
      prefixes.append(Prefix(bytes: bytes, length: length))
    }
    self.prefixes = prefixes
  }

  public var isEmpty: Bool { prefixes.isEmpty }

  /// Whether `address` (a numeric host, or a peer address with its port) is refused. An address that cannot
  /// be read is not (the sockets only give numeric ones).
  public func refuses(_ address: String) -> Bool {
    guard !prefixes.isEmpty, let bytes = SourceAddress.parse(address) else { return false }
    return refuses(whole: bytes)
  }

  /// Whether the address whose whole bytes are `bytes` (`SourceAddress.parse`) is refused.
  public func refuses(whole bytes: [UInt8]) -> Bool { prefixes.contains { $0.contains(bytes) } }

  /// The setting's value, as the settings file writes it.
  public var setting: String { prefixes.isEmpty ? "none" : prefixes.map(\.description).joined(separator: ", ") }
}

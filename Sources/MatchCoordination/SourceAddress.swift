import NetworkFacts

/// Where a connection comes from, as the limits count it: an IPv4 address, or an IPv6 address's /64 (one
/// home or one machine usually holds a whole /64, so counting single IPv6 addresses would count nothing).
/// An IPv4 address mapped into IPv6 (`::ffff:192.0.2.1`) is the IPv4 address.
public struct SourceAddress: Hashable, Sendable, CustomStringConvertible {
  /// 4 bytes, or the first 8 bytes of an IPv6 address.
  public let bytes: [UInt8]

  /// The address of a numeric host ("192.0.2.1", "2001:db8::1", "fe80::1%2") or of a peer address as the
  /// sockets write it ("192.0.2.1:7177", "[2001:db8::1]:7177"); nil for anything else.
  public init?(_ text: String) {
    guard let full = SourceAddress.parse(text) else { return nil }
    self.init(whole: full)
  }

  /// The address counted for `whole`, 4 or 16 bytes as `parse` gives them.
  init(whole: [UInt8]) {
    bytes = whole.count == 16 ? Array(whole.prefix(8)) : whole
  }

  /// How `peer` (as the sockets write it) is counted: its `SourceAddress`, else the text itself.
  public static func counted(_ peer: String) -> String { SourceAddress(peer)?.description ?? peer }

  /// The whole address: 4 or 16 bytes (IPv4-mapped IPv6 as IPv4), for prefixes to match against.
  public static func parse(_ text: String) -> [UInt8]? {
    var host = Substring(text)
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      host = host[host.index(after: host.startIndex)..<close]
    } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
      host = host[..<colon]
    }
    if let percent = host.firstIndex(of: "%") { host = host[..<percent] }
    if let v4 = IPAddressText.ipv4(host) { return v4 }
    guard let bytes = IPAddressText.ipv6(String(host)) else { return nil }
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
    return bytes
  }

  /// "192.0.2.1", or "2001:db8:0:1::/64".
  public var description: String {
    if bytes.count == 4 { return IPAddressText.dotted(bytes) }
    let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
    return groups.joined(separator: ":") + "::/64"
  }
}

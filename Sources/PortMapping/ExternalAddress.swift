/// What kind of IPv4 address a gateway says it has outside: only a public one can be reached from the internet.
public enum ExternalAddressKind: Sendable, Equatable {
  case `public`
  /// RFC 1918: the router is behind another router.
  case `private`
  /// 100.64.0.0/10 (RFC 6598): the provider's carrier-grade NAT.
  case shared
  /// Loopback, link-local, unspecified, multicast or reserved: not an address anyone can reach.
  case unusable

  public init?(address text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let byte = UInt8(part)
      else { return nil }
      bytes.append(byte)
    }
    let (a, b) = (bytes[0], bytes[1])
    switch (a, b) {
    case (10, _), (172, 16...31), (192, 168): self = .private
    case (100, 64...127): self = .shared
    case (0, _), (127, _), (169, 254), (224...255, _): self = .unusable
    default: self = .public
    }
  }
}

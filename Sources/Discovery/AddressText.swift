import Glibc

/// Numeric text for the rdata of A and AAAA records.
enum AddressText {
  /// `127.0.0.1` for 4 bytes; `fe80::1%2` for 16 bytes (a link-local address gets the interface index as its
  /// scope, which mDNS answers do not carry); nil for any other length.
  static func from(rdata: [UInt8], interfaceIndex: UInt32) -> String? {
    switch rdata.count {
    case 4:
      return text(family: AF_INET, rdata: rdata, capacity: Int(INET_ADDRSTRLEN))
    case 16:
      guard let text = text(family: AF_INET6, rdata: rdata, capacity: Int(INET6_ADDRSTRLEN)) else { return nil }
      let isLinkLocal = rdata[0] == 0xFE && rdata[1] & 0xC0 == 0x80
      return isLinkLocal && interfaceIndex != 0 ? "\(text)%\(interfaceIndex)" : text
    default:
      return nil
    }
  }

  private static func text(family: Int32, rdata: [UInt8], capacity: Int) -> String? {
    var buffer = [CChar](repeating: 0, count: capacity)
    let converted = rdata.withUnsafeBytes { source in
      buffer.withUnsafeMutableBufferPointer { target in
        inet_ntop(family, source.baseAddress, target.baseAddress, socklen_t(capacity))
      }
    }
    guard converted != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

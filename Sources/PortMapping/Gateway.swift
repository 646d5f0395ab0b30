/// The LAN's gateway: the next hop of this machine's default IPv4 route, read from /proc/net/route. Every
/// port-mapping request goes to this address and to no other.
public enum Gateway {
  /// The default route's gateway in `table` (the text of /proc/net/route), as text; nil without one.
  public static func defaultIPv4(routeTable table: String) -> String? {
    for line in table.split(separator: "\n").dropFirst() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      // Iface Destination Gateway Flags ...: destination 0 (default), flags with RTF_GATEWAY (2) and RTF_UP (1).
      guard fields.count >= 4, fields[1] == "00000000", let flags = UInt32(fields[3], radix: 16), flags & 3 == 3,
        let gateway = UInt32(fields[2], radix: 16), gateway != 0
      else { continue }
      // The kernel prints the address in host order of a little-endian machine: the first byte is the last pair.
      return (0..<4).map { String((gateway >> (8 * UInt32($0))) & 0xFF) }.joined(separator: ".")
    }
    return nil
  }

  /// The default IPv6 route's next hop in `table` (the text of /proc/net/ipv6_route), with its interface as the
  /// zone when it is link-local (`fe80::1%eth0`); nil without one.
  public static func defaultIPv6(routeTable table: String) -> String? {
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      // destination, prefix length, source, source prefix length, next hop, metric, refcount, use, flags, device
      guard fields.count >= 10, fields[0].allSatisfy({ $0 == "0" }), fields[1] == "00",
        fields[4].count == 32, !fields[4].allSatisfy({ $0 == "0" }), let flags = UInt32(fields[8], radix: 16),
        flags & 3 == 3
      else { continue }
      let hex = Array(fields[4])
      let groups = stride(from: 0, to: 32, by: 4).map {
        String(UInt16(String(hex[$0..<$0 + 4]), radix: 16) ?? 0, radix: 16)
      }
      let address = groups.joined(separator: ":")
      return groups[0] == "fe80" ? address + "%" + fields[9] : address
    }
    return nil
  }
}

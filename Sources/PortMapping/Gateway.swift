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
}

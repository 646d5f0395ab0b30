/// Host texts that the system reads as an IPv4 address other than the one they show. inet_aton(3), which
/// getaddrinfo(3) uses for numeric hosts, takes `2130706433`, `0177.0.0.1` (octal), `0x7f.1` and `0` as
/// 127.0.0.1, 127.0.0.1, 127.0.0.1 and 0.0.0.0, and ignores what follows a space. An invite or a typed address
/// in such a form is refused, so an address always means what it shows (docs/PROTOCOL.md, "Invites").
public enum NumericAddress {
  /// Why `host` cannot stand for an address, with the address the system would take it for; nil for four
  /// decimal numbers written canonically (`192.0.2.7`), an IPv6 address and a name.
  public static func problem(_ host: String) -> String? {
    guard !host.contains(":") else { return nil }  // IPv6, which inet_pton reads alone
    // The C library reads a host only up to its first NUL byte.
    if let bytes = IPAddressText.legacyIPv4(String(host.prefix { $0 != "\0" })) {
      let canonical = IPAddressText.dotted(bytes)
      guard canonical != host else { return nil }
      return "\"\(host)\" would be taken for the address \(canonical) (a number not written as four decimal "
        + "numbers from 0 to 255); write \(canonical) if that is the one meant"
    }
    // Not an address, and not a name either: a host name's last label is never all digits (RFC 3696 §2).
    let name = host.hasSuffix(".") ? host.dropLast() : Substring(host)
    if let last = name.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty,
      last.utf8.allSatisfy({ (48...57).contains($0) })
    {
      return "\"\(host)\" is not an IPv4 address (four numbers from 0 to 255) and cannot be a name"
    }
    return nil
  }
}

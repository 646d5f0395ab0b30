/// Numeric addresses read from text without the C library, so the deciding modules need no Glibc. Two readings:
/// the strict one of inet_pton(3) (`ipv4`, `ipv6`), which is how an address is written, and the lenient one of
/// inet_aton(3) (`legacyIPv4`), which getaddrinfo(3) also uses for numeric hosts and which takes numbers written
/// in other ways (`0177.0.0.1`, `0x7f.1`, `2130706433`) for addresses. `IPAddressTextTests` checks all three
/// against glibc's own functions on the same texts.
public enum IPAddressText {
  /// Four decimal numbers from 0 to 255 separated by dots, none with a leading zero: inet_pton's IPv4.
  public static func ipv4(_ text: Substring) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy(isDecimal),
        part.utf8.count == 1 || part.utf8.first != UInt8(ascii: "0"), let value = UInt8(part)
      else { return nil }
      bytes.append(value)
    }
    return bytes
  }

  public static func ipv4(_ text: String) -> [UInt8]? { ipv4(Substring(text)) }

  /// Whether `host` is an IPv4 or IPv6 address (an IPv6 zone allowed: `fe80::1%eth0`), not a name to look up.
  public static func isNumeric(_ host: String) -> Bool {
    ipv4(host) != nil || ipv6(String(host.prefix { $0 != "%" })) != nil
  }

  /// Eight groups of up to four hex digits separated by colons, one `::` standing for one or more zero groups,
  /// the last two groups optionally written as an IPv4 address: inet_pton's IPv6. No zone (`%eth0`).
  public static func ipv6(_ text: String) -> [UInt8]? {
    guard !text.isEmpty else { return nil }
    var head: [UInt16] = []
    var tail: [UInt16] = []
    let whole = Substring(text)
    if let range = whole.firstRange(of: "::") {
      let before = whole[..<range.lowerBound]
      let after = whole[range.upperBound...]
      guard !after.contains("::") else { return nil }
      guard before.isEmpty || readGroups(before, into: &head, lastMayBeIPv4: false) else { return nil }
      guard after.isEmpty || readGroups(after, into: &tail, lastMayBeIPv4: true) else { return nil }
      guard head.count + tail.count <= 7 else { return nil }
    } else {
      guard readGroups(whole, into: &head, lastMayBeIPv4: true), head.count == 8 else { return nil }
    }
    // The groups `::` stands for (none without one: then there are eight already).
    let zeros = 8 - head.count - tail.count
    let all = head + [UInt16](repeating: 0, count: zeros) + tail
    return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  /// Reads `text` as colon-separated groups; the last may be an IPv4 address (two groups) when allowed.
  private static func readGroups(_ text: Substring, into groups: inout [UInt16], lastMayBeIPv4: Bool) -> Bool {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    for (index, part) in parts.enumerated() {
      if index == parts.count - 1, lastMayBeIPv4, part.contains(".") {
        guard let v4 = ipv4(part) else { return false }
        groups.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
        groups.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
        continue
      }
      guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy(isHex), let value = UInt16(part, radix: 16)
      else { return false }
      groups.append(value)
    }
    return groups.count <= 8
  }

  /// What inet_aton(3) reads `text` as: one to four numbers separated by dots, each decimal, octal (a leading
  /// `0`) or hex (`0x`), the last filling the bytes the others leave (`a`: 32 bits; `a.b`: 8 and 24; `a.b.c`:
  /// 8, 8 and 16), the others at most 255; anything after a blank (space, tab, line break) is ignored. Nil when
  /// inet_aton refuses it.
  public static func legacyIPv4(_ text: String) -> [UInt8]? {
    var bytes = Array(text.utf8)
    if let blank = bytes.firstIndex(where: isBlank) { bytes = Array(bytes[..<blank]) }
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard (1...4).contains(parts.count) else { return nil }
    var values: [UInt64] = []
    for part in parts {
      guard let value = legacyNumber(part) else { return nil }
      values.append(value)
    }
    let last = values.removeLast()
    guard values.allSatisfy({ $0 <= 0xFF }) else { return nil }
    let lastBits = 32 - 8 * values.count
    guard last < (UInt64(1) << lastBits) else { return nil }
    var address = last
    for (index, value) in values.enumerated() { address |= value << (24 - 8 * index) }
    return (0..<4).map { UInt8((address >> (24 - 8 * $0)) & 0xFF) }
  }

  /// One number of inet_aton's: starts with a digit; `0x` then hex digits (at least one), `0` then octal
  /// digits, or decimal; nothing else after it; at most 32 bits.
  private static func legacyNumber(_ part: ArraySlice<UInt8>) -> UInt64? {
    guard let first = part.first, isDecimal(first) else { return nil }
    var digits = part[...]
    var radix: UInt64 = 10
    if first == UInt8(ascii: "0"), part.count > 1 {
      let second = part[part.startIndex + 1]
      if second == UInt8(ascii: "x") || second == UInt8(ascii: "X") {
        radix = 16
        digits = part.dropFirst(2)
        guard !digits.isEmpty else { return nil }  // "0x" alone: inet_aton reads the 0, then refuses the x
      } else {
        radix = 8
        digits = part.dropFirst()
      }
    }
    var value: UInt64 = 0
    for digit in digits {
      guard let number = digitValue(digit), number < radix else { return nil }
      value = value * radix + number
      guard value <= 0xFFFF_FFFF else { return nil }
    }
    return value
  }

  private static func digitValue(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The IPv4 address written as inet_ntop writes it: four decimal numbers.
  public static func dotted(_ bytes: [UInt8]) -> String { bytes.map(String.init).joined(separator: ".") }

  /// The IPv6 address written as RFC 5952 says and inet_ntop writes it: the longest run of two or more zero
  /// groups (the first of equal runs) as "::", hexadecimal in lower case without leading zeros; an IPv4-mapped
  /// address as ::ffff:192.0.2.1, and, as glibc does, an IPv4-compatible one (96 zero bits, then a group that
  /// is not zero) as ::192.0.2.1.
  public static func compressedIPv6(_ bytes: [UInt8]) -> String {
    let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
    if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xFFFF {
      return "::ffff:" + dotted(Array(bytes[12...]))
    }
    if groups[0..<6].allSatisfy({ $0 == 0 }) && groups[6] != 0 { return "::" + dotted(Array(bytes[12...])) }
    var (best, bestLength, start) = (-1, 1, -1)
    for index in 0...8 {
      if index < 8 && groups[index] == 0 {
        if start < 0 { start = index }
      } else if start >= 0 {
        if index - start > bestLength { (best, bestLength) = (start, index - start) }
        start = -1
      }
    }
    let text = groups.map { String($0, radix: 16) }
    guard best >= 0 else { return text.joined(separator: ":") }
    return text[..<best].joined(separator: ":") + "::" + text[(best + bestLength)...].joined(separator: ":")
  }

  private static func isDecimal(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
  private static func isHex(_ byte: UInt8) -> Bool { digitValue(byte) != nil }
  /// isspace(3) in the C locale.
  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}

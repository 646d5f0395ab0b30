import Glibc
import NetworkFacts
import TestSupport
import Testing

/// The pure readings of numeric addresses agree with glibc's inet_pton(3) and inet_aton(3) on the same texts:
/// the hand-picked forms that tell the two readings apart, and many random ones made of the characters that
/// matter.
struct IPAddressTextTests {
  static let picked = [
    "192.0.2.7", "127.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5",
    "0177.0.0.1", "0x7f.1", "0x7F.0.0.1", "2130706433", "0", "0x", "0x.1", "08", "09.1.1.1", "1..2", "1.2.3.",
    ".1.2.3", "1.2.3.4 junk", "1.2.3.4\tx", " 1.2.3.4", "1. 2", "4294967295", "4294967296", "0xffffffff",
    "0x100000000", "1.16777215", "1.16777216", "1.2.65535", "1.2.65536", "1.2.3.255", "1.2.3.256", "::", "::1",
    "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7", "1::2::3", ":1::2",
    "1::2:", "::ffff:192.0.2.1", "::ffff:192.0.2.01", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:1.2.3.4", "1.2.3.4::",
    "::1.2.3.4:5", "2001:db8::1", "12345::", "fffff::", "0000:0000:0000:0000:0000:ffff:255.255.255.255", "g::",
    "", ":", ":::", "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "0x1g", "00", "0.0.0.00", "1e1", "+1", "-1",
  ]

  @Test(arguments: picked) func aPickedTextIsReadAsGlibcReadsIt(_ text: String) {
    #expect(IPAddressText.ipv4(text) == Self.glibcPton4(text), "ipv4 \"\(text)\"")
    #expect(IPAddressText.ipv6(text) == Self.glibcPton6(text), "ipv6 \"\(text)\"")
    #expect(IPAddressText.legacyIPv4(text) == Self.glibcAton(text), "legacy \"\(text)\"")
  }

  @Test func randomTextsAreReadAsGlibcReadsThem() {
    var random = SeededGenerator(seed: 0x1_9E7C)
    let v4Alphabet = Array("0123456789.x7fF \t")
    let v6Alphabet = Array("0123456789abcdefABCDEF:.g")
    var disagreements: [String] = []
    for round in 0..<40_000 {
      let alphabet = round % 2 == 0 ? v4Alphabet : v6Alphabet
      let length = 1 + random.below(round % 2 == 0 ? 14 : 30)
      let text = String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
      if IPAddressText.ipv4(text) != Self.glibcPton4(text) { disagreements.append("ipv4 \"\(text)\"") }
      if IPAddressText.ipv6(text) != Self.glibcPton6(text) { disagreements.append("ipv6 \"\(text)\"") }
      if IPAddressText.legacyIPv4(text) != Self.glibcAton(text) { disagreements.append("legacy \"\(text)\"") }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  /// Texts the random rounds rarely make: addresses written out in full, in each reading's forms.
  @Test func wellFormedRandomAddressesAreReadAsGlibcReadsThem() {
    var random = SeededGenerator(seed: 2026_12_03)
    var disagreements: [String] = []
    for _ in 0..<5_000 {
      let groups = (0..<8).map { _ in String(random.below(0x10000), radix: 16) }
      let cut = random.below(8)
      let length = random.below(8 - cut + 1)
      var text = groups.joined(separator: ":")
      if random.chance(50) {
        text = groups[..<cut].joined(separator: ":") + "::" + groups[(cut + length)...].joined(separator: ":")
      }
      if random.chance(30) { text += ":\((0..<4).map { _ in String(random.below(300)) }.joined(separator: "."))" }
      let legacy = (0..<(1 + random.below(4))).map { _ in Self.legacyNumber(&random) }.joined(separator: ".")
      for (reading, ours, theirs) in [
        ("ipv6", IPAddressText.ipv6(text), Self.glibcPton6(text)),
        ("legacy", IPAddressText.legacyIPv4(legacy), Self.glibcAton(legacy)),
        ("ipv4", IPAddressText.ipv4(legacy), Self.glibcPton4(legacy)),
      ] where ours != theirs {
        disagreements.append("\(reading) \"\(reading == "ipv6" ? text : legacy)\"")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  @Test(arguments: [
    [UInt8](repeating: 0, count: 16), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 9],
    [0x20, 0x01, 0x0D, 0xB8, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
    [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1],
    [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  ])
  func anIPv6AddressIsWrittenAsInetNtopWritesIt(address: [UInt8]) {
    #expect(IPAddressText.compressedIPv6(address) == Self.glibcNtop6(address))
  }

  /// Random addresses with runs of zero groups of every length and place (ties between equal runs included), and
  /// IPv4-mapped and IPv4-compatible ones: written as inet_ntop writes them.
  @Test func randomIPv6AddressesAreWrittenAsInetNtopWritesThem() {
    var random = SeededGenerator(seed: 2026_12_04)
    var disagreements: [String] = []
    for _ in 0..<20_000 {
      var address = (0..<16).map { _ in UInt8(random.below(256)) }
      for _ in 0..<random.below(4) {
        let start = random.below(8)
        for group in start..<min(8, start + 1 + random.below(4)) {
          (address[2 * group], address[2 * group + 1]) = (0, 0)
        }
      }
      if random.chance(10) { address.replaceSubrange(0..<12, with: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]) }
      if random.chance(5) { address.replaceSubrange(0..<12, with: [UInt8](repeating: 0, count: 12)) }
      let ours = IPAddressText.compressedIPv6(address)
      if ours != Self.glibcNtop6(address) { disagreements.append("\(address): \(ours)") }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  private static func legacyNumber(_ random: inout SeededGenerator) -> String {
    let value = random.chance(70) ? random.below(300) : random.below(Int(UInt32.max)) * (random.chance(10) ? 2 : 1)
    switch random.below(3) {
    case 0: return "0x" + String(value, radix: 16)
    case 1: return "0" + String(value, radix: 8)
    default: return String(value)
    }
  }

  static func glibcPton4(_ text: String) -> [UInt8]? {
    var address = in_addr()
    guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
    return withUnsafeBytes(of: &address) { Array($0) }
  }

  static func glibcPton6(_ text: String) -> [UInt8]? {
    var address = in6_addr()
    guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
    return withUnsafeBytes(of: &address) { Array($0) }
  }

  static func glibcAton(_ text: String) -> [UInt8]? {
    var address = in_addr()
    guard inet_aton(text, &address) != 0 else { return nil }
    return withUnsafeBytes(of: &address) { Array($0) }
  }

  static func glibcNtop6(_ address: [UInt8]) -> String {
    var raw = in6_addr()
    withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: address) }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
    return String(cString: buffer)
  }
}

import Testing

@testable import Discovery

/// A and AAAA record data as the numeric text a connect call takes.
@Suite("AddressText")
struct AddressTextTests {
  @Test("IPv4")
  func ipv4() {
    #expect(AddressText.from(rdata: [127, 0, 0, 1], interfaceIndex: 1) == "127.0.0.1")
  }

  @Test("IPv6 link-local gets the interface index as its scope; global addresses do not")
  func ipv6() {
    let linkLocal: [UInt8] = [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]
    #expect(AddressText.from(rdata: linkLocal, interfaceIndex: 2) == "fe80::1%2")
    let global: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]
    #expect(AddressText.from(rdata: global, interfaceIndex: 2) == "2001:db8::1")
    #expect(AddressText.from(rdata: Array(repeating: 0, count: 15) + [1], interfaceIndex: 1) == "::1")
  }

  @Test("other lengths are not addresses")
  func badLength() {
    #expect(AddressText.from(rdata: [1, 2, 3], interfaceIndex: 1) == nil)
    #expect(AddressText.from(rdata: [], interfaceIndex: 1) == nil)
  }
}

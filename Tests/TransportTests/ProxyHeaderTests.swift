import Glibc
import Testing

@testable import NetworkFacts
@testable import Transport

/// The PROXY protocol version 2 header, read by a pure parser: every field, truncated and hostile headers,
/// version 1 refused, LOCAL, IPv4 and IPv6, TLVs skipped, the length cap. Headers are built here byte by byte
/// from the specification's layout (haproxy's doc/proxy-protocol.txt, section 2.2), not by the parser's code.
@Suite struct ProxyHeaderTests {
  /// A version 2 header: `command` (0 LOCAL, 1 PROXY), `family` (0 unspecified, 1 IPv4, 2 IPv6, 3 Unix) and
  /// `transport` (1 stream), `body` after the fixed 16 bytes, `length` as given (default the body's).
  private func header(command: UInt8 = 1, family: UInt8 = 1, transport: UInt8 = 1, body: [UInt8], length: Int? = nil)
    -> [UInt8]
  {
    let size = length ?? body.count
    return [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
      + [0x20 | command, family << 4 | transport, UInt8(size >> 8), UInt8(size & 0xFF)] + body
  }

  /// IPv4 addresses and ports: 203.0.113.7:51234 to 192.0.2.1:7177.
  private let inet: [UInt8] = [203, 0, 113, 7, 192, 0, 2, 1, 0xC8, 0x22, 0x1C, 0x09]

  /// IPv6: 2001:db8::5:1 port 40000 to 2001:db8:0:1::2 port 7177.
  private let inet6: [UInt8] =
    [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05, 0, 0x01]
    + [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02] + [0x9C, 0x40, 0x1C, 0x09]

  private func read(_ bytes: [UInt8]) -> ProxyHeader.Reading { ProxyHeader.read(bytes) }

  @Test func anIPv4ProxyHeaderNamesTheClientAndWhatItReached() {
    let bytes = header(body: inet) + [0x16, 0x03, 0x01]
    #expect(
      read(bytes)
        == .header(
          ProxyHeader(command: .proxy, source: "203.0.113.7:51234", destination: "192.0.2.1:7177"), length: 28))
  }

  @Test func anIPv6ProxyHeaderIsWrittenAsTheSocketsWriteAPeer() {
    let reading = read(header(family: 2, body: inet6))
    #expect(
      reading
        == .header(
          ProxyHeader(command: .proxy, source: "[2001:db8::5:1]:40000", destination: "[2001:db8:0:1::2]:7177"),
          length: 52))
  }

  @Test func localIsTheProxysOwnConnectionAndNamesNoClient() {
    #expect(
      read(header(command: 0, family: 0, transport: 0, body: []))
        == .header(ProxyHeader(command: .local, source: nil, destination: nil), length: 16))
    // LOCAL with addresses (some proxies send them): still no client to judge.
    #expect(
      read(header(command: 0, body: inet))
        == .header(ProxyHeader(command: .local, source: nil, destination: nil), length: 28))
  }

  @Test func anUnspecifiedFamilyOrAUnixSocketOrADatagramNamesNoClient() {
    #expect(
      read(header(family: 0, transport: 0, body: [1, 2, 3]))
        == .header(ProxyHeader(command: .proxy, source: nil, destination: nil), length: 19))
    let unix = [UInt8](repeating: 0x2F, count: 216)
    #expect(
      read(header(family: 3, body: unix))
        == .header(ProxyHeader(command: .proxy, source: nil, destination: nil), length: 232))
    #expect(
      read(header(transport: 2, body: inet))
        == .header(ProxyHeader(command: .proxy, source: nil, destination: nil), length: 28))
  }

  @Test func tlvsAfterTheAddressesAreSkippedAndMustFillTheHeader() {
    // PP2_TYPE_ALPN "h2" and PP2_TYPE_UNIQUE_ID of 4 bytes, then what follows is the client's.
    let tlvs: [UInt8] = [0x01, 0x00, 0x02, 0x68, 0x32, 0x05, 0x00, 0x04, 1, 2, 3, 4]
    let reading = read(header(body: inet + tlvs) + [0x16])
    #expect(
      reading
        == .header(ProxyHeader(command: .proxy, source: "203.0.113.7:51234", destination: "192.0.2.1:7177"), length: 40)
    )
    // A TLV whose length runs past the header, or a stray byte after the last one.
    #expect(read(header(body: inet + [0x01, 0x00, 0x09, 0x68])) == .refused(.badTLV))
    #expect(read(header(body: inet + tlvs + [0x04])) == .refused(.badTLV))
    #expect(read(header(body: inet + [0x04, 0x00])) == .refused(.badTLV))
  }

  @Test func everyPrefixOfAGoodHeaderAsksForMoreAndNeverDecidesWrongly() {
    for bytes in [
      header(body: inet), header(family: 2, body: inet6), header(command: 0, family: 0, transport: 0, body: []),
    ] {
      for cut in 0..<bytes.count { #expect(read(Array(bytes.prefix(cut))) == .more, "cut at \(cut)") }
      if case .header = read(bytes) {} else { Issue.record("the whole header was not read") }
    }
  }

  @Test func versionOneTextIsRefusedAtItsFirstByte() {
    #expect(read(Array("P".utf8)) == .refused(.versionOne))
    #expect(read(Array("PROXY TCP4 203.0.113.7 192.0.2.1 51234 7177\r\n".utf8)) == .refused(.versionOne))
  }

  @Test func aTLSHelloOrAnyOtherByteIsNotAHeader() {
    #expect(read([0x16, 0x03, 0x01, 0x02, 0x00]) == .refused(.notAProxyHeader))
    #expect(
      read([0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0B]) == .refused(.notAProxyHeader))
    #expect(read([0x0D, 0x0B]) == .refused(.notAProxyHeader), "decided at the first wrong byte")
  }

  @Test func aWrongVersionCommandFamilyOrTransportIsRefused() {
    var bytes = header(body: inet)
    bytes[12] = 0x11
    #expect(read(bytes) == .refused(.version(1)))
    bytes[12] = 0x32
    #expect(read(bytes) == .refused(.version(3)))
    bytes[12] = 0x22
    #expect(read(bytes) == .refused(.command(2)))
    bytes[12] = 0x2F
    #expect(read(bytes) == .refused(.command(15)))
    #expect(read(header(family: 4, body: inet)) == .refused(.family(4)))
    #expect(read(header(transport: 3, body: inet)) == .refused(.transport(3)))
  }

  @Test func aLengthPastTheCapIsRefusedBeforeItsBytesCome() {
    #expect(read(header(body: [], length: ProxyHeader.maximumLength + 1)) == .refused(.tooLong(513)))
    #expect(read(header(body: [], length: 0xFFFF)) == .refused(.tooLong(65535)))
    // At the cap: waits for the bytes, and reads them.
    let longest = inet + [0xEE, 0x01, 0xF1] + [UInt8](repeating: 7, count: ProxyHeader.maximumLength - 15)
    #expect(read(header(body: Array(longest.prefix(100)), length: longest.count)) == .more)
    if case .header(_, let length) = read(header(body: longest)) {
      #expect(length == 16 + ProxyHeader.maximumLength)
    } else {
      Issue.record("a header at the cap was not read")
    }
  }

  @Test func aLengthTooShortForTheFamilysAddressesIsRefused() {
    #expect(read(header(body: Array(inet.prefix(11)))) == .refused(.addressesCut(family: 1, length: 11)))
    #expect(read(header(family: 2, body: inet)) == .refused(.addressesCut(family: 2, length: 12)))
    #expect(read(header(family: 3, body: inet6)) == .refused(.addressesCut(family: 3, length: 36)))
  }

  @Test func thePreludeHandsOnTheHeaderAndWhatFollowsItAByteAtATime() {
    var prelude = ProxyPrelude(now: 100)
    #expect(prelude.opening.isEmpty && prelude.deadline == 100 + ProxyPrelude.patience)
    let bytes = header(body: inet) + [0x16, 0x03]
    for byte in bytes.prefix(27) { #expect(prelude.feed([byte]) == .more) }
    let header = ProxyHeader(command: .proxy, source: "203.0.113.7:51234", destination: "192.0.2.1:7177")
    #expect(prelude.feed(Array(bytes[27...])) == .introduced(header, leftover: [0x16, 0x03]))
  }

  @Test func thePreludeFailsOnABadHeaderAnEndOrItsDeadline() {
    var bad = ProxyPrelude(now: 0)
    #expect(bad.feed(Array("PROXY TCP4".utf8)) == .failed(.proxyHeader(.versionOne)))
    var silent = ProxyPrelude(now: 0)
    #expect(silent.ended() == .proxyHeader(.ended(received: 0)))
    var cut = ProxyPrelude(now: 0)
    #expect(cut.feed(Array(header(body: inet).prefix(20))) == .more)
    #expect(cut.ended() == .proxyHeader(.ended(received: 20)))
    var slow = ProxyPrelude(now: 10)
    #expect(slow.expired(now: 14.9) == nil)
    #expect(slow.expired(now: 15) == .proxyHeader(.timedOut(seconds: 5)))
  }
}

import Foundation
import Testing

@testable import PortMapping

/// The pure parts of port mapping: PCP's bytes (RFC 6887 §7, §11), the default route, HTTP and SSDP as a
/// gateway speaks them, what kind of outside address a router has, and the words and choice made of three
/// attempts.
@Suite struct PCPMessageTests {
  static let nonce: [UInt8] = Array(1...12)

  @Test func aMapRequestIsSixtyBytesAsTheRFCLaysThemOut() {
    let bytes = PCPMessage.mapRequest(
      nonce: Self.nonce, client: [10, 203, 0, 2], internalPort: 7177, externalPort: 7178, lifetime: 1200)
    #expect(bytes.count == 60)
    #expect(Array(bytes[0..<4]) == [2, 1, 0, 0])  // version 2, request, opcode MAP
    #expect(Array(bytes[4..<8]) == [0, 0, 0x04, 0xB0])  // 1200 s
    #expect(Array(bytes[8..<24]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 203, 0, 2])
    #expect(Array(bytes[24..<36]) == Self.nonce)
    #expect(Array(bytes[36..<40]) == [6, 0, 0, 0])  // TCP
    #expect(Array(bytes[40..<44]) == [0x1C, 0x09, 0x1C, 0x0A])  // 7177 → 7178
    #expect(Array(bytes[44..<60]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0])
  }

  static func response(
    result: UInt8 = 0, nonce: [UInt8] = nonce, port: UInt16 = 7177, external: [UInt8] = [198, 51, 101, 1]
  )
    -> [UInt8]
  {
    var bytes: [UInt8] = [2, 0x81, 0, result, 0, 0, 0x02, 0x58, 0, 0, 0x10, 0]  // lifetime 600, epoch 4096
    bytes += [UInt8](repeating: 0, count: 12)
    bytes += nonce + [6, 0, 0, 0] + [UInt8(port >> 8), UInt8(port & 0xFF), 0x1C, 0x0B]
    bytes += [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + external
    return bytes
  }

  @Test func aSuccessfulAnswerGivesTheOutsidePortAndAddress() throws {
    let answer = try PCPMessage.parseMapResponse(Self.response(), nonce: Self.nonce, internalPort: 7177)
    #expect(answer.result == .success)
    #expect(answer.lifetime == 600 && answer.epoch == 4096)
    #expect(answer.externalPort == 7179 && answer.externalAddress == "198.51.101.1")
  }

  @Test func aRefusalIsNamed() throws {
    let answer = try PCPMessage.parseMapResponse(Self.response(result: 2), nonce: Self.nonce, internalPort: 7177)
    #expect(answer.result.description == "not authorized")
    #expect(PCPMessage.ResultCode(11).description == "cannot provide an external port")
    #expect(PCPMessage.ResultCode(200).description == "result code 200")
  }

  @Test func answersThatAreNotForThisRequestAreRefused() {
    #expect(throws: PCPError.natPMPOnly) {
      try PCPMessage.parseMapResponse([0, 0x81, 0, 1], nonce: Self.nonce, internalPort: 1)
    }
    #expect(throws: PCPError.malformed("it is empty")) {
      try PCPMessage.parseMapResponse([], nonce: Self.nonce, internalPort: 1)
    }
    #expect(throws: PCPError.malformed("its nonce is not the request's")) {
      try PCPMessage.parseMapResponse(
        Self.response(nonce: Array(repeating: 9, count: 12)), nonce: Self.nonce, internalPort: 7177)
    }
    #expect(throws: PCPError.malformed("it answers another mapping (protocol 6, port 80)")) {
      try PCPMessage.parseMapResponse(Self.response(port: 80), nonce: Self.nonce, internalPort: 7177)
    }
    #expect(throws: PCPError.malformed("it is 1101 bytes, over 1100")) {
      try PCPMessage.parseMapResponse([UInt8](repeating: 2, count: 1101), nonce: Self.nonce, internalPort: 7177)
    }
    #expect(throws: PCPError.malformed("a MAP response is at least 60 bytes in whole words, not 59")) {
      try PCPMessage.parseMapResponse(Array(Self.response().dropLast()), nonce: Self.nonce, internalPort: 7177)
    }
  }

  /// Every prefix and every one-byte change of a good answer is parsed without a crash.
  @Test func noCutOrChangedAnswerCrashes() {
    let good = Self.response()
    for length in 0...good.count {
      _ = try? PCPMessage.parseMapResponse(Array(good.prefix(length)), nonce: Self.nonce, internalPort: 7177)
    }
    for index in good.indices {
      for value: UInt8 in [0, 0xFF, good[index] &+ 1] {
        var changed = good
        changed[index] = value
        _ = try? PCPMessage.parseMapResponse(changed, nonce: Self.nonce, internalPort: 7177)
      }
    }
  }
}

@Suite struct GatewayTests {
  @Test func theDefaultRoutesNextHopIsTheGateway() {
    let table = """
      Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
      th-1\t0000CB0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
      th-1\t00000000\t0100CB0A\t0003\t0\t0\t0\t00000000\t0\t0\t0
      """
    #expect(Gateway.defaultIPv4(routeTable: table) == "10.203.0.1")
    #expect(
      Gateway.defaultIPv4(routeTable: String(table.split(separator: "\n").prefix(2).joined(separator: "\n"))) == nil)
    // A default route that is down (flags without RTF_UP) is no gateway.
    #expect(Gateway.defaultIPv4(routeTable: table.replacingOccurrences(of: "\t0003\t", with: "\t0002\t")) == nil)
    #expect(Gateway.defaultIPv4(routeTable: "") == nil)
  }
}

@Suite struct IPv6GatewayTests {
  static let table = [
    "20010db8000100000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001  th-1",
    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 20010db8000100000000000000000001 00000400 00000001 00000000 00000003  th-1",
    "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo",
  ]

  @Test func theDefaultIPv6RoutesNextHopWithItsZoneWhenLinkLocal() {
    let global = Self.table.joined(separator: "\n")
    #expect(Gateway.defaultIPv6(routeTable: global) == "2001:db8:1:0:0:0:0:1")
    let linkLocal = global.replacingOccurrences(
      of: "20010db8000100000000000000000001", with: "fe800000000000000000000000000001")
    #expect(Gateway.defaultIPv6(routeTable: linkLocal) == "fe80:0:0:0:0:0:0:1%th-1")
    // Only the unreachable catch-all: no gateway.
    #expect(Gateway.defaultIPv6(routeTable: Self.table[2]) == nil)
  }
}

@Suite struct ExternalAddressTests {
  @Test(arguments: [
    ("198.51.101.1", ExternalAddressKind.public), ("8.8.8.8", .public), ("10.1.2.3", .private),
    ("172.16.0.1", .private), ("172.31.255.255", .private), ("172.32.0.1", .public), ("192.168.1.1", .private),
    ("100.64.0.1", .shared), ("100.127.255.254", .shared), ("100.128.0.1", .public), ("127.0.0.1", .unusable),
    ("169.254.1.1", .unusable), ("0.0.0.0", .unusable), ("224.0.0.1", .unusable),
  ])
  func kinds(address: String, kind: ExternalAddressKind) {
    #expect(ExternalAddressKind(address: address) == kind)
  }

  @Test func notAnAddress() {
    for text in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "a.b.c.d", "1..2.3", "01234.1.1.1", "::1"] {
      #expect(ExternalAddressKind(address: text) == nil, "\(text)")
    }
  }
}

@Suite struct HTTPTests {
  @Test func urlsAndTheirReferences() throws {
    let url = try #require(HTTPURL("http://10.203.0.1:44103/rootDesc.xml"))
    #expect(url.host == "10.203.0.1" && url.port == 44103 && url.path == "/rootDesc.xml")
    #expect(url.resolving("/ctl/IPConn")?.description == "http://10.203.0.1:44103/ctl/IPConn")
    #expect(url.resolving("ctl")?.description == "http://10.203.0.1:44103/ctl")
    #expect(url.resolving("http://192.0.2.9/x")?.host == "192.0.2.9")
    #expect(HTTPURL("http://[fe80::1]:80/a")?.host == "fe80::1")
    #expect(HTTPURL("http://h")?.port == 80)
    for bad in ["https://h/", "http://", "http://user@h/", "http://h:0/", "http://h:99999/", "http://h/a b", "ftp://h"]
    {
      #expect(HTTPURL(bad) == nil, "\(bad)")
    }
  }

  @Test func repliesAreReadWithALimit() throws {
    let reply = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8)
    #expect(HTTPReply.isComplete(reply))
    #expect(try HTTPReply.parse(reply, ended: false, limit: 100) == HTTPReply(status: 200, body: Array("hello".utf8)))
    #expect(!HTTPReply.isComplete(Array(reply.dropLast())))
    #expect(throws: HTTPError.incomplete) { try HTTPReply.parse(Array(reply.dropLast()), ended: false, limit: 100) }
    #expect(throws: HTTPError.malformed("the body was cut short")) {
      try HTTPReply.parse(Array(reply.dropLast()), ended: true, limit: 100)
    }
    // A gateway that claims a huge body is refused before it is read.
    let huge = Array("HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\nx".utf8)
    #expect(throws: HTTPError.tooLarge(65_536)) { try HTTPReply.parse(huge, ended: false, limit: 65_536) }
    #expect(throws: HTTPError.tooLarge(10)) { try HTTPReply.parse(reply, ended: false, limit: 10) }
    let noLength = Array("HTTP/1.0 500 Oops\r\n\r\n<err/>".utf8)
    #expect(try HTTPReply.parse(noLength, ended: true, limit: 100).status == 500)
    #expect(throws: HTTPError.malformed("the status line is not HTTP's")) {
      try HTTPReply.parse(Array("SSH-2.0\r\n\r\n".utf8), ended: true, limit: 100)
    }
  }

  @Test func ssdpAndSoap() throws {
    let search = String(decoding: UPnPMessage.search(), as: UTF8.self)
    #expect(search.hasPrefix("M-SEARCH * HTTP/1.1\r\n") && search.contains("ST: \(UPnPMessage.gatewayDevice)\r\n"))
    let answer = Array("HTTP/1.1 200 OK\r\nST: x\r\nLocation:  http://10.203.0.1:1/d.xml \r\n\r\n".utf8)
    #expect(UPnPMessage.location(answer) == "http://10.203.0.1:1/d.xml")
    let url = try #require(HTTPURL("http://10.203.0.1:1/ctl"))
    let soap = String(
      decoding: UPnPMessage.soap(
        url, service: "urn:x:WANIPConnection:1", action: "AddPortMapping", arguments: [("A", "<&>")]),
      as: UTF8.self)
    #expect(soap.hasPrefix("POST /ctl HTTP/1.1\r\nHost: 10.203.0.1:1\r\n"))
    #expect(soap.contains("SOAPAction: \"urn:x:WANIPConnection:1#AddPortMapping\"\r\n"))
    #expect(soap.contains("<A>&lt;&amp;&gt;</A>"))
    let body = soap.components(separatedBy: "\r\n\r\n")[1]
    #expect(soap.contains("Content-Length: \(body.utf8.count)\r\n"))
  }
}

@Suite struct MappingDecisionTests {
  static func mapped(_ via: MappingProtocol, external: String? = "198.51.101.1", port: UInt16 = 7177) -> AttemptOutcome
  {
    .mapped(
      Mapping(
        via: via, gateway: "10.203.0.1", internalPort: 7177, externalPort: port, externalAddress: external,
        lifetime: 1200))
  }

  static func decide(_ attempts: [MappingProtocol: AttemptOutcome], gateway: String? = "10.203.0.1") -> MappingDecision
  {
    MappingDecision(attempts: attempts, gateway: gateway, localAddress: "10.203.0.2", port: 7177)
  }

  @Test func oneIsKeptInTheOrderPCPNATPMPUPnPAndTheOthersRemoved() {
    let all = Self.decide([
      .upnp: Self.mapped(.upnp, port: 7180), .natPMP: Self.mapped(.natPMP, port: 7179), .pcp: Self.mapped(.pcp),
    ])
    #expect(all.kept?.via == .pcp)
    #expect(all.toRemove.map(\.via) == [.natPMP, .upnp])
    // The same outside port by another protocol is the same forwarding on the router: nothing to remove.
    let same = Self.decide([.upnp: Self.mapped(.upnp), .natPMP: Self.mapped(.natPMP), .pcp: Self.mapped(.pcp)])
    #expect(same.kept?.via == .pcp && same.toRemove.isEmpty)
    #expect(
      all.lines == [
        "Port 7177 is mapped on your router 10.203.0.1 (PCP, renewed while you host): players on the internet can"
          + " join at 198.51.101.1:7177."
      ])
    #expect(all.publicEndpoint?.host == "198.51.101.1")
    let two = Self.decide([.upnp: Self.mapped(.upnp, port: 7178), .natPMP: Self.mapped(.natPMP), .pcp: .silent])
    #expect(two.kept?.via == .natPMP && two.toRemove.map(\.via) == [.upnp])
  }

  @Test func eachFailureIsSaidWithWhatToDo() {
    let silent = Self.decide([.upnp: .silent, .natPMP: .silent, .pcp: .silent])
    #expect(
      silent.lines == [
        "No answer from your router 10.203.0.1 to UPnP, NAT-PMP or PCP: forward TCP port 7177 to 10.203.0.2 in your"
          + " router's settings by hand, or ask your friend to host instead."
      ])
    #expect(silent.kept == nil && silent.publicEndpoint == nil)
    let refused = Self.decide([
      .upnp: .refused("AddPortMapping: 606 Action not authorized"), .natPMP: .silent, .pcp: .refused("not authorized"),
    ])
    #expect(
      refused.lines.first?.hasPrefix(
        "Your router 10.203.0.1 did not open port 7177 (PCP: not authorized; UPnP: AddPortMapping: 606 Action not authorized): forward"
      ) == true, "\(refused.lines)")
    #expect(Self.decide([:], gateway: nil).lines.first?.contains("no default route") == true)
  }

  @Test func aPrivateOrSharedOutsideAddressMeansNobodyOutsideCanJoin() {
    let cgnat = Self.decide([.pcp: Self.mapped(.pcp, external: "100.64.9.9")])
    #expect(cgnat.lines.first?.contains("100.64.9.9 is shared (carrier-grade NAT, 100.64.0.0/10)") == true)
    #expect(cgnat.publicEndpoint == nil)
    let doubleNAT = Self.decide([.upnp: Self.mapped(.upnp, external: "192.168.0.5")])
    #expect(doubleNAT.lines.first?.contains("192.168.0.5 is private: it is behind another router") == true)
    #expect(doubleNAT.publicEndpoint == nil)
    let unknown = Self.decide([.natPMP: Self.mapped(.natPMP, external: nil)])
    #expect(unknown.lines.first?.contains("did not say its outside address") == true)
  }

  @Test func anotherOutsidePortIsNamed() {
    let moved = Self.decide([.upnp: Self.mapped(.upnp, port: 7178)])
    #expect(
      moved.lines.first?.hasPrefix("Port 7177 is mapped to outside port 7178 (7177 was taken) on your router") == true)
    #expect(moved.publicEndpoint?.port == 7178)
  }
}

/// Replays the `pcp-response` fuzzer's saved inputs (FuzzCorpus/; scripts/fuzz.sh adds every crash it finds):
/// each comes to its listed outcome.
@Suite struct PCPFuzzRegressionTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "FuzzCorpus")
  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }
  static let expected: [String: String] = [
    "success": "198.51.101.1:7179",
    "natpmp-answer": "the gateway speaks NAT-PMP but not PCP",
    "cut-after-header":
      "the gateway's PCP answer is malformed: a MAP response is at least 60 bytes in whole words, not 24",
    "ipv6-external": "the gateway's PCP answer is malformed: its external address is not an IPv4 one",
  ]

  @Test func corpusIsThere() { #expect(!Self.inputs.isEmpty) }

  @Test(arguments: inputs) func replay(name: String) throws {
    let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
    let outcome: String
    do {
      let answer = try PCPMessage.parseMapResponse(bytes, nonce: Array(1...12), internalPort: 7177)
      outcome = "\(answer.externalAddress):\(answer.externalPort)"
    } catch {
      outcome = "\(error)"
    }
    #expect(Self.expected[name] == outcome, "\(name) came to \(outcome); list it once triaged")
  }
}

/// The routers' numbered answers are named cases; any number reads back as itself.
@Suite struct ResultCodeTests {
  @Test func everyPCPResultCodeReadsBackAsItsNumber() {
    for value in UInt8.min...UInt8.max { #expect(PCPMessage.ResultCode(value).value == value) }
    #expect(PCPMessage.ResultCode(0) == .success && PCPMessage.ResultCode(2) == .notAuthorized)
    #expect(PCPMessage.ResultCode(11).description == "cannot provide an external port")
    #expect(PCPMessage.ResultCode(200) == .other(200) && PCPMessage.ResultCode(200).description == "result code 200")
  }

  @Test func theUPnPErrorsTheMappingActsOnAreNamed() {
    #expect(UPnPFailure.Code(718) == .conflictInMappingEntry)
    #expect(UPnPFailure.Code(725) == .onlyPermanentLeasesSupported)
    #expect(UPnPFailure.Code(501) == .other(501))
  }
}

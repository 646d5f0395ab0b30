import Glibc
import NetworkFacts
import Testing

@testable import Transport

@Suite struct EndpointTests {
  @Test(arguments: [
    ("alice.local", "alice.local", UInt16(7177)),
    ("alice.local:9000", "alice.local", 9000),
    ("192.0.2.7", "192.0.2.7", 7177),
    ("192.0.2.7:1234", "192.0.2.7", 1234),
    ("[2001:db8::7]:1234", "2001:db8::7", 1234),
    ("[::1]", "::1", 7177),
    ("2001:db8::7", "2001:db8::7", 7177),
    ("fe80::1%eth0", "fe80::1%eth0", 7177),
    (" localhost:80 ", "localhost", 80),
  ])
  func addressesAsPlayersTypeThem(text: String, host: String, port: UInt16) {
    #expect(Endpoint(parsing: text) == Endpoint(host: host, port: port))
  }

  @Test(arguments: ["", ":80", "host:", "host:0", "host:70000", "host:abc", "[::1", "[]:80", "[::1]80"])
  func nonsenseIsRefused(text: String) {
    #expect(Endpoint(parsing: text) == nil)
  }

  /// Numbers the resolver (inet_aton) takes for another address than they show are refused, and
  /// `numericProblem` says which address they would have been.
  @Test(arguments: [
    ("2130706433", "127.0.0.1"), ("0177.0.0.1:7177", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0", "0.0.0.0"),
    ("127.1:80", "127.0.0.1"), ("192.0.2.07", "192.0.2.7"),
  ])
  func aNumberThatMeansAnotherAddressIsRefused(text: String, meaning: String) {
    #expect(Endpoint(parsing: text) == nil)
    #expect(Endpoint.numericProblem(text)?.contains("taken for the address \(meaning)") == true)
  }

  @Test func aNumberThatIsNoAddressIsRefusedAndNamesAndIPv6Stay() {
    #expect(Endpoint(parsing: "1.2.3.4.5") == nil)
    #expect(Endpoint(parsing: "256.0.0.1:80") == nil)
    #expect(Endpoint(parsing: "10.0.0.255") == Endpoint(host: "10.0.0.255", port: 7177))
    #expect(Endpoint(parsing: "[::ffff:192.0.2.7]:80") == Endpoint(host: "::ffff:192.0.2.7", port: 80))
    #expect(Endpoint(parsing: "host7.example") == Endpoint(host: "host7.example", port: 7177))
    #expect(Endpoint.numericProblem("alice.local:80") == nil)
  }

  @Test func descriptionsBracketIPv6() {
    #expect(Endpoint(host: "::1", port: 5).description == "[::1]:5")
    #expect(Endpoint(host: "a", port: 5).description == "a:5")
  }

  @Test func listeningOnPortZeroGetsAPortAndConnectingToItWorks() throws {
    let listeners = try Sockets.listen(bind: "127.0.0.1", port: 0)
    let port = Sockets.localPort(listeners[0])
    #expect(port > 0)
    let client = try Sockets.connect(Endpoint(host: "127.0.0.1", port: port))
    #expect(client >= 0)
    var accepted: (fd: Int32, peer: String)?
    for _ in 0..<100 where accepted == nil {
      accepted = Sockets.accept(listeners[0])
      if accepted == nil { usleep(10_000) }
    }
    #expect(accepted?.peer.hasPrefix("127.0.0.1:") == true)
  }

  @Test func aClosedPortIsRefusedAndAnUnknownHostNotFound() {
    #expect(throws: NetworkError.connectionRefused(Endpoint(host: "127.0.0.1", port: 1))) {
      try Sockets.connect(Endpoint(host: "127.0.0.1", port: 1))
    }
    // An empty label: refused by the C library without a DNS query leaving the machine.
    #expect {
      try Sockets.connect(Endpoint(host: "no-such-host..invalid", port: 1))
    } throws: { error in
      if case NetworkError.hostNotFound("no-such-host..invalid", _) = error { return true }
      return false
    }
  }

  @Test func aPortInUseIsReported() throws {
    let first = try Sockets.listen(bind: "127.0.0.1", port: 0)
    let port = Sockets.localPort(first[0])
    #expect(throws: NetworkError.cannotListen("127.0.0.1:\(port)", reason: "the port is already in use")) {
      try Sockets.listen(bind: "127.0.0.1", port: port)
    }
  }
}

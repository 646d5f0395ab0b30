import Glibc
import NetworkFacts
import PeerTrust
import Security
import Testing
import TransitRelay

@testable import Transport

/// What a connection makes of a relay that misbehaves, played by a loopback listener of the test's own: the
/// greeting it is sent, words other than `ok` (shown escaped), a close before `ok`.
@Suite struct RelayAnswerOnSocketTests {
  /// A connection in `role` waiting at a fake relay, the fake relay's end of it, and the greeting sent.
  private func waitAtFakeRelay(role: TLSRole = .server) throws -> (
    peer: RelayPeer, relayEnd: Int32, relay: Endpoint, greeting: [UInt8]
  ) {
    let listener = try Sockets.listen(bind: "127.0.0.1", port: 0)[0]
    defer { close(listener) }
    let relay = Endpoint(host: "127.0.0.1", port: Sockets.localPort(listener))
    let identity = try Identity.generate(commonName: "waiting")
    let connection = try PeerConnection(
      fd: try Sockets.connect(relay),
      context: try TLSContext(role: role, identity: identity, options: TrustOptions(policy: .insecure)),
      peerAddress: relay.description)
    let greeting = RelayGreeting(token: try RelayToken.random(), side: try RelaySide.random())
    connection.start(after: RelayPrelude(greeting: greeting, relay: relay, now: connection.clock(), patience: 10))
    var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 5_000) == 1)
    let accepted = try #require(Sockets.accept(listener))
    return (RelayPeer(connection), accepted.fd, relay, greeting.line)
  }

  /// Reads what the fake relay was sent, at most `count` bytes, waiting at most `milliseconds` for each piece.
  private func readSent(_ fd: Int32, count: Int, milliseconds: Int32 = 5_000) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while bytes.count < count {
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, milliseconds) == 1 else { break }
      let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard got > 0 else { break }
      bytes += buffer[0..<got]
    }
    return bytes
  }

  private func write(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
  }

  /// A TLS client (the joiner) too says nothing but the greeting until ok: the relay hangs up on anything more.
  @Test func theGreetingGoesFirstAndAloneAndGarbageIsNamed() throws {
    let (peer, relayEnd, relay, greeting) = try waitAtFakeRelay(role: .client)
    defer { close(relayEnd) }
    #expect(readSent(relayEnd, count: greeting.count) == greeting)
    #expect(readSent(relayEnd, count: 1, milliseconds: 300) == [], "no byte of TLS before ok")
    write("\u{1B}[2J\u{1B}]0;pwned\u{07}HTTP/1.1 400 Bad Request\r\n", to: relayEnd)
    #expect(try drive([peer]) { peer.failure != nil })
    guard case .relay(relay, .answered(let words)) = peer.failure else {
      Issue.record("\(String(describing: peer.failure))")
      return
    }
    #expect(words.unsanitised.hasSuffix("HTTP/1.1 400 Bad Request\r"))
    let shown = "\(peer.failure.map(\.description) ?? "")"
    #expect(shown.contains("HTTP/1.1 400 Bad Request") && shown.contains("The relay \(relay) answered"), "\(shown)")
    #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(shown.debugDescription)")
    #expect(peer.failure?.code == "relay.answered-other")
  }

  @Test func aCloseBeforeOkIsNamed() throws {
    let (peer, relayEnd, relay, greeting) = try waitAtFakeRelay()
    #expect(readSent(relayEnd, count: greeting.count) == greeting)
    close(relayEnd)
    #expect(try drive([peer]) { peer.failure != nil })
    #expect(peer.failure == .relay(relay, .closed))
    #expect(peer.failure?.code == "relay.closed")
  }

  /// Half an ok, then the rest with TLS's first bytes in the same write: glued, and the bytes reach TLS (a
  /// client's hello, which the waiting server answers).
  @Test func okInPiecesThenTLSInTheSameWrite() throws {
    let (peer, relayEnd, _, greeting) = try waitAtFakeRelay()
    defer { close(relayEnd) }
    #expect(readSent(relayEnd, count: greeting.count) == greeting)
    let client = try TLSConnection(
      context: try TLSContext(
        role: .client, identity: try Identity.generate(commonName: "c"), options: TrustOptions(policy: .insecure)),
      serverName: nil)
    _ = try client.handshake()
    let hello = client.takeCiphertext()
    write("o", to: relayEnd)
    try drive([peer], seconds: 0.2) { false }
    #expect(peer.connection.isInPrelude && peer.failure == nil)
    let rest = Array("k\n".utf8) + hello
    #expect(rest.withUnsafeBytes { Glibc.write(relayEnd, $0.baseAddress, $0.count) } == rest.count)
    #expect(try drive([peer]) { !peer.connection.isInPrelude })
    // The server's answer to the hello: a TLS handshake record.
    let answer = readSent(relayEnd, count: 5)
    #expect(answer.starts(with: [0x16, 0x03]), "\(answer.prefix(8))")
    #expect(peer.failure == nil)
  }

  /// A failure to connect to the relay names the relay, not a host that is not hosting.
  @Test func connectFailuresAreNamedAsTheRelays() {
    let relay = Endpoint(host: "relay.example", port: 4001)
    #expect(NetworkError.connectionRefused(relay).atRelay(relay) == .relay(relay, .refused))
    #expect(
      NetworkError.timedOut(relay, seconds: 10).atRelay(relay)
        == .relay(relay, .unreachable(reason: "no answer within 10 s")))
    #expect(
      NetworkError.unreachable(relay, reason: "No route to host").atRelay(relay)
        == .relay(relay, .unreachable(reason: "No route to host")))
    let notFound = NetworkError.hostNotFound("relay.example", reason: "Name or service not known").atRelay(relay)
    #expect(notFound.code == "relay.unreachable" && notFound.description.contains("Name or service not known"))
    // Failures after connecting are left as they are.
    #expect(NetworkError.closedDuringHandshake.atRelay(relay) == .closedDuringHandshake)
    let refused = NetworkError.relay(relay, .refused)
    #expect(refused.description == "\(refused.reason) \(refused.hint ?? "")")
    #expect(refused.reason.contains("relay.example:4001") && !refused.description.contains("nobody is hosting"))
  }
}

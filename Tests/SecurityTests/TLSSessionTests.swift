import NetworkFacts
import Testing

@testable import Security

/// Handshake basics, data, shutdown and protocol-level refusals.
@Suite struct TLSSessionTests {
  @Test func negotiatesTLS13WithTheTictactoeProtocol() throws {
    let pair = try Pair()
    #expect(pair.outcome.clientDone && pair.outcome.serverDone)
    #expect(pair.outcome.clientError == nil && pair.outcome.serverError == nil)
    for connection in [pair.client, pair.server] {
      #expect(connection.protocolVersion == "TLSv1.3")
      #expect(connection.negotiatedProtocol == "tictactoe/1")
      #expect(connection.cipher.hasPrefix("TLS_"))
      #expect(connection.trustDecision == .trusted(.insecure))
    }
    #expect(pair.client.peerCertificate?.fingerprint == Fixtures.bob.fingerprint)
    #expect(pair.server.peerCertificate?.fingerprint == Fixtures.alice.fingerprint)
    #expect(pair.server.peerCertificate?.commonName == "alice")
    #expect(pair.server.peerCertificate?.dnsNames == ["alice"])
    #expect(pair.server.peerCertificate?.isSelfSigned == true)
  }

  @Test func carriesDataBothWays() throws {
    let pair = try Pair()
    try pair.client.writePlaintext(Array("hello bob".utf8))
    pair.server.feed(ciphertext: pair.client.takeCiphertext())
    #expect(try pair.server.readPlaintext() == Array("hello bob".utf8))
    #expect(try pair.server.readPlaintext() == [])

    let big = [UInt8](repeating: 7, count: 100_000)
    try pair.server.writePlaintext(big)
    try pair.server.writePlaintext(Array("!".utf8))
    pair.client.feed(ciphertext: pair.server.takeCiphertext())
    #expect(try pair.client.readPlaintext() == big + Array("!".utf8))
  }

  @Test func aRecordSplitAcrossFeedsArrivesWhenItsLastByteDoes() throws {
    let pair = try Pair()
    try pair.client.writePlaintext(Array("one".utf8))
    try pair.client.writePlaintext(Array("two".utf8))
    let ciphertext = pair.client.takeCiphertext()
    // Everything but the last 5 bytes: the first record whole, the second cut short.
    pair.server.feed(ciphertext: Array(ciphertext.dropLast(5)))
    #expect(try pair.server.readPlaintext() == Array("one".utf8))
    #expect(try pair.server.readPlaintext() == [])
    pair.server.feed(ciphertext: Array(ciphertext.suffix(5)))
    #expect(try pair.server.readPlaintext() == Array("two".utf8))
  }

  @Test func cleanShutdownIsReportedAsClosedByPeer() throws {
    let pair = try Pair()
    try pair.client.writePlaintext(Array("bye".utf8))
    pair.client.shutdown()
    pair.server.feed(ciphertext: pair.client.takeCiphertext())
    #expect(pair.client.isClosed)
    // The data sent before the close_notify still arrives, then the close is reported.
    #expect(try pair.server.readPlaintext() == Array("bye".utf8))
    #expect(throws: TLSError.closedByPeer) { try pair.server.readPlaintext() }
    #expect(pair.server.isClosed)
  }

  @Test func endOfStreamWithoutCloseNotifyIsUnexpected() throws {
    let pair = try Pair()
    pair.server.feedEndOfStream()
    #expect(throws: TLSError.unexpectedEOF) { try pair.server.readPlaintext() }
  }

  @Test func clientOfferingAnotherProtocolIsNotATictactoePeer() throws {
    let pair = try Pair(clientALPN: "http/1.1")
    #expect(pair.outcome.serverError == .noCommonApplicationProtocol(offered: ["http/1.1"]))
    #expect(pair.outcome.clientError == .noCommonApplicationProtocol(offered: ["http/1.1"]))
    #expect(pair.outcome.serverError?.description.contains("not a tictactoe peer") == true)
  }

  @Test func plaintextIsNotTLS() throws {
    let context = try TLSContext(role: .server, identity: Fixtures.bob, options: Fixtures.insecure)
    let server = try TLSConnection(context: context, serverName: nil)
    server.feed(ciphertext: Array("GET / HTTP/1.1\r\n\r\n".utf8))
    #expect(throws: TLSError.notTLS) { try server.handshake() }
    #expect(server.takeCiphertext().isEmpty)
  }

  @Test func aTLS12OnlyClientIsToldTheVersionProblem() throws {
    let pair = try Pair(clientMaximumVersion: 0x0303)
    #expect(pair.outcome.serverError == .protocolVersion(peerMaximum: "TLS 1.2"))
    #expect(pair.outcome.clientError == .protocolVersion(peerMaximum: nil))
    #expect(pair.outcome.serverError?.description.contains("only speaks TLS 1.2; tictactoe needs TLS 1.3") == true)
  }

  @Test func aClientWithoutCertificateIsRefused() throws {
    let pair = try Pair(clientIdentity: nil)
    #expect(pair.outcome.serverError == .certificateRequired)
    // TLS 1.3: the client's handshake call succeeded; the refusal arrives on its first read.
    #expect(pair.outcome.clientDone)
    #expect(throws: TLSError.certificateRefusedByPeer(alert: "certificate_required")) {
      try pair.client.readPlaintext()
    }
  }
}

/// Failures seen from the joining (client) side.
@Suite struct TLSClientSideFailureTests {
  @Test func aTLS12OnlyServerIsAVersionProblem() throws {
    let clientContext = try TLSContext(role: .client, identity: Fixtures.alice, options: Fixtures.insecure)
    let serverContext = try TLSContext(
      role: .server, identity: Fixtures.bob, options: Fixtures.insecure, alpn: "tictactoe/1", maximumVersion: 0x0303)
    let client = try TLSConnection(context: clientContext, serverName: "bob")
    let server = try TLSConnection(context: serverContext, serverName: nil)
    let outcome = pumpHandshake(client: client, server: server)
    // The server refuses with a protocol_version alert, which names no version.
    #expect(outcome.clientError == .protocolVersion(peerMaximum: nil))
    #expect(outcome.serverError == .protocolVersion(peerMaximum: "TLS 1.3"))
  }

  @Test func connectionCutDuringTheHandshakeIsAnUnexpectedEOF() throws {
    let context = try TLSContext(role: .client, identity: Fixtures.alice, options: Fixtures.insecure)
    let client = try TLSConnection(context: context, serverName: "bob")
    #expect(try client.handshake() == false)
    #expect(!client.takeCiphertext().isEmpty)
    client.feedEndOfStream()
    #expect(throws: TLSError.unexpectedEOF) { try client.handshake() }
  }

  @Test func aServerAnsweringInPlainTextIsNotTLS() throws {
    let context = try TLSContext(role: .client, identity: Fixtures.alice, options: Fixtures.insecure)
    let client = try TLSConnection(context: context, serverName: "bob")
    _ = try client.handshake()
    client.feed(ciphertext: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))
    #expect(throws: TLSError.notTLS) { try client.handshake() }
  }

  @Test func writingBeforeTheHandshakeIsRefused() throws {
    let context = try TLSContext(role: .client, identity: Fixtures.alice, options: Fixtures.insecure)
    let client = try TLSConnection(context: context, serverName: "bob")
    #expect(throws: TLSError.self) { try client.writePlaintext([1]) }
  }
}

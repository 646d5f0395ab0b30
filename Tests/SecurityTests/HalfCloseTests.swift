import NetworkFacts
import Testing

@testable import Security

/// TLS 1.3 closes each direction on its own: after the peer's close_notify this side can still say a last word.
@Suite struct HalfCloseTests {
  @Test func aLastWordStillReachesAPeerThatClosedItsSide() throws {
    let pair = try Pair()
    try pair.client.writePlaintext(Array("half a fra".utf8))
    pair.client.shutdown()
    pair.server.feed(ciphertext: pair.client.takeCiphertext())
    #expect(try pair.server.readPlaintext() == Array("half a fra".utf8))
    #expect(throws: TLSError.closedByPeer) { try pair.server.readPlaintext() }
    try pair.server.writePlaintext(Array("error: you closed mid-frame".utf8))
    pair.server.shutdown()
    pair.client.feed(ciphertext: pair.server.takeCiphertext())
    #expect(try pair.client.readPlaintext() == Array("error: you closed mid-frame".utf8))
    #expect(throws: TLSError.closedByPeer) { try pair.client.readPlaintext() }
  }

  @Test func nothingIsWrittenAfterOurOwnCloseNotify() throws {
    let pair = try Pair()
    pair.server.shutdown()
    #expect(throws: TLSError.self) { try pair.server.writePlaintext([1]) }
  }

  @Test func nothingIsWrittenAfterTheConnectionFailed() throws {
    let pair = try Pair()
    pair.server.feedEndOfStream()
    #expect(throws: TLSError.unexpectedEOF) { try pair.server.readPlaintext() }
    #expect(throws: TLSError.unexpectedEOF) { try pair.server.writePlaintext([1]) }
  }
}

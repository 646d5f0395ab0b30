import Testing
import WireProtocol

@testable import Transport

/// Frames of unknown types are skipped (later versions may add messages), but a flood of them ends the
/// connection as a malformed frame would, as a heartbeat flood does: the limit runs on the connection's clock.
@Suite struct UnknownFrameTests {
  /// A secured client and server over a socket pair; the server reads on `clock`.
  private func securedPair(clock: @escaping () -> Double) throws -> (client: PeerConnection, server: PeerConnection) {
    let pair = try TLSPair()
    pair.server.clock = clock
    try pair.secure()
    return (pair.client, pair.server)
  }

  /// Sends `count` frames of type 0xEE (unknown to every version), then a chat.
  private func sendUnknown(_ count: Int, from client: PeerConnection) throws {
    for _ in 0..<count { try client.tls.writePlaintext(Frame(type: 0xEE, payload: [1, 2, 3]).bytes) }
    try client.send(.chat("after"))
  }

  @Test func aFewUnknownFramesAreSkipped() throws {
    let (client, server) = try securedPair(clock: { 100 })
    try sendUnknown(UnknownFrameLimit.burst, from: client)
    #expect(try server.readable() == [.message(.chat("after"))])
  }

  @Test func aFloodOfUnknownFramesIsMalformed() throws {
    let (client, server) = try securedPair(clock: { 100 })
    try sendUnknown(UnknownFrameLimit.burst + 1, from: client)
    let arrivals = try server.readable()
    #expect(arrivals == [.malformed(.unknownFlood(count: UnknownFrameLimit.burst, seconds: 1))])
    #expect(
      "\(WireError.unknownFlood(count: 20, seconds: 1))" == "more than 20 frames of unknown types within a second")
  }

  @Test func unknownFramesSpreadOverTimeAreSkipped() throws {
    var now = 100.0
    let (client, server) = try securedPair(clock: { now })
    var chats = 0
    for _ in 0..<10 {
      try sendUnknown(UnknownFrameLimit.burst / 2, from: client)
      chats += try server.readable().filter { $0 == .message(.chat("after")) }.count
      now += UnknownFrameLimit.window / 2
    }
    #expect(chats == 10)
  }

  @Test func theLimitForgetsFramesOlderThanItsWindow() {
    var limit = UnknownFrameLimit()
    var admitted = 0
    for step in 0..<200 where limit.admit(now: Double(step) * 0.01) { admitted += 1 }
    // 2 s at 100 frames a second: 20 in the first second, 20 in the next.
    #expect(admitted == 2 * UnknownFrameLimit.burst)
  }
}

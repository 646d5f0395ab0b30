import Testing
import WireProtocol

@testable import Transport

/// `PeerConnection.send(_:)` with several messages puts them in one TLS record and one write (a bot's answer and
/// a game's record signature cost the kernel one send), and the peer reads each of them, in order.
@Suite struct BatchSendTests {
  @Test func severalMessagesGoInOneRecordAndArriveInOrder() throws {
    let pair = try TLSPair()
    try pair.secure()
    let (client, server) = (pair.client, pair.server)
    // The handshake's last bytes (session tickets) are read off before anything is counted.
    _ = try client.readable()
    let messages: [Message] = [
      .chat("first"), .chat("second"),
      .recordSignature(game: 3, date: "2026-12-03", signature: [UInt8](repeating: 7, count: 71)),
    ]
    let plaintext = messages.map(\.bytes.count).reduce(0, +)
    try client.send(messages)
    // TLS 1.3 adds 22 bytes to a record (a 5-byte header, the content type, a 16-byte tag): one record, not three.
    #expect(TLSPair.waiting(server) == plaintext + 22, "\(TLSPair.waiting(server)) bytes for \(plaintext) of messages")
    let arrivals = try server.readable()
    #expect(arrivals == messages.map { .message($0) })
    // One message alone is one record too, and nothing at all sends nothing.
    try client.send([])
    #expect(TLSPair.waiting(server) == 0)
    try client.send(.chat("third"))
    #expect(TLSPair.waiting(server) == Message.chat("third").bytes.count + 22)
    #expect(try server.readable() == [.message(.chat("third"))])
  }

  /// In a `WriteBatch`, what a connection sends waits for the batch's flush: nothing is written before it (and the
  /// connection does not ask to be watched for writing meanwhile), each send joins the same write, and the flush
  /// writes every connection of the batch, passing over one closed since.
  @Test func inABatchSendsWaitForTheFlushAndGoOutTogether() throws {
    let (first, second, third) = (try TLSPair(), try TLSPair(), try TLSPair())
    for pair in [first, second, third] {
      try pair.secure()
      _ = try pair.client.readable()
    }
    let batch = WriteBatch()
    for pair in [first, second, third] { pair.server.batch = batch }
    try first.server.send(.chat("one"))
    try first.server.send(.chat("two"))
    try second.server.send(.chat("three"))
    try third.server.send(.chat("four"))
    #expect(TLSPair.waiting(first.client) == 0 && TLSPair.waiting(second.client) == 0)
    #expect(!first.server.wantsWrite && first.server.queuedBytes > 0)
    #expect(first.server.backlogBytes == 0, "bytes waiting for the flush are no peer's backlog")
    #expect(batch.count == 3, "a connection with sends waiting is in the batch once")
    third.server.close(gracefully: false)
    let open = batch.flush()
    #expect(open.map(\.fd) == [first.server.fd, second.server.fd])
    #expect(batch.count == 0 && first.server.queuedBytes == 0)
    #expect(try first.client.readable() == [.message(.chat("one")), .message(.chat("two"))])
    #expect(try second.client.readable() == [.message(.chat("three"))])
    // Flushed, it is in the batch again at its next send.
    try second.server.send(.chat("five"))
    #expect(batch.count == 1 && TLSPair.waiting(second.client) == 0)
    _ = batch.flush()
    #expect(try second.client.readable() == [.message(.chat("five"))])
  }
}

import Glibc
import PeerTrust
import Security
import Testing
import WireProtocol

@testable import Transport

/// `PeerConnection.send(_:)` with several messages puts them in one TLS record and one write (a bot's answer and
/// a game's record signature cost the kernel one send), and the peer reads each of them, in order.
@Suite struct BatchSendTests {
  /// A secured client and server over a socket pair, and the server's descriptor.
  private func securedPair() throws -> (client: PeerConnection, server: PeerConnection, serverFD: Int32) {
    var fds: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    let insecure = TrustOptions(policy: .insecure)
    let client = try PeerConnection(
      fd: fds[0],
      context: try TLSContext(role: .client, identity: try Identity.generate(commonName: "c"), options: insecure),
      peerAddress: "client")
    let server = try PeerConnection(
      fd: fds[1],
      context: try TLSContext(role: .server, identity: try Identity.generate(commonName: "s"), options: insecure),
      peerAddress: "server")
    var secured = 0
    for _ in 0..<20 where secured < 2 {
      _ = client.flush()
      secured += try server.readable().filter { $0.securedFacts != nil }.count
      _ = server.flush()
      secured += try client.readable().filter { $0.securedFacts != nil }.count
    }
    #expect(secured == 2)
    // The handshake's last bytes (session tickets) are read off before anything is counted.
    _ = try client.readable()
    return (client, server, fds[1])
  }

  private func waiting(_ fd: Int32) -> Int {
    var count: Int32 = 0
    _ = ioctl(fd, UInt(FIONREAD), &count)
    return Int(count)
  }

  @Test func severalMessagesGoInOneRecordAndArriveInOrder() throws {
    let (client, server, serverFD) = try securedPair()
    let messages: [Message] = [
      .chat("first"), .chat("second"),
      .recordSignature(game: 3, date: "2026-12-03", signature: [UInt8](repeating: 7, count: 71)),
    ]
    let plaintext = messages.map(\.bytes.count).reduce(0, +)
    try client.send(messages)
    // TLS 1.3 adds 22 bytes to a record (a 5-byte header, the content type, a 16-byte tag): one record, not three.
    #expect(waiting(serverFD) == plaintext + 22, "\(waiting(serverFD)) bytes for \(plaintext) of messages")
    let arrivals = try server.readable()
    #expect(arrivals == messages.map { .message($0) })
    // One message alone is one record too, and nothing at all sends nothing.
    try client.send([])
    #expect(waiting(serverFD) == 0)
    try client.send(.chat("third"))
    #expect(waiting(serverFD) == Message.chat("third").bytes.count + 22)
    #expect(try server.readable() == [.message(.chat("third"))])
  }
}

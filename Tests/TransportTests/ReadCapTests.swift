import Glibc
import PeerTrust
import Security
import Testing
import WireProtocol

@testable import Transport

/// One wakeup reads at most `PeerConnection.readCapPerWakeup` bytes from a connection, so a peer that sends
/// without pause cannot keep the loop to itself: the rest is read on the next turns, none of it lost.
@Suite struct ReadCapTests {
  @Test func aFloodIsReadInTurnsAndNothingIsLost() throws {
    var fds: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    // A bigger kernel buffer than the cap, so one wakeup could take more than the cap if it were let.
    var size: Int32 = 1 << 20
    for fd in fds {
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
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
    // 8000 chats of 40 bytes: about 400 KB of records, more than the socket holds; what does not fit waits in
    // the client's outbox and goes as the server reads.
    let chat = Message.chat(String(repeating: "x", count: 40))
    for _ in 0..<8000 { try client.send(chat) }
    _ = client.flush()
    var waiting: Int32 = 0
    _ = ioctl(fds[1], UInt(FIONREAD), &waiting)
    #expect(waiting > Int32(PeerConnection.readCapPerWakeup * 2), "\(waiting) bytes waiting")
    var turns = 0
    var chats = 0
    while chats < 8000 && turns < 200 {
      _ = client.flush()
      var before: Int32 = 0
      _ = ioctl(fds[1], UInt(FIONREAD), &before)
      chats += try server.readable().filter { $0 == .message(chat) }.count
      var after: Int32 = 0
      _ = ioctl(fds[1], UInt(FIONREAD), &after)
      #expect(Int(before - after) <= PeerConnection.readCapPerWakeup, "one wakeup read \(before - after) bytes")
      turns += 1
    }
    #expect(chats == 8000, "every chat arrived, in \(turns) turns")
    #expect(turns >= 4)
  }
}

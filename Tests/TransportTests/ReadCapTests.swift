import Testing
import WireProtocol

@testable import Transport

/// One wakeup reads at most `PeerConnection.readCapPerWakeup` bytes from a connection, so a peer that sends
/// without pause cannot keep the loop to itself: the rest is read on the next turns, none of it lost.
@Suite struct ReadCapTests {
  @Test func aFloodIsReadInTurnsAndNothingIsLost() throws {
    // A bigger kernel buffer than the cap, so one wakeup could take more than the cap if it were let.
    let pair = try TLSPair(buffer: 1 << 20)
    try pair.secure()
    let (client, server) = (pair.client, pair.server)
    // 8000 chats of 40 bytes: about 400 KB of records, more than the socket holds; what does not fit waits in
    // the client's outbox and goes as the server reads.
    let chat = Message.chat(String(repeating: "x", count: 40))
    for _ in 0..<8000 { try client.send(chat) }
    _ = client.flush()
    let waiting = TLSPair.waiting(server)
    #expect(waiting > PeerConnection.readCapPerWakeup * 2, "\(waiting) bytes waiting")
    var turns = 0
    var chats = 0
    while chats < 8000 && turns < 200 {
      _ = client.flush()
      let before = TLSPair.waiting(server)
      chats += try server.readable().filter { $0 == .message(chat) }.count
      let after = TLSPair.waiting(server)
      #expect(before - after <= PeerConnection.readCapPerWakeup, "one wakeup read \(before - after) bytes")
      turns += 1
    }
    #expect(chats == 8000, "every chat arrived, in \(turns) turns")
    #expect(turns >= 4)
  }
}

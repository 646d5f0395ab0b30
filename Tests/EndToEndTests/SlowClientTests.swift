import Foundation
import PeerTrust
import Security
import Testing

/// Before TLS: connections that never finish the handshake. The host drops each one when the handshake timeout
/// (10 s) runs out, says so in its log, and a real game on the same host goes on meanwhile.
@Suite struct SlowClientTests {
  @Test func silentAndTricklingConnectionsAreDroppedAfterTheHandshakeTimeoutWhileAGameGoesOn() throws {
    let (aliceHome, bobHome) = (try Binary.sandbox(), try Binary.sandbox())
    defer {
      for root in [aliceHome.root, bobHome.root] { try? FileManager.default.removeItem(atPath: root) }
    }
    var alice = aliceHome.environment
    alice["USER"] = "alice"
    let logPath = (alice["XDG_STATE_HOME"] ?? "") + "/tictactoe/tictactoe.log"
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new"], environment: alice)
    let port = UInt16(try #require(host.announcedPort()))

    // One opens the connection and says nothing; the other sends a genuine TLS ClientHello a byte a second,
    // so the host sees a handshake that is always about to arrive. (How long the host takes to drop such a
    // connection is the benchmark's "Silent connection dropped" row; here the drop is waited for, bounded.)
    let clientHello = try firstFlight()
    let opened = monotonicNow()
    let silent = try TestSocket.connect(port: port)
    let trickling = try TestSocket.connect(port: port)
    #expect(trickling.write([clientHello[0]]))

    var bob = bobHome.environment
    bob["USER"] = "bob"
    let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")

    // While the game is on, the trickle goes on, a byte a second, until the host ends both connections.
    let sockets = ["silent": silent, "trickling": trickling]
    var sent = 1
    var nextByte = opened + 1
    var ended: Set<String> = []
    while ended.count < 2 && monotonicNow() - opened < 25 {
      let open = sockets.filter { !ended.contains($0.key) }
      var fds = open.values.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
      _ = poll(&fds, nfds_t(fds.count), Int32(max(0, (nextByte - monotonicNow()) * 1000)))
      for (name, socket) in open where fds.contains(where: { $0.fd == socket.fd && $0.revents != 0 }) {
        _ = socket.read(count: 1, timeout: 0.05)
        if socket.lastEnd != nil { ended.insert(name) }
      }
      if monotonicNow() >= nextByte && !ended.contains("trickling") && sent < clientHello.count {
        _ = trickling.write([clientHello[sent]])
        sent += 1
        nextByte += 1
      }
    }
    #expect(ended.count == 2, "the host kept a connection open for 25 s; ended: \(ended)")
    // The trickle did not finish the handshake: the host ended it for taking too long, not for a bad hello.
    #expect(sent < clientHello.count, "the whole ClientHello went out before the timeout")

    let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    for socket in [silent, trickling] {
      let line = "127.0.0.1:\(socket.localPort): The secure connection was not set up within 10 s"
      #expect(log.contains(line), "the log does not say \"\(line)\":\n\(log)")
    }
    // The game went on through all this, and ends normally.
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: X wins") && joiner.output.contains("result: X wins"), "\(host.output)")
    #expect(!host.errors.contains("vanished") && !joiner.errors.contains("vanished"))
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(host.exitStatus() == 30)
  }

  /// The first bytes a tictactoe client sends: its TLS ClientHello.
  private func firstFlight() throws -> [UInt8] {
    let identity = try Identity.generate(commonName: "slow")
    let context = try TLSContext(role: .client, identity: identity, options: TrustOptions(policy: .insecure))
    let connection = try TLSConnection(context: context, serverName: nil)
    _ = try connection.handshake()
    return connection.takeCiphertext()
  }
}

extension TestSocket {
  /// The local port of this connection (how the host's log names it).
  var localPort: UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}

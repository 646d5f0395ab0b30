import Foundation
import Testing

/// What real networks and careless peers do to a match: a killed peer, a connection that stops carrying
/// anything (a black hole), and a flood of connections that never speak.
@Suite(.serialized) struct NetworkFaultTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  private func host(_ environment: [String: String]) throws -> (Player, Int) {
    let player = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: environment)
    return (player, try #require(player.announcedPort()))
  }

  @Test func aBlackHoledConnectionIsNoticedOnBothSides() throws {
    let (host, port) = try host(try home("alice"))
    let proxy = try FaultProxy.start(target: UInt16(port))
    defer { proxy.stop() }
    let joiner = try Player(
      ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"))
    proxy.stall()  // a black hole: nothing closes, nothing arrives
    // Both notice by the 10 s silence limit (how soon: the benchmark's "Frozen peer noticed" row, the same
    // silence); the bounds only keep a missing notice from hanging the test.
    #expect(joiner.waitFor("The connection dropped. Reconnecting", timeout: 30))
    #expect(host.waitFor("The connection dropped. The game is kept", timeout: 30))
    // When the network works again, the joiner's next attempt resumes the game.
    proxy.resume()
    #expect(joiner.waitFor("Reconnected: game 1 goes on at move 1.", timeout: 40), "\(joiner.output)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 1."), "\(host.output)")
  }

  /// More silent connections than the host keeps pending (256): the rest wait in the kernel's queue, ahead
  /// of the real joiner, and the host makes room by dropping the oldest silent ones.
  @Test func silentConnectionsPastThePendingCapDoNotStopAGame() throws {
    let alice = try home("alice")
    let (host, port) = try host(alice)
    var junk: [Int32] = []
    defer {
      for fd in junk { close(fd) }
    }
    for _ in 0..<300 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Loopback.address(port: UInt16(port))
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      #expect(connected == 0)
      junk.append(fd)
    }
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.waitFor("game 1:", timeout: 20), "\(joiner.output)\(joiner.errors)")
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "))
    let log = try String(contentsOfFile: alice["XDG_STATE_HOME"]! + "/tictactoe/tictactoe.log", encoding: .utf8)
    #expect(log.contains("connections are already setting up TLS"), "the cap on pending handshakes was not hit")
    joiner.send("quit")
    #expect(host.exitStatus() == 30)
  }
}

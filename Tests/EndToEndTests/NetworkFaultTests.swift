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

  @Test func aKilledHostIsNoticedAtOnce() throws {
    let (host, port) = try host(try home("alice"))
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.waitFor("game 1:"))
    host.signal(SIGKILL)
    let started = Date()
    #expect(joiner.exitStatus(timeout: 15) == 31)
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(joiner.errors.contains("closed without a goodbye"), "\(joiner.errors)")
  }

  @Test func aBlackHoledConnectionIsNoticedOnBothSides() throws {
    let (host, port) = try host(try home("alice"))
    let proxy = try FaultProxy.start(target: UInt16(port))
    defer { proxy.stop() }
    let joiner = try Player(
      ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"))
    proxy.stall()  // a black hole: nothing closes, nothing arrives
    let started = Date()
    #expect(joiner.exitStatus(timeout: 20) == 31)
    #expect(host.exitStatus(timeout: 20) == 31)
    #expect(Date().timeIntervalSince(started) < 15, "took \(Date().timeIntervalSince(started)) s")
    #expect(joiner.errors.contains("Your opponent vanished"), "\(joiner.errors)")
  }

  @Test func aHundredSilentConnectionsDoNotStopAGame() throws {
    let alice = try home("alice")
    let (host, port) = try host(alice)
    var junk: [Int32] = []
    defer {
      for fd in junk { close(fd) }
    }
    for _ in 0..<100 {
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

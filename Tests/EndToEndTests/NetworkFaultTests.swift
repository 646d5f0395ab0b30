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
    let proxy = try StallingProxy(target: UInt16(port))
    let joiner = try Player(
      ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"))
    proxy.stall()
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

/// A TCP proxy on 127.0.0.1 for one connection that can be told to stop forwarding (a black hole: nothing is
/// closed, nothing arrives).
final class StallingProxy: @unchecked Sendable {
  let port: UInt16
  private let target: UInt16
  private let lock = NSLock()
  private var stalled = false

  init(target: UInt16) throws {
    self.target = target
    let (listener, port) = Loopback.listen(backlog: 1)
    self.port = port
    Thread.detachNewThread { [self] in
      let client = accept(listener, nil, nil)
      close(listener)
      let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var destination = Loopback.address(port: self.target)
      _ = withUnsafePointer(to: &destination) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      Thread.detachNewThread { [self] in pump(from: upstream, to: client) }
      pump(from: client, to: upstream)
    }
  }

  /// Copies bytes until either side closes; while stalled, reads and drops them.
  private func pump(from source: Int32, to destination: Int32) {
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = read(source, &buffer, buffer.count)
      if count <= 0 { break }
      if isStalled { continue }
      _ = buffer.withUnsafeBytes { send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
    }
    // A black hole carries no goodbye either: once stalled, an end on one side is not passed on.
    if !isStalled { shutdown(destination, Int32(SHUT_WR)) }
  }

  private var isStalled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stalled
  }

  func stall() {
    lock.lock()
    stalled = true
    lock.unlock()
  }
}

import Foundation
import Glibc
import Testing
import WireProtocol

/// PROTOCOL.md rule 26 with the real binaries over loopback: a spectator that stops reading is dropped as soon as
/// what the host has queued for it passes 64 KiB, with a line in the host's log, and nobody else waits for it. The
/// traffic that fills its outbox is rule 25's: every chat of a spectator is passed on to every other spectator, so
/// a crowd of honest, chatty spectators (each within its 5 chats in 10 s) floods the one that never reads. The
/// players, a real `tictactoe watch` and the chatty spectators then carry on to the game's result.
@Suite(.serialized) struct SlowSpectatorEndToEndTests {
  /// Honest spectators that chat. Each chat passed on is one TLS record of about 540 bytes; the slow spectator's
  /// socket (a 1 KiB receive buffer, a 256-byte segment size, so the host's kernel keeps only some 25 KB for it)
  /// then needs about 170 of them before the host's own queue passes 64 KiB: 48 × 5 = 240 in the first burst.
  static let chattyCount = 48
  static let filler = String(repeating: "look at that move! ", count: 25)

  static func home(_ name: String) throws -> [String: String] {
    var environment = try NetworkTests.Home(name).environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    return environment
  }

  /// A receive window as small as Linux allows, so that the host's kernel holds little for this socket and the
  /// rest waits in the host's own outbox.
  static func smallWindow(_ fd: Int32) {
    var receiveBuffer: Int32 = 1024
    var segment: Int32 = 256
    let size = socklen_t(MemoryLayout<Int32>.size)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, size)
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &segment, size)
  }

  static func localPort(_ fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A spectator of the host's game (field 17: 0), let in once its snapshot came.
  static func spectator(port: UInt16, name: String, beforeConnect: (Int32) -> Void = { _ in }) throws
    -> HostileClient
  {
    let client = try HostileClient(port: port, name: name, beforeConnect: beforeConnect)
    try client.send(.hello(versions: ProtocolVersion.supported, name: name, software: "e2e", watch: 0))
    let snapshot = client.next {
      if case .watchSnapshot = $0 { return true }
      return false
    }
    #expect(snapshot != nil, "\(name) was not let in: \(client.received)")
    return client
  }

  /// The honest spectators, which read all they are sent and chat, and the slow one, which reads nothing: each says
  /// something every 2 s, so none is dropped for silence (rule 26's 10 s).
  final class Crowd {
    let slow: HostileClient
    private(set) var chatty: [HostileClient] = []
    private var lastBeat = monotonicNow()

    init(slow: HostileClient) { self.slow = slow }

    func add(_ client: HostileClient) {
      chatty.append(client)
      keepAlive()
    }

    /// The honest ones read what came; every one says a heartbeat when 2 s have passed.
    func keepAlive() {
      for client in chatty { while client.next(timeout: 0) != nil {} }
      guard monotonicNow() - lastBeat > 2 else { return }
      lastBeat = monotonicNow()
      for client in chatty + [slow] { try? client.send(.heartbeat) }
    }

    /// Each honest spectator says 5 lines (rule 25's most in 10 s), each passed on to every other spectator.
    func chat() throws {
      for (number, client) in chatty.enumerated() {
        for line in 0..<5 { try client.send(.chat("fan\(number) line \(line): \(SlowSpectatorEndToEndTests.filler)")) }
      }
    }

    /// The last count of spectators an honest one was told.
    var lastCount: UInt16? {
      chatty.first?.received.compactMap { message -> UInt16? in
        if case .watchers(let count) = message { return count }
        return nil
      }.last
    }

    /// How many honest spectators have seen a game end.
    var sawTheEnd: Int {
      chatty.filter { client in
        client.received.contains {
          if case .watchEnd = $0 { return true }
          return false
        }
      }.count
    }
  }

  @Test func aSpectatorThatStopsReadingIsDroppedAndTheGameGoesOn() throws {
    let alice = try Self.home("alice")
    let logPath = (alice["XDG_STATE_HOME"] ?? "") + "/tictactoe/tictactoe.log"
    let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--name", "alice", "--accept-new"],
      environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "bob", "--accept-new"],
      environment: try Self.home("bob"))
    var players = [host, joiner]
    defer {
      for player in players where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\n\(host.output)")

    // The slow spectator: let in, then it never reads again.
    var slowSocket: Int32 = -1
    let crowd = Crowd(
      slow: try Self.spectator(port: UInt16(port), name: "slowpoke") {
        Self.smallWindow($0)
        slowSocket = $0
      })
    let dropped = "spectator at 127.0.0.1:\(Self.localPort(slowSocket)) dropped: "
    let watcher = try Player(
      ["watch", "127.0.0.1:\(port)", "--accept-new", "--name", "carol", "--ui", "plain"],
      environment: try Self.home("carol"))
    players.append(watcher)
    #expect(watcher.waitFor("watching game 1: "), "\(watcher.output)\(watcher.errors)")
    for number in 0..<Self.chattyCount { crowd.add(try Self.spectator(port: UInt16(port), name: "fan\(number)")) }
    #expect(host.waitFor("spectators watching: \(Self.chattyCount + 2)\n"), "\(host.output)")

    // The honest ones chat, again every 10 s, until the host drops the slow one.
    let start = monotonicNow()
    var lastBurst = -100.0
    while !log().contains(dropped) && monotonicNow() - start < 45 {
      if monotonicNow() - lastBurst > 10.5 {
        lastBurst = monotonicNow()
        try crowd.chat()
      }
      crowd.keepAlive()
      usleep(10_000)
    }
    let line = log().split(separator: "\n").first { $0.contains(dropped) }.map(String.init) ?? ""
    #expect(line.hasSuffix(" bytes behind (at most 65536)"), "no drop for falling behind in the host's log:\n\(log())")
    let behind = Int(line.components(separatedBy: dropped).last?.prefix { $0.isNumber } ?? "") ?? 0
    #expect(behind > 65_536, "\(line)")
    // The host closed it: reading again, the slow spectator comes to the end of its connection.
    #expect(crowd.slow.waitForEnd(timeout: 10) != .stillOpen)
    // The others were told that one fewer watches.
    crowd.keepAlive()
    #expect(crowd.lastCount == UInt16(Self.chattyCount + 1))

    // The game goes on to its result, for the players and for every spectator still there.
    Player.playOut(host, joiner) { _ in crowd.keepAlive() }
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)")
    #expect(watcher.waitFor("score: alice "), "\(watcher.output)")
    let deadline = monotonicNow() + 10
    while crowd.sawTheEnd < Self.chattyCount && monotonicNow() < deadline {
      crowd.keepAlive()
      usleep(10_000)
    }
    #expect(crowd.sawTheEnd == Self.chattyCount, "only \(crowd.sawTheEnd) honest spectators saw the game end")
    // Only the slow one was dropped.
    let drops = log().split(separator: "\n").filter { $0.contains(" dropped: ") }
    #expect(drops.count == 1, "\(drops)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0, "\(joiner.errors)")
  }
}

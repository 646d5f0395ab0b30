import Foundation
import Glibc
import Testing
import WireProtocol

/// The practice bot behind a proxy that sends the PROXY protocol version 2 header (as HAProxy's
/// `send-proxy-v2`), played here by hand from 127.0.0.2, the one address the bot's settings trust for it: the
/// limits and the deny list judge the client the header names, a health check is neither logged nor counted,
/// and a header from any other address is only bytes before TLS, which fails.
@Suite(.serialized) struct BotProxyTests {
  static let proxy: UInt32 = 0x7F00_0002

  /// A version 2 header: PROXY from the IPv4 `client`:`port` to 192.0.2.1:7177, or LOCAL.
  static func header(client: [UInt8]? = nil, port: UInt16 = 40000) -> [UInt8] {
    let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    guard let client else { return signature + [0x20, 0x00, 0x00, 0x00] }
    return signature + [0x21, 0x11, 0x00, 0x0C] + client + [192, 0, 2, 1, UInt8(port >> 8), UInt8(port & 0xFF)]
      + [0x1C, 0x09]
  }

  private func logText(_ root: String) -> String {
    (try? String(contentsOfFile: root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
  }

  private func logged(_ root: String, _ parts: String...) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    repeat {
      let lines = logText(root).split(separator: "\n")
      if lines.contains(where: { line in parts.allSatisfy { line.contains($0) } }) { return true }
      usleep(50_000)
    } while Date() < deadline
    return false
  }

  /// A client through the "proxy" for `client`, in its first game.
  private func playing(port: Int, as client: [UInt8], name: String) throws -> HostileClient {
    let joiner = try HostileClient(
      port: UInt16(port), name: name, source: Self.proxy, prelude: Self.header(client: client))
    try JoinerCrowd.begin(joiner, name: name)
    return joiner
  }

  @Test func theLimitsAndTheDenyListJudgeTheClientTheProxyNames() throws {
    var (root, environment) = try Binary.sandbox()
    environment["USER"] = "botrunner"
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    try FileManager.default.createDirectory(atPath: root + "/config/tictactoe", withIntermediateDirectories: true)
    try "proxy_from = 127.0.0.2\ndeny = 203.0.113.0/24\nconnections_per_address = 1\n".write(
      toFile: root + "/config/tictactoe/settings.conf", atomically: true, encoding: .utf8)
    let bot = try Player(
      ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: environment)
    defer { bot.signal(SIGKILL) }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")

    // HAProxy's health checks: a LOCAL header then a close, and a bare TCP connect and close.
    for prelude in [Self.header(), []] {
      let check = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = Self.proxy.bigEndian
      var address = Loopback.address(port: UInt16(port))
      let ready =
        withUnsafePointer(to: &local) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(check, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        } == 0
        && withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(check, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        } == 0
      #expect(ready)
      if !prelude.isEmpty { _ = send(check, prelude, prelude.count, Int32(MSG_NOSIGNAL)) }
      close(check)
    }

    // A client the header names plays, and its game is logged under its own address.
    let first = try playing(port: port, as: [198, 51, 100, 7], name: "ann")
    try first.send(.resign)
    #expect(logged(root, "bot game: peer=\"ann\"", "address=198.51.100.7:40000"), "\(logText(root))")
    // The limit of one connection at once counts 198.51.100.7, not the proxy: a second is refused, another
    // client is not.
    #expect(throws: (any Error).self) {
      try HostileClient(
        port: UInt16(port), name: "bea", timeout: 3, source: Self.proxy,
        prelude: Self.header(client: [198, 51, 100, 7]))
    }
    #expect(logged(root, "refused a connection from 198.51.100.7:40000", "more than 1 connections at once"))
    _ = try playing(port: port, as: [198, 51, 100, 8], name: "cid")
    // The deny list judges the client named.
    #expect(throws: (any Error).self) {
      try HostileClient(
        port: UInt16(port), name: "dan", timeout: 3, source: Self.proxy, prelude: Self.header(client: [203, 0, 113, 9]))
    }
    #expect(logged(root, "refused a connection from 203.0.113.9:40000", "deny list"))
    // From the proxy's address without a header, or with version 1: refused.
    #expect(throws: (any Error).self) {
      try HostileClient(port: UInt16(port), name: "eve", timeout: 3, source: Self.proxy)
    }
    #expect(logged(root, "127.0.0.2:", "no PROXY protocol header from an address trusted to send one"))
    #expect(throws: (any Error).self) {
      try HostileClient(
        port: UInt16(port), name: "fay", timeout: 3, source: Self.proxy,
        prelude: Array("PROXY TCP4 198.51.100.9 192.0.2.1 40000 7177\r\n".utf8))
    }
    #expect(logged(root, "127.0.0.2:", "version 1 header"))
    // From an address not trusted for it, a header is bytes before TLS: the handshake fails.
    #expect(throws: (any Error).self) {
      try HostileClient(
        port: UInt16(port), name: "gus", timeout: 3, source: 0x7F00_0003,
        prelude: Self.header(client: [198, 51, 100, 10]))
    }
    // The health checks were neither logged nor counted as players.
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0)
    let text = logText(root)
    #expect(
      text.split(separator: "\n").filter { $0.contains("127.0.0.2:") }.count == 2,
      "only the two refusals above name the proxy: \(text)")
    #expect(!text.contains("198.51.100.10"), "a header from an untrusted address was believed: \(text)")
    #expect(bot.output.contains("2 players let in"), "\(bot.output)")
  }
}

import Foundation
import Glibc
import Security
import Testing
import WireProtocol

/// The bot caps the connections still setting up TLS or not past hello ("pending", `PendingHandshakes.bot`: 256,
/// the oldest dropped once it has waited past the patience, 3 s). A joiner that said hello is in its game and no
/// longer pending, however many there are: 260 joiners in games, a 261st after the patience, and nobody is
/// dropped. (The bot notes a hello once, not on every move: without the note, the 257th joiner waited and the
/// first was dropped as the oldest pending.)
@Suite struct BotPendingTests {
  @Test func joinersInTheirGamesAreNotPendingAtTheDoor() throws {
    var (root, environment) = try Binary.sandbox()
    environment["USER"] = "botrunner"
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      ["host", "--bot", "perfect", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: environment)
    defer {
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    let identity = try Identity.generate(commonName: "crowd")
    let inGame = { (client: HostileClient) -> Bool in
      try client.send(.hello(versions: ProtocolVersion.supported.sorted(), name: "crowd", software: "test"))
      return client.next(where: { if case .coinCommit = $0 { true } else { false } }) != nil
    }
    // Past the cap of 256, all from 127.0.0.1 (the limits' exemption: no per-address cap).
    var clients: [HostileClient] = []
    for number in 1...260 {
      let client = try HostileClient(port: UInt16(port), identity: identity, timeout: 5)
      #expect(try inGame(client), "joiner \(number) got no game: \(client.received.map(\.name))")
      clients.append(client)
      // The first one keeps within the silence limit (10 s) however slowly the others get in.
      if number % 20 == 0 { try clients[0].send(.heartbeat) }
    }
    // Past the patience: a pending connection this old would be the one dropped to let the next in.
    usleep(3_500_000)
    try clients[0].send(.heartbeat)
    let started = Date()
    let late = try HostileClient(port: UInt16(port), identity: identity, timeout: 5)
    #expect(try inGame(late))
    #expect(Date().timeIntervalSince(started) < 2, "the 261st joiner waited at the door")
    // The first joiner is still in its game: the bot answers its share of the coin toss.
    try clients[0].send(.coinShare(bytes: [UInt8](repeating: 7, count: Message.coinBytes)))
    #expect(clients[0].next(where: { if case .coinReveal = $0 { true } else { false } }) != nil)
    let log = (try? String(contentsOfFile: root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    #expect(!log.contains("dropping the oldest"), "\(log.split(separator: "\n").suffix(3))")
  }
}

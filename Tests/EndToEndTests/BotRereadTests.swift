import Foundation
import Testing
import WireProtocol

/// `tictactoe host --bot` as a service: SIGHUP reads the deny list and the limits from the settings again while
/// every game goes on, and a settings file that does not load keeps the old values.
@Suite(.serialized) struct BotRereadTests {
  private func logLines(_ root: String) -> [String] {
    let text = (try? String(contentsOfFile: root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Waits (bounded) for a log line containing every one of `parts`.
  private func logged(_ root: String, _ parts: String...) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    repeat {
      if logLines(root).contains(where: { line in parts.allSatisfy { line.contains($0) } }) { return true }
      usleep(50_000)
    } while Date() < deadline
    return false
  }

  /// A client from 127.0.0.`last` that says hello and is in its first game (the coin toss done).
  private func playing(port: Int, from last: UInt32, name: String) throws -> HostileClient {
    let client = try HostileClient(port: UInt16(port), name: name, source: 0x7F00_0000 | last)
    try client.send(.hello(versions: ProtocolVersion.supported.sorted(), name: name, software: "test"))
    _ = try #require(client.next(where: { if case .coinCommit = $0 { true } else { false } }))
    try client.send(.coinShare(bytes: [UInt8](repeating: 5, count: Message.coinBytes)))
    _ = try #require(client.next(where: { if case .coinReveal = $0 { true } else { false } }))
    return client
  }

  /// The client's game goes on: it resigns and offers a rematch, which crosses the bot's own offer of the next
  /// game (or which the bot accepts).
  private func goesOn(_ client: HostileClient) throws -> Bool {
    try client.send(.resign)
    try client.send(.rematchOffer)
    return client.next(where: {
      if case .rematchOffer = $0 { true } else if case .rematchAccept = $0 { true } else { false }
    }) != nil
  }

  /// Answers the plain joiner's prompts with the next cell until `results` results were shown (at most 30 s).
  private func playOn(_ joiner: Player, until results: Int) {
    var (answered, next) = (0, 1)
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline && joiner.count("result: ") < results {
      let prompts = joiner.count("your move (")
      if prompts > answered {
        answered = prompts
        joiner.send("\(next)")
        next = next % 9 + 1
      }
      usleep(10_000)
    }
  }

  @Test func hangUpRereadsTheDenyListAndTheLimitsAndEveryGameGoesOn() throws {
    var (root, environment) = try Binary.sandbox()
    environment["USER"] = "botrunner"
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    try FileManager.default.createDirectory(atPath: root + "/config/tictactoe", withIntermediateDirectories: true)
    let settings = root + "/config/tictactoe/settings.conf"
    try "connections_per_address = 4\n".write(toFile: settings, atomically: true, encoding: .utf8)
    let bot = try Player(
      ["host", "--bot", "perfect", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: environment)
    defer { bot.signal(SIGKILL) }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    var joinerHome = try Binary.sandbox().environment
    joinerHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let pal = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", "pal"], environment: joinerHome)
    #expect(pal.waitFor("game 1:"), "\(pal.output)\(pal.errors)")
    // Two games from 127.0.0.3 (the limit allows 4 at once), one from 127.0.0.4: all in progress.
    let first = try playing(port: port, from: 3, name: "ann")
    let second = try playing(port: port, from: 3, name: "bea")
    let denied = try playing(port: port, from: 4, name: "cid")

    try "deny = 127.0.0.4\nconnections_per_address = 2\n".write(toFile: settings, atomically: true, encoding: .utf8)
    bot.signal(SIGHUP)
    #expect(logged(root, "SIGHUP: settings read again: deny = 127.0.0.4", "connections_per_address = 2"))
    // Every game goes on: the plain joiner's to its end, the others' to a rematch; nobody was told goodbye.
    playOn(pal, until: 1)
    #expect(pal.count("result: ") == 1, "\(pal.output)\(pal.errors)")
    // The bot offers the next game as this one ends; plain mode says so with what to type.
    #expect(pal.waitFor("robo offers a rematch: type rematch to accept, or quit\n"), "\(pal.output)")
    for client in [first, second, denied] { #expect(try goesOn(client), "\(client.received.map(\.name))") }
    #expect(!(pal.output + pal.errors).contains("Your opponent left"), "\(pal.output)\(pal.errors)")
    // The new values judge the next connections: 127.0.0.4 is denied, a third from 127.0.0.3 is over the new
    // limit of 2 (the old 4 let it in), 127.0.0.5 plays.
    #expect(throws: (any Error).self) { try HostileClient(port: UInt16(port), name: "dan", source: 0x7F00_0004) }
    #expect(throws: (any Error).self) { try HostileClient(port: UInt16(port), name: "eve", source: 0x7F00_0003) }
    _ = try playing(port: port, from: 5, name: "fay")
    #expect(logged(root, "refused a connection from 127.0.0.4:", "deny list"))
    #expect(logged(root, "refused a connection from 127.0.0.3:", "more than 2 connections at once"))

    // A settings file that does not load: the old values stay, and the log says why.
    try "connections_per_address = many\n".write(toFile: settings, atomically: true, encoding: .utf8)
    bot.signal(SIGHUP)
    #expect(
      logged(
        root, "SIGHUP: settings not read again, the deny list and limits stay as they were",
        "connections_per_address must be a number"))
    #expect(throws: (any Error).self) { try HostileClient(port: UInt16(port), name: "gus", source: 0x7F00_0004) }
    #expect(try goesOn(first))
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, "\(bot.output)\(bot.errors)")
  }
}

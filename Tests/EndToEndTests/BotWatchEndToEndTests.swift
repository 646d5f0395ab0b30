import Foundation
import Testing

/// Spectators at the practice bot (PROTOCOL.md rule 27), with the real binaries over loopback: a bot playing two
/// joiners; `watch ADDRESS` lists both games by number and leaves; `watch ADDRESS --game N` follows each one from
/// its position on, move by move, and keeps each game's record signed by both; a number the bot has no game of is
/// refused clearly.
@Suite(.serialized) struct BotWatchEndToEndTests {
  static func home(_ name: String) throws -> [String: String] {
    var environment = try NetworkTests.Home(name).environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    return environment
  }

  @Test func aSpectatorListsTheBotsGamesAndWatchesEach() throws {
    let bot = try Player(
      ["host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new"],
      environment: try Self.home("robo"))
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    var players = [bot]
    defer {
      for player in players where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    let joiners = try ["bob", "dave"].map {
      try Player(
        ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", $0], environment: try Self.home($0))
    }
    players += joiners
    for joiner in joiners { #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)") }
    let carol = try Self.home("carol")
    let lister = try Player(
      ["watch", "127.0.0.1:\(port)", "--accept-new", "--name", "carol", "--ui", "plain"], environment: carol)
    players.append(lister)
    #expect(lister.exitStatus() == 0, "\(lister.output)\(lister.errors)")
    #expect(lister.output.contains("robo plays 2 games (3×3, 3 in a row):"), "\(lister.output)")
    #expect(lister.output.contains("watch one: tictactoe watch ADDRESS --game N"), "\(lister.output)")
    // Each game by the number the list gives it.
    for (joiner, name) in zip(joiners, ["bob", "dave"]) {
      let line = try #require(
        lister.output.split(separator: "\n").first { $0.contains("against \(name)") || $0.contains("\(name) (X)") },
        "\(lister.output)")
      let number = try #require(Int(line.split(separator: ":")[0].split(separator: " ").last ?? ""), "\(line)")
      let watcher = try Player(
        ["watch", "127.0.0.1:\(port)", "--game", "\(number)", "--accept-new", "--name", "carol", "--ui", "plain"],
        environment: carol)
      players.append(watcher)
      #expect(watcher.waitFor("watching game 1: "), "\(watcher.output)\(watcher.errors)")
      #expect(watcher.output.contains("\(name)'s key: SHA256:"), "\(watcher.output)")
      #expect(joiner.waitFor("spectators watching: 1\n"), "\(joiner.output)")
      // The joiner plays: the spectator sees its move, then the bot's answer.
      let before = watcher.count(" plays ")
      joiner.playOutAlone()
      #expect(watcher.waitFor("\nscore: robo "), "the result and the score: \(watcher.output)")
      #expect(watcher.count(" plays ") > before + 1, "\(watcher.output)")
      #expect(watcher.output.contains("\(name) (X) plays") || watcher.output.contains("\(name) (O) plays"))
      // The joiner's signature came back to the bot: the spectator is sent the record signed by both (rule 28),
      // and `verify` checks it.
      #expect(watcher.waitFor("The record of game 1, signed by both players, is kept"), "\(watcher.output)")
      let verified = try Binary.run(["verify", "1"], environment: carol)
      #expect(verified.status == 0 && verified.stdout.contains("\nverified"), "\(verified.stdout)\(verified.stderr)")
      joiner.send("quit")
      #expect(watcher.waitFor("the match is over", in: \.errors), "\(watcher.output)\(watcher.errors)")
      #expect(watcher.exitStatus() != nil)
    }
    let wrong = try Player(
      ["watch", "127.0.0.1:\(port)", "--game", "99", "--accept-new", "--name", "carol", "--ui", "plain"],
      environment: carol)
    players.append(wrong)
    #expect(wrong.exitStatus() != 0)
    #expect(wrong.errors.contains("there is no game 99 here now"), "\(wrong.output)\(wrong.errors)")
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, "\(bot.errors)")
  }

  @Test func gameNumbersOutOfRangeAreAUsageError() throws {
    for bad in ["0", "65536", "-1", "x"] {
      let result = try Binary.run(["watch", "127.0.0.1:1", "--game", bad], environment: try Self.home("carol"))
      #expect(result.status == 64, "\(bad): \(result.stderr)")
      #expect(result.stderr.contains("--game"), "\(result.stderr)")
    }
  }
}

import Foundation
import TestSupport
import Testing

/// Swap2 over the network between two real programs (protocol version 4): the host offers it, the joiner reads it
/// in the terms, both sides see each step, the choices are typed (plain mode) or keyed (the full screen at 80×24),
/// and both signed records keep the opening so `verify` fails a record whose opening was changed.
@Suite(.serialized) struct NetSwap2EndToEndTests {
  /// The player asked for the first stone (the first player), and the other.
  private static func firstPlayer(_ host: Player, _ joiner: Player) -> (Player, Player) {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if host.count("stone 1 of 3 (X): ") > 0 { return (host, joiner) }
      if joiner.count("stone 1 of 3 (X): ") > 0 { return (joiner, host) }
      usleep(20_000)
    }
    return (host, joiner)
  }

  @Test func aSwap2GameInPlainModeWithPlaceTwo() throws {
    let alice = try NetworkTests.Home("alice")
    let bob = try NetworkTests.Home("bob")
    let host = try Player(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--size", "15", "--opening",
        "swap2",
      ],
      environment: alice.environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    #expect(host.output.contains("Hosting 15×15, 5 in a row, Swap2 opening, as alice"), "\(host.output)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    defer {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
    }
    #expect(
      joiner.waitFor("alice offers 15×15, 5 in a row with the Swap2 opening, untimed. Swap2 opening: the first"),
      "\(joiner.output)")
    joiner.send("y")
    for player in [host, joiner] { #expect(player.waitFor("game 1: 15×15, 5 in a row; Swap2\n"), "\(player.output)") }
    let (first, second) = Self.firstPlayer(host, joiner)
    for (index, cell) in ["h8", "i9", "h9"].enumerated() {
      #expect(first.waitFor("stone \(index + 1) of 3 ("), "\(first.output)")
      first.send(cell)
      #expect(second.waitFor(" plays \(cell)\n"), "\(second.output)")
    }
    #expect(second.waitFor("Swap2: you choose X (black), O (white) or 2 more stones\n"), "\(second.output)")
    #expect(second.waitFor("black, white, two: "), "\(second.output)")
    #expect(first.waitFor("chooses X (black), O (white) or 2 more stones"), "\(first.output)")
    second.send("two")
    #expect(first.waitFor(" places 2 more stones.\n"), "\(first.output)")
    for cell in ["g7", "j10"] {
      second.send(cell)
      #expect(first.waitFor(" plays \(cell)\n"), "\(first.output)")
    }
    #expect(first.waitFor("black, white: "), "\(first.output)")
    first.send("white")
    #expect(first.waitFor("You play O (white); O moves next.\n"), "\(first.output)")
    #expect(second.waitFor(" takes O (white).\nYou play X (black); O moves next.\n"), "\(second.output)")
    #expect(first.waitFor("your move (O): "), "\(first.output)")
    first.send("a1")
    #expect(second.waitFor(" plays a1\n") && second.waitFor("your move (X): "), "\(second.output)")
    second.send("resign")
    for player in [first, second] { #expect(player.waitFor("result: O wins (X resigned)"), "\(player.output)") }

    // Both sides' records keep the opening under both signatures; a changed opening no longer verifies.
    var text = ""
    let deadline = Date().addingTimeInterval(10)
    while !(text.contains("TTSB[") && text.contains("TTSW[")) && Date() < deadline {
      text = (try? RecordsEndToEndTests.records(bob.environment).first?.text) ?? ""
      usleep(20_000)
    }
    #expect(text.contains("TTO[swap2 place-two white]"), "\(text)")
    let verified = try Binary.run(["verify", "1"], environment: bob.environment)
    #expect(verified.status == 0 && verified.stdout.hasSuffix("verified\n"), "\(verified.stdout)\(verified.stderr)")
    let folder = try TestDirectory.make("swap2-record")
    try text.replacingOccurrences(of: "TTO[swap2 place-two white]", with: "TTO[swap2 place-two black]").write(
      toFile: folder + "/changed.sgf", atomically: true, encoding: .utf8)
    let changed = try Binary.run(["verify", folder + "/changed.sgf"], environment: bob.environment)
    #expect(changed.status == 1 && changed.stdout.components(separatedBy: "BAD SIGNATURE").count == 3)
  }

  @Test func aHostRefusesSwap2WhereItIsNotPlayedOrWithAClock() throws {
    let home = try Binary.sandbox().environment
    let small = try Binary.run(
      ["host", "--port", "0", "--size", "7", "--opening", "swap2", "--ui", "plain"], environment: home)
    #expect(small.status == 64 && small.stderr.contains("the Swap2 opening is not played on 7×7"), "\(small.stderr)")
    let timed = try Binary.run(
      ["host", "--port", "0", "--size", "15", "--opening", "swap2", "--clock", "5+3", "--ui", "plain"],
      environment: home)
    #expect(timed.status == 64 && timed.stderr.contains("without a clock over the network"), "\(timed.stderr)")
  }

  /// The practice bot offers Swap2 and plays its steps: the player reaches settled colours either way the coin
  /// falls.
  @Test func theBotPlaysTheSwap2Opening() throws {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      [
        "host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new", "--opening",
        "swap2", "--size", "15",
      ],
      environment: botHome)
    defer {
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    #expect(bot.output.contains("serving 15×15, 5 in a row, Swap2 opening, as robo"), "\(bot.output)")
    let player = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: try Binary.sandbox().environment)
    defer {
      player.send("quit")
      _ = player.exitStatus()
    }
    #expect(player.waitFor("robo offers 15×15, 5 in a row with the Swap2 opening"), "\(player.output)")
    player.send("y")
    #expect(player.waitFor("game 1: 15×15, 5 in a row; Swap2\n"), "\(player.output)")
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline, player.count("stone 1 of 3 (X): ") == 0, player.count("black, white, two: ") == 0 {
      usleep(20_000)
    }
    if player.count("stone 1 of 3 (X): ") > 0 {
      for cell in ["h8", "i9", "h9"] { player.send(cell) }
    } else {
      player.send("black")
    }
    // The bot may place two more and leave the choice to the player.
    let settled = Date().addingTimeInterval(30)
    while Date() < settled, player.count("You play ") == 0 {
      if player.count("black, white: ") > 0 && player.count("you take O") == 0 { player.send("white") }
      usleep(50_000)
    }
    #expect(player.count("You play ") == 1, "\(player.output)")
  }
}

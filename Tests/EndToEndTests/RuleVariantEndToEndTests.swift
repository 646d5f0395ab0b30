import Foundation
import TestSupport
import Testing

/// A renju game between two real programs in plain mode (protocol version 4): the host offers the rule, the joiner
/// reads it in the terms, X's double three is refused with its reason, and both records keep the rule under both
/// signatures.
@Suite(.serialized) struct RuleVariantEndToEndTests {
  /// The player asked for X's move first, and the other.
  private static func xFirst(_ host: Player, _ joiner: Player) -> (Player, Player) {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if host.count("your move (X): ") > 0 { return (host, joiner) }
      if joiner.count("your move (X): ") > 0 { return (joiner, host) }
      usleep(20_000)
    }
    return (host, joiner)
  }

  @Test func aRenjuGameOverTheNetwork() throws {
    let alice = try NetworkTests.Home("alice")
    let bob = try NetworkTests.Home("bob")
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--rule", "renju"],
      environment: alice.environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    #expect(host.output.contains("Hosting 15×15, 5 in a row, renju as alice"), "\(host.output)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    defer {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
    }
    #expect(
      joiner.waitFor(
        "alice offers 15×15, 5 in a row, renju, untimed. renju: X wins only by exactly five and may not make 3-3,"
          + " 4-4 or 6+. Play on these terms? [y/n]: "), "\(joiner.output)")
    joiner.send("y")
    for player in [host, joiner] {
      #expect(player.waitFor("game 1: 15×15, 5 in a row, renju; you play"), "\(player.output)")
    }
    let (x, o) = Self.xFirst(host, joiner)
    for (index, cell) in ["f8", "a15", "g8", "o15", "h10", "a1", "h9", "o1"].enumerated() {
      let (mover, other) = index.isMultiple(of: 2) ? (x, o) : (o, x)
      mover.send(cell)
      #expect(other.waitFor(" plays \(cell)\n"), "\(other.output)")
    }
    x.send("h8")
    #expect(
      x.waitFor("error: h8 is forbidden to X under renju (double three): it would make two open threes at once"),
      "\(x.output)")
    #expect(!o.output.contains(" plays h8"))
    x.send("resign")
    for player in [x, o] { #expect(player.waitFor("result: "), "\(player.output)") }
    // Each side's record keeps the rule, and both signatures cover it.
    var text = ""
    let deadline = Date().addingTimeInterval(10)
    while !(text.contains("TTSB[") && text.contains("TTSW[")) && Date() < deadline {
      text = (try? RecordsEndToEndTests.records(bob.environment).first?.text) ?? ""
      usleep(20_000)
    }
    #expect(text.contains("RU[Renju]"), "\(text)")
    let verified = try Binary.run(["verify", "1"], environment: bob.environment)
    #expect(verified.status == 0 && verified.stdout.hasSuffix("verified\n"), "\(verified.stdout)\(verified.stderr)")
    let folder = try TestDirectory.make("renju-record")
    try text.replacingOccurrences(of: "RU[Renju]", with: "RU[Standard]").write(
      toFile: folder + "/changed.sgf", atomically: true, encoding: .utf8)
    let changed = try Binary.run(["verify", folder + "/changed.sgf"], environment: bob.environment)
    #expect(changed.status == 1 && changed.stdout.components(separatedBy: "BAD SIGNATURE").count == 3)
  }
}

/// The practice bot offers its rule as a host does: `host --bot LEVEL --rule exact5`.
@Suite(.serialized) struct RuleVariantBotEndToEndTests {
  @Test func theBotOffersItsRuleAndPlaysUnderIt() throws {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      [
        "host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new", "--rule",
        "exact5",
      ],
      environment: botHome)
    defer {
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    #expect(bot.output.contains("serving 15×15, 5 in a row, exact5 as robo"), "\(bot.output)")
    let player = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: try Binary.sandbox().environment)
    defer {
      player.send("quit")
      _ = player.exitStatus()
    }
    #expect(
      player.waitFor(
        "robo offers 15×15, 5 in a row, exact5, untimed. exact five: a line of six or more does not win."
          + " Play on these terms? [y/n]: "), "\(player.output)")
    player.send("y")
    #expect(player.waitFor("game 1: 15×15, 5 in a row, exact5; you play"), "\(player.output)")
  }
}

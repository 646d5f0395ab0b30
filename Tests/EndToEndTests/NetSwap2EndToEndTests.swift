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

  @Test func aHostRefusesSwap2WhereItIsNotPlayed() throws {
    let home = try Binary.sandbox().environment
    let small = try Binary.run(
      ["host", "--port", "0", "--size", "7", "--opening", "swap2", "--ui", "plain"], environment: home)
    #expect(small.status == 64 && small.stderr.contains("the Swap2 opening is not played on 7×7"), "\(small.stderr)")
  }

  /// A timed Swap2 game (rule 14): the first player's clock runs through its three stones, then the second's while
  /// it chooses; both signed records keep each stone's time with the opening, and verify.
  @Test func aTimedSwap2GameRunsTheClockOfTheSideThatActs() throws {
    let alice = try NetworkTests.Home("alice")
    let bob = try NetworkTests.Home("bob")
    let host = try Player(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--size", "15", "--opening",
        "swap2", "--clock", "5+3",
      ],
      environment: alice.environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob.environment)
    defer {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
    }
    #expect(joiner.waitFor("with the Swap2 opening, with a clock: 5 min + 3 s"), "\(joiner.output)")
    joiner.send("y")
    let (first, second) = Self.firstPlayer(host, joiner)
    let secondName = second === host ? "alice" : "bob"
    for (index, cell) in ["h8", "i9", "h9"].enumerated() {
      #expect(first.waitFor("stone \(index + 1) of 3 ("), "\(first.output)")
      first.send(cell)
      #expect(second.waitFor(" plays \(cell)\n"), "\(second.output)")
      // The first player's clock runs until its third stone ends its turn; then the second's.
      let runner = index < 2 ? "yours" : "\(secondName)'s"
      #expect(first.waitFor("(\(runner) is running)\n"), "\(first.output)")
    }
    #expect(second.waitFor("black, white, two: "), "\(second.output)")
    second.send("black")
    #expect(first.waitFor("your move (O): "), "\(first.output)")
    first.send("a1")
    #expect(second.waitFor(" plays a1\n") && second.waitFor("your move (X): "), "\(second.output)")
    second.send("resign")
    for player in [first, second] { #expect(player.waitFor("result: O wins (X resigned)"), "\(player.output)") }
    var text = ""
    let deadline = Date().addingTimeInterval(10)
    while !(text.contains("TTSB[") && text.contains("TTSW[")) && Date() < deadline {
      text = (try? RecordsEndToEndTests.records(bob.environment).first?.text) ?? ""
      usleep(20_000)
    }
    #expect(text.contains("TTO[swap2 black]") && text.contains("TM[300]OT[3 fischer]"), "\(text)")
    // Four stones, each with its time: the first player's turn charged on stone 3, its 3 s increment with it.
    #expect(SignedRecordTests.times(text).count == 4, "\(text)")
    let verified = try Binary.run(["verify", "1"], environment: bob.environment)
    #expect(verified.status == 0 && verified.stdout.hasSuffix("verified\n"), "\(verified.stdout)\(verified.stderr)")
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

/// Swap2 between two full-screen players at 80×24: both screens say each step (who places, how many stones are
/// down, the choice and its keys), `b`/`o`/`p` choose, and the game goes on with the chosen colours.
@Suite(.serialized) struct NetSwap2ScreenEndToEndTests {
  /// The panel beside the 15×15 board (from column 51) as one line, its wrapped status and chat read whole, and
  /// the legend (the last row) after it.
  static func panel(_ screen: String) -> String {
    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let beside = rows.dropLast().map { $0.count > 51 ? String($0.dropFirst(51)) : "" }
    let words = (beside + [rows.last ?? ""]).joined(separator: " ").split(separator: " ")
    return words.joined(separator: " ")
  }

  @Test func aSwap2OpeningOnTwoScreensAtEightyByTwentyFour() throws {
    let (host, port) = try TmuxSession.aliceHosts(" --size 15 --opening swap2")
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let joiner = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob)
    try joiner.waitFor(text: "The host alice is new to you. Trust it?")
    try joiner.send("y")
    try joiner.waitFor(text: "alice offers 15×15, 5 in a row with the Swap2 opening, untimed.")
    try joiner.send("y")
    try host.waitFor(text: "bob wants to join — accept?")
    try host.send("y")
    let hostScreen = try host.waitFor(text: "Game 1. Swap2 opening:")
    let hostIsFirst = Self.panel(hostScreen).contains("you are the first player")
    let (first, second) = hostIsFirst ? (host, joiner) : (joiner, host)
    let secondName = hostIsFirst ? "bob" : "alice"  // the coin decides who is first
    try first.waitFor("the first player's status") { Self.panel($0).contains("Swap2: you place 3 stones") }
    try second.waitFor("the second player's status") {
      Self.panel($0).contains("places 3 stones (X, O, X): 0 of 3 down")
    }
    // h8 (the cursor starts there), i9, h9.
    try first.send("Enter")
    try second.waitFor("one stone down on the other screen") { Self.panel($0).contains("1 of 3 down, O next") }
    try first.send("Up", "Right", "Enter")
    try first.send("Left", "Enter")
    let choosing = try second.waitFor("the choice and its keys") {
      Self.panel($0).contains("b take X · o take O · p place 2 more")
    }
    #expect(Self.panel(choosing).contains("plays h9. Swap2: you choose"), "\(choosing)")
    #expect(!choosing.contains("D draw"), "no draw offer during the opening: \(choosing)")
    try first.waitFor("the first waits for the choice") { Self.panel($0).contains("chooses X (black), O (white)") }
    // The first player's key for a choice does nothing while the second chooses.
    try first.send("b")
    try first.waitFor("refused") { Self.panel($0).contains("Not a choice now.") }
    try first.send("Right", "Left")  // any key clears the notice
    try second.send("p")
    try first.waitFor("the choice said") { Self.panel($0).contains("places 2 more stones.") }
    try second.waitFor("the second places") { Self.panel($0).contains("Swap2: you place 2 stones (O, X): 0 of 2 down") }
    try second.send("Down", "Down", "Left", "Enter")
    try second.send("Up", "Up", "Up", "Right", "Right", "Right", "Enter")
    let firstChooses = try first.waitFor("the first chooses") { Self.panel($0).contains("b take X · o take O") }
    #expect(!firstChooses.contains("p place 2 more"), "\(firstChooses)")
    // The stone the second player placed is said as theirs, though it is X's colour.
    #expect(Self.panel(firstChooses).contains("\(secondName) plays j9. Swap2: you choose"), "\(firstChooses)")
    try first.send("o")
    try first.waitFor("settled: the first plays O and moves") { Self.panel($0).contains("Your turn (O)") }
    try second.waitFor("settled: the second plays X") {
      Self.panel($0).contains("takes O (white).") && Self.panel($0).contains("Waiting for")
    }
    try first.send("Down", "Down", "Down", "Enter")
    try second.waitFor("the game goes on") { Self.panel($0).contains("Your turn (X)") }
    try joiner.send("q")
    try joiner.waitFor(text: "Leave the match?")
    try joiner.send("y")
    try joiner.waitFor(text: "EXIT=")
    withExtendedLifetime(host) {}
  }
}

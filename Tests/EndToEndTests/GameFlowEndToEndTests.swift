import Foundation
import TestSupport
import Testing

/// Version 3's game flow between two real programs in plain mode (issue 24): a host offering a 10-second
/// clock, a draw offer declined, a takeback accepted, a draw by agreement and an abort, in plain mode's words;
/// and the practice bot declining a takeback and a draw. The flag is InMemoryGameFlowTests' (on the table's
/// clock, without waiting ten seconds) and TimedRecordsEndToEndTests' (between two programs, with its records).
@Suite(.serialized) struct GameFlowEndToEndTests {
  /// The player asked for X's move first, and the other.
  private static func moverFirst(_ host: Player, _ joiner: Player, after prompts: (Int, Int)) -> (Player, Player) {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if host.count("your move (X): ") > prompts.0 { return (host, joiner) }
      if joiner.count("your move (X): ") > prompts.1 { return (joiner, host) }
      usleep(20_000)
    }
    return (host, joiner)
  }

  @Test func drawsTakebacksAndAnAbortInATenSecondGame() throws {
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--clock", "10s+0"],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    #expect(host.output.contains("Hosting 3×3, 3 in a row, 10 s a game, as alice"), "\(host.output)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    defer {
      joiner.send("quit")
      host.send("quit")
      _ = joiner.exitStatus()
      _ = host.exitStatus()
    }
    #expect(
      joiner.waitFor("alice offers 3×3, 3 in a row, with a clock: 10 s a game. Play on these terms? [y/n]: "),
      "\(joiner.output)")
    joiner.send("y")
    #expect(joiner.waitFor("game 1: 3×3, 3 in a row; clock 10 s a game; you play"), "\(joiner.output)")
    var (x, o) = Self.moverFirst(host, joiner, after: (0, 0))
    #expect(x.waitFor("clock: you 0:10, "), "\(x.output)")

    // A draw offer declined; then O asks to take back its move, X accepts: the board goes back two plies.
    x.send("5")
    #expect(o.waitFor("your move (O): "))
    o.send("1")
    #expect(x.waitFor(" plays 1 (row 1, column 1)"))
    o.send("draw")
    #expect(x.waitFor("offers a draw: type draw to accept, decline to refuse."), "\(x.output)")
    x.send("decline")
    #expect(o.waitFor("declined your draw offer."), "\(o.output)")
    x.send("9")
    #expect(o.waitFor(" plays 9 (row 3, column 3)"))
    o.send("takeback")
    #expect(o.waitFor("You ask to take back your last move.\nwaiting for "), "\(o.output)")
    #expect(x.waitFor("asks to take back their last move: type takeback to accept"), "\(x.output)")
    x.send("takeback")
    for player in [x, o] {
      #expect(player.waitFor("Taken back: the game goes on from move 2.\n 1 | 2 | 3\n"), "\(player.output)")
    }
    // One offer per own move: O has not moved since its first, so a second is refused; after its move, X offers
    // and O accepts: a draw by agreement, on both screens.
    o.send("draw")
    #expect(o.waitFor("error: you already offered a draw since your last move"), "\(o.output)")
    o.send("3")
    #expect(x.waitFor(" plays 3 (row 1, column 3)"))
    x.send("draw")
    #expect(o.waitFor("offers a draw: type draw to accept"), "\(o.output)")
    o.send("draw")
    for player in [x, o] { #expect(player.waitFor("result: draw by agreement"), "\(player.output)") }

    // Game 2: aborted before both sides moved, counted nowhere.
    let prompts = (host.count("your move (X): "), joiner.count("your move (X): "))
    x.send("rematch")
    o.send("rematch")
    #expect(x.waitFor("game 2:") && o.waitFor("game 2:"))
    (x, o) = Self.moverFirst(host, joiner, after: prompts)
    x.send("abort")
    for player in [x, o] {
      #expect(player.waitFor("result: aborted\nmatch: "), "\(player.output)")
      #expect(player.waitFor("type rematch to play again"))
      #expect(player.count("draws 1\n") == 2 && !player.output.contains("draws 2"), "counted: \(player.output)")
    }
  }

  @Test func thePracticeBotDeclinesATakebackAndADraw() throws {
    var botHome = try Binary.sandbox().environment
    botHome["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      [
        "host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new", "--size", "7",
        "--k", "4", "--clock", "5+3",
      ],
      environment: botHome)
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.errors)")
    #expect(bot.output.contains("serving 7×7, 4 in a row, 5 min + 3 s a move, as robo"), "\(bot.output)")
    let player = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    defer {
      player.send("quit")
      _ = player.exitStatus()
      bot.signal(SIGTERM)
      _ = bot.exitStatus()
    }
    #expect(player.waitFor("Play on these terms? [y/n]: "), "\(player.output)")
    player.send("y")
    #expect(player.waitFor("game 1: 7×7, 4 in a row; clock 5 min + 3 s a move;"), "\(player.output)")
    #expect(player.waitFor("your move ("), "\(player.output)")
    // The coin may have made the bot X, and its first move may take any cell: ours is one it did not take.
    let replies = player.count("robo plays ")
    player.send(player.output.contains("robo plays a1\n") ? "g7" : "a1")
    let deadline = Date().addingTimeInterval(20)
    while player.count("robo plays ") == replies && Date() < deadline { usleep(20_000) }
    #expect(player.count("robo plays ") > replies, "\(player.output)")
    player.send("takeback")
    #expect(player.waitFor("robo declined your takeback request."), "\(player.output)")
    player.send("draw")
    #expect(player.waitFor("robo declined your draw offer."), "\(player.output)")
    player.send("clock")
    #expect(player.waitFor("clock: you "), "\(player.output)")
  }

  @Test func aJoinerWhoDeclinesTheTermsLeavesAndTheHostWaitsForTheNext() throws {
    let host = try Player(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--clock", "move:20s",
        "--keep-hosting",
      ],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    defer {
      host.send("quit")
      _ = host.exitStatus()
    }
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    #expect(joiner.waitFor("with a clock: 20 s a move. Play on these terms? [y/n]: "), "\(joiner.output)")
    joiner.send("n")
    #expect(joiner.exitStatus() == 0)
    #expect(joiner.errors.contains("You declined the host's terms."), "\(joiner.errors)")
    #expect(
      host.waitFor("match over: Your opponent declined your terms. Hosting on"), "\(host.output)")
    #expect(!host.output.contains("game 1:") && !host.output.contains("match: you"), "counted: \(host.output)")
  }
}

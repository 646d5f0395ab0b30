import Foundation
import TestSupport
import Testing

/// `host --bot --engine`: the practice bot serving an outside engine, one process per game. The engine is a
/// small Gomocup brain written here in Python from the protocol text, which plays the first empty cell row by row
/// and turns hostile in the game whose joiner's first stone is in the column that names a fault, so that one bot
/// serves a hostile game and an honest one at the same time.
@Suite(.serialized) struct BotEngineTests {
  static let brain = #"""
    import sys, time
    # Column (x) of the opponent's first stone: 0 crash, 1 hang, 2 occupied cell, 3 garbage; any other plays well.
    size = (0, 0)
    stones = set()
    mode = None
    def out(line):
        sys.stdout.write(line + "\r\n")
        sys.stdout.flush()
    def move():
        if mode == 0:
            sys.stderr.write("brain: dying words\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == 1:
            time.sleep(3600)
        if mode == 2:
            return out("%d,%d" % first)
        if mode == 3:
            return out("\x1b[2Jhello there")
        for y in range(size[1]):
            for x in range(size[0]):
                if (x, y) not in stones:
                    stones.add((x, y))
                    return out("%d,%d" % (x, y))
    for raw in sys.stdin:
        word, _, rest = raw.strip().partition(" ")
        word = word.upper()
        if word == "START":
            size = (int(rest), int(rest))
            out("OK")
        elif word == "INFO" or not word:
            pass
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = (int(v) for v in rest.split(","))
            stones.add((x, y))
            if mode is None:
                mode, first = x, (x, y)
            move()
        elif word == "END":
            break
        else:
            out("UNKNOWN " + word)
    """#

  static let brainPath: String = {
    let path = ((try? TestDirectory.make("botbrain")) ?? TestDirectory.path("botbrain")) + "/botbrain.py"
    try? brain.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }()

  private func bot(_ extra: [String]) throws -> (Player, Int, root: String) {
    var (root, environment) = try Binary.sandbox()
    environment["USER"] = "botrunner"
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let bot = try Player(
      [
        "host", "--bot", "--engine", "python3 '\(Self.brainPath)'", "--size", "9", "--port", "0", "--bind",
        "127.0.0.1", "--name", "robo", "--accept-new",
      ] + extra,
      environment: environment)
    let port = try #require(bot.announcedPort(), "the bot did not start: \(bot.output)\(bot.errors)")
    return (bot, port, root)
  }

  private func join(_ name: String, port: Int) throws -> Player {
    var (_, environment) = try Binary.sandbox()
    environment["USER"] = name
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    return try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--name", name], environment: environment)
  }

  private func log(_ root: String) -> String {
    (try? String(contentsOfFile: root + "/state/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
  }

  /// The processes whose parent is `pid` and that have not exited (zombies not counted).
  private func liveChildren(of pid: pid_t) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> String? in
      guard Int(entry) != nil,
        let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
        status.contains("\nPPid:\t\(pid)\n"), !status.contains("State:\tZ")
      else { return nil }
      return entry
    }
  }

  /// Plays down column `column` (1-based) from row 5 at each "your move" prompt, until a result or `timeout`.
  private func play(_ joiners: [(Player, column: Int)], timeout: Double = 40) {
    var answered = Array(repeating: 0, count: joiners.count)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline, joiners.contains(where: { $0.0.count("result: ") == 0 }) {
      for (index, (joiner, column)) in joiners.enumerated() where joiner.count("result: ") == 0 {
        let prompts = joiner.count("your move (")
        if prompts > answered[index] {
          answered[index] = prompts
          joiner.send("\(4 + prompts),\(column)")
        }
      }
      usleep(20_000)
    }
  }

  @Test(
    "a hostile engine forfeits its game, named to its joiner, while the bot's other game goes on",
    arguments: [
      (0, "the engine stopped (exited with status 3)"),
      (1, "the engine gave no move within 3000 ms"),
      (2, "which is already taken"),
      (3, "which is not an answer of the brain protocol"),
    ])
  func hostileEngineForfeitsOneGame(column: Int, cause: String) throws {
    let (bot, port, root) = try bot(["--engine-cap", "2"])
    #expect(bot.output.contains("Practice bot (engine botbrain.py) serving 9×9, 5 in a row"), "\(bot.output)")
    #expect(bot.output.contains("one process a game, at most 2 at once"), "\(bot.output)")
    let hostile = try join("hostile", port: port)
    let honest = try join("honest", port: port)
    #expect(hostile.waitFor("game 1:") && honest.waitFor("game 1:"), "\(hostile.output)\(honest.output)")
    play([(hostile, column + 1), (honest, 7)])
    // The hostile game: the joiner is told why in the chat, and wins by the bot's resignation.
    #expect(hostile.waitFor("robo's engine botbrain.py forfeits this game: "), "\(hostile.output)")
    #expect(hostile.output.contains(cause), "\(hostile.output)")
    #expect(hostile.output.contains("resigned): you win"), "\(hostile.output)")
    // The honest game was played to a line by either side, nobody resigning.
    #expect(honest.count("result: ") == 1 && honest.output.contains(" wins: "), "\(honest.output)")
    #expect(!honest.output.contains("resigned"), "\(honest.output)")
    #expect(!honest.output.contains("forfeits"), "\(honest.output)")
    // The bot writes a round's log lines after its answers (`BotHost.run`): the joiner may read the forfeit
    // before the line is in the file (seen in CI).
    let wanted = ["forfeits: "] + (column == 0 ? ["engine botbrain.py stderr: brain: dying words"] : [])
    let logged = Date().addingTimeInterval(5)
    var text = log(root)
    while wanted.contains(where: { !text.contains($0) }) && Date() < logged {
      usleep(20_000)
      text = log(root)
    }
    for line in wanted { #expect(text.contains(line), "\(text)") }
    // Both games are over: within the exit grace every engine process has gone (a hanging one killed by pid).
    let deadline = Date().addingTimeInterval(3)
    while Date() < deadline, !liveChildren(of: bot.pid).isEmpty { usleep(50_000) }
    #expect(liveChildren(of: bot.pid).isEmpty, "engine processes left: \(liveChildren(of: bot.pid))")
    for joiner in [hostile, honest] { joiner.send("quit") }
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, "\(bot.errors)")
  }

  @Test("at the engine cap a joiner is refused as busy, and let in once a place is free")
  func capRefusesAsBusy() throws {
    let (bot, port, _) = try bot(["--engine-cap", "1"])
    let first = try join("first", port: port)
    #expect(first.waitFor("game 1:"), "\(first.output)\(first.errors)")
    let second = try join("second", port: port)
    #expect(second.exitStatus() != nil, "\(second.output)")
    #expect(
      second.errors.contains(
        "The host is busy: robo: its engine plays 1 game at once and all are taken; try again in a minute"),
      "\(second.output)\(second.errors)")
    first.send("quit")
    #expect(first.exitStatus() == 0, "\(first.errors)")
    let third = try join("third", port: port)
    #expect(third.waitFor("game 1:"), "\(third.output)\(third.errors)")
    third.send("quit")
    bot.signal(SIGTERM)
    #expect(bot.exitStatus() == 0, "\(bot.errors)")
    #expect(liveChildren(of: bot.pid).isEmpty)
  }
}

import Foundation
import Glibc
import TestSupport
import Testing

/// The practice bot keeps the game of a joiner killed mid-game (kill -9) for the grace period, in memory (PROTOCOL.md
/// rule 19): the same key joining again is offered it, its journal agrees, and the game goes on where it stood;
/// nobody back in time, the bot claims it, lost by the joiner (+F).
@Suite(.serialized) struct BotKeptGameEndToEndTests {
  private struct Bot {
    let player: Player
    let port: Int
    let home: [String: String]

    init(grace: Int) throws {
      var home = try Binary.sandbox().environment
      home["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
      self.home = home
      player = try Player(
        [
          "host", "--bot", "easy", "--port", "0", "--bind", "127.0.0.1", "--name", "robo", "--accept-new", "--grace",
          "\(grace)",
        ], environment: home)
      port = try #require(player.announcedPort(), "the bot did not start: \(player.errors)")
    }

    var log: String {
      (try? String(contentsOfFile: home["XDG_STATE_HOME"]! + "/tictactoe/tictactoe.log", encoding: .utf8)) ?? ""
    }

    /// The bot's records (its day collections) that hold `text`.
    func records(containing text: String) -> [String] {
      let root = home["XDG_DATA_HOME"]! + "/tictactoe"
      let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
      return files.compactMap { try? String(contentsOfFile: root + "/" + $0, encoding: .utf8) }
        .filter { $0.contains(text) }
    }

    func join(_ environment: [String: String]) throws -> Player {
      try Player(
        ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: environment)
    }
  }

  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    return environment
  }

  /// The moves of the game in `player`'s journal.
  private func journalMoves(_ player: Player) -> Int {
    journals(player).values.first.map { $0.components(separatedBy: "\nmove ").count - 1 } ?? 0
  }

  /// `joiner` answers its prompts with cells 1, 2, 3, … (a taken one is refused and asked again) until it is asked
  /// for its move with at least three moves made and its journal holds them; the number of moves.
  private func playToThreeMoves(_ joiner: Player) throws -> Int {
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    var (answered, next) = (0, 1)
    for _ in 0..<20 {
      try #require(waitUntil { joiner.count("your move (") > answered }, "\(joiner.output)")
      answered = joiner.count("your move (")
      // The board printed before the prompt is the game as it stands; the journal is written after it.
      let moves = lastBoard(joiner).filter { $0 == "X" || $0 == "O" }.count
      try #require(waitUntil { self.journalMoves(joiner) == moves }, "\(moves) moves: \(journals(joiner))")
      if moves >= 3 { return moves }
      joiner.send("\(next)")
      next += 1
    }
    throw TestFailure("the game never reached three moves: \(joiner.output)")
  }

  struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  @Test func aJoinerKilledMidGameJoinsAgainAndItsGameGoesOnAgainstTheBot() throws {
    let bot = try Bot(grace: 60)
    let environment = try home("bob")
    let joiner = try bot.join(environment)
    let moves = try playToThreeMoves(joiner)
    let mark = joiner.output.contains("you play X") ? "X" : "O"
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    #expect(waitUntil { bot.log.contains("gone mid-game; game 1 kept 60 s for its key") }, "\(bot.log)")
    #expect(journals(joiner).count == 1)

    let again = try bot.join(environment)
    #expect(again.waitFor("Reconnected: game 1 goes on at move \(moves + 1)."), "\(again.output)\(again.errors)")
    #expect(again.output.contains("you play \(mark)") && !again.output.contains("a new match"), "\(again.output)")
    #expect(bot.log.contains("back for game 1 kept at move \(moves + 1): offered"), "\(bot.log)")
    again.playOutAlone()
    #expect(again.count("result: ") == 1, "\(again.output)")
    // One line for game 1 in the bot's log, played to its end with every move; no game left unfinished.
    #expect(waitUntil { bot.log.contains("bot game: ") }, "\(bot.log)")
    let lines = bot.log.split(separator: "\n").filter { $0.contains("bot game: ") }
    #expect(lines.count == 1 && lines[0].contains("game=1 ") && !lines[0].contains("result=unfinished"), "\(lines)")
    let played = lines.first.flatMap { $0.components(separatedBy: " moves=").last?.split(separator: " ").first }
    #expect(played.flatMap { Int($0) }.map { $0 > moves } == true, "\(lines)")
    #expect(waitUntil { journals(again).isEmpty }, "\(journals(again))")
    again.send("quit")
    _ = again.exitStatus()
    bot.player.signal(SIGTERM)
    #expect(bot.player.exitStatus() == 0)
  }

  @Test func nobodyBackWithinTheGraceTheBotClaimsTheGameLostByTheJoiner() throws {
    let bot = try Bot(grace: 5)
    let joiner = try bot.join(try home("carol"))
    let moves = try playToThreeMoves(joiner)
    let winner = joiner.output.contains("you play X") ? "W" : "B"  // the bot's colour
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    #expect(waitUntil { bot.log.contains("gone mid-game; game 1 kept 5 s for its key") }, "\(bot.log)")
    #expect(!bot.log.contains("bot game: "))
    #expect(waitUntil(timeout: 15) { bot.log.contains("bot game: ") }, "\(bot.log)")
    let line = bot.log.split(separator: "\n").first { $0.contains("bot game: ") } ?? ""
    #expect(line.contains("result=bot-won moves=\(moves) "), "\(line)")
    #expect(
      waitUntil { !bot.records(containing: "RE[\(winner)+F]").isEmpty },
      "\(bot.records(containing: "GM[4]"))")
    #expect(bot.records(containing: "TTE[claim]").count == 1)
    bot.player.signal(SIGTERM)
    #expect(bot.player.exitStatus() == 0)
  }
}

import Foundation
import TestSupport
import Testing

/// The bot's games, kept a day to a file, are listed by `tictactoe games` with the others, replay and verify by
/// number, and go with their whole day (`games delete all`); one of them alone is refused with the reason.
@Suite struct BotGamesListTests {
  @Test func theBotsGamesAreListedReplayedAndDeletedWithTheirDay() throws {
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let botHome = try Player.oneGameAgainstABot(joiner: bob)

    let listed = try Binary.run(["games"], environment: botHome)
    // From the bot's side: its opponent is bob, and bob lost (the bot plays X here when the coin says so).
    #expect(listed.status == 0 && listed.stdout.contains("  bob  "), "\(listed.stdout)")
    let json = try Binary.run(["games", "--json"], environment: botHome)
    #expect(json.stdout.contains(#""game":1"#) && json.stdout.contains("bot-"), "\(json.stdout)")
    let replay = try Binary.run(["replay", "1", "--ui", "plain"], environment: botHome)
    #expect(replay.status == 0 && replay.stdout.contains("bob"), "\(replay)")
    let one = try Binary.run(["games", "delete", "1"], environment: botHome)
    #expect(one.status == 64 && one.stderr.contains("is in the bot's collection"), "\(one)")
    let all = try Binary.run(["games", "delete", "all", "--yes"], environment: botHome)
    #expect(all.status == 0 && all.stdout == "Deleted 1 game record.\n", "\(all)")
    let games = try FileManager.default.contentsOfDirectory(atPath: botHome["XDG_DATA_HOME"]! + "/tictactoe/games")
    #expect(!games.contains { $0.hasPrefix("bot-") }, "\(games)")
  }
}

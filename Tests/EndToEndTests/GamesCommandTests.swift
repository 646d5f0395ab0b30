import Foundation
import GameRecords
import TestSupport
import Testing

/// `tictactoe games`, `games delete` and `replay` on the real binary, over records its own games left.
@Suite(.serialized) struct GamesCommandTests {
  /// A home with two finished games: a hot-seat win for X, then a game against the easy computer.
  private func homeWithTwoGames() throws -> [String: String] {
    var home = try Binary.sandbox().environment
    home["USER"] = "carol"
    let hotseat = try Binary.run(["play", "--ui", "plain", "--hotseat"], input: "1\n2\n4\n5\n7\n", environment: home)
    let everyCell = (1...9).map(String.init).joined(separator: "\n") + "\n"
    let computer = try Binary.run(["play", "--ui", "plain", "--ai", "easy"], input: everyCell, environment: home)
    // Each game ended and was kept (a CI run once found one of them missing): say which, and what it printed.
    for run in [hotseat, computer] {
      #expect(run.status == 0 && run.stdout.contains("result: "), "\(run.stdout)\(run.stderr)")
    }
    return home
  }

  @Test func gamesListsNewestFirstAsATableAndAsJSON() throws {
    let home = try homeWithTwoGames()
    let table = try Binary.run(["games"], environment: home)
    #expect(table.status == 0)
    let lines = table.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(table.stdout)")
    #expect(
      lines[0].split(separator: " ", omittingEmptySubsequences: true) == [
        "#", "date", "opponent", "rules", "result", "moves",
      ])
    #expect(lines[1].hasPrefix("1  ") && lines[1].contains("Computer (easy)") && lines[1].contains("3×3, 3 in a row"))
    #expect(lines[2].hasPrefix("2  ") && lines[2].contains("hot seat") && lines[2].contains("X won"))
    #expect(lines[2].hasSuffix("  5"))
    let json = try Binary.run(["games", "--json"], environment: home)
    let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
    let objects = try #require(parsed as? [[String: Any]], "\(json.stdout)")
    #expect(objects.count == 2)
    #expect(objects[1]["opponent"] as? String == "hot seat" && objects[1]["result"] as? String == "X won")
    #expect(
      objects[1]["moves"] as? Int == 5 && (objects[1]["rules"] as? [String: Int]) == ["rows": 3, "columns": 3, "k": 3])
    #expect([objects[0]["black"] as? String, objects[0]["white"] as? String].contains("carol"))
  }

  @Test func gamesDeleteRemovesSomeOrAll() throws {
    let home = try homeWithTwoGames()
    let bad = try Binary.run(["games", "delete", "3"], environment: home)
    #expect(bad.status == 64 && bad.stderr.contains("there is no game 3"))
    let one = try Binary.run(["games", "delete", "2"], environment: home)
    #expect(one.status == 0 && one.stdout == "Deleted 1 game record.\n")
    let left = try Binary.run(["games"], environment: home).stdout
    #expect(left.contains("Computer (easy)") && !left.contains("hot seat"))
    let all = try Binary.run(["games", "delete", "all", "--yes"], environment: home)
    #expect(all.stdout == "Deleted 1 game record.\n")
    #expect(try Binary.run(["games"], environment: home).stdout == "No games saved yet.\n")
    #expect(try Binary.run(["games", "delete", "x"], environment: home).status == 64)
  }

  @Test func replayInPlainModePrintsEveryPosition() throws {
    let home = try homeWithTwoGames()
    let result = try Binary.run(["replay", "2", "--ui", "plain"], environment: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("X (X) vs O (O)\n3×3, 3 in a row · "))
    for number in 1...5 { #expect(result.stdout.contains("move \(number). ")) }
    #expect(result.stdout.hasSuffix("move 5. X a1:\n3 X O .\n2 X O .\n1 X . .\n  a b c\n\nresult: X won with a line\n"))
  }

  @Test func aCorruptFileIsRefusedWithItsLineAndColumn() throws {
    let home = try Binary.sandbox().environment
    let file = TestDirectory.path("hostile") + ".sgf"
    try "(;GM[4]SZ[3]PB[\u{1B}\\]2;x]\n;B[aa];W[aa])".write(toFile: file, atomically: true, encoding: .utf8)
    let result = try Binary.run(["replay", file, "--ui", "plain"], environment: home)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "tictactoe: \(file): line 2, column 8: move 2, W[aa], is not legal: row 1, column 1 is already taken by X\n")
    let missing = try Binary.run(["replay", "9"], environment: home)
    #expect(missing.status == 64 && missing.stderr.contains("is neither a file nor a saved game's number"))
  }

  @Test func replayOnTheFullScreenStepsWithTheArrowsAndHomeEnd() throws {
    let home = try homeWithTwoGames()
    let session = try TmuxSession(
      command: "sh -c '\(Binary.path) replay 2; echo EXIT=$?; sleep 30'", environment: home)
    var screen = try session.waitFor(text: "Move 0 of 5")
    #expect(screen.contains("Replay: X (X) vs O (O)"))
    #expect(screen.contains("1. X a3") && screen.contains("5. X a1"))
    try session.send("Right")
    try session.send("Right")
    screen = try session.waitFor(text: "Move 2 of 5")
    #expect(screen.contains(" │ X │ O │   │"), "drawn as the game view draws it:\n\(screen)")
    try session.send("End")
    screen = try session.waitFor(text: "Move 5 of 5")
    #expect(screen.contains("Result: X won with a line") && screen.contains(" │ X │   │   │"), "\(screen)")
    try session.send("Home")
    screen = try session.waitFor(text: "Move 0 of 5")
    #expect(!screen.contains("X │"), "\(screen)")
    try session.send("q")
    _ = try session.waitFor(text: "EXIT=0")
  }
}

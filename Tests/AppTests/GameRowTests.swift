import GameCore
import GameRecords
import Testing

@testable import App
@testable import PlayerFiles

/// How `tictactoe games` words a game: from the player's side, the opponent by the name the player knows it by.
@Suite struct GameRowTests {
  static func record(black: GameRecord.Player, white: GameRecord.Player, result: RecordResult) -> GameRecord {
    GameRecord(rules: .standard, black: black, white: white, date: "2026-12-01", result: result, moves: [])
  }

  @Test func aNetworkGameIsSeenFromTheSideWithMyKeyAndTheOpponentByItsPetname() {
    let game = Self.record(
      black: .init(name: "Bob the Great", publicKey: "BOB"), white: .init(name: "me", publicKey: "MINE"),
      result: .won(.x, .resignation))
    let row = GameRow(game, myKey: "MINE") { $0 == "BOB" ? "bob" : nil }
    #expect(row.opponent == "bob" && row.result == "lost by resignation")
    let stranger = GameRow(game, myKey: "MINE") { _ in nil }
    #expect(stranger.opponent == "Bob the Great")
    let notMine = GameRow(game, myKey: "OTHER") { _ in nil }
    #expect(notMine.opponent == "Bob the Great vs me" && notMine.result == "X won by resignation")
  }

  @Test func theComputerSideIsNamedWithItsLevelAndTheOtherIsMine() {
    let game = Self.record(
      black: .init(name: "Computer", level: "perfect"), white: .init(name: "carol"), result: .won(.o, .left))
    let row = GameRow(game, myKey: nil) { _ in "never asked" }
    #expect(row.opponent == "Computer (perfect)" && row.result == "won by forfeit")
    #expect(row.date == "2026-12-01" && row.rules == "3×3, 3 in a row" && row.moves == 0)
  }

  @Test func namesFromAFileAreMadeSafeForTheTerminal() {
    let game = Self.record(
      black: .init(name: "x\u{1B}[2J", publicKey: "K"), white: .init(name: "me", publicKey: "MINE"),
      result: .drawn(.full))
    #expect(GameRow(game, myKey: "MINE") { _ in nil }.opponent == "x\\x1B[2J")
    #expect(GameRow(game, myKey: "MINE") { _ in nil }.result == "draw")
  }

  /// Version 3's ends, from each side.
  @Test(arguments: [
    (RecordResult.won(.x, .time), "lost on time", "won on time"), (.won(.o, .claim), "won by claim", "lost by claim"),
    (.void, "aborted", "aborted"), (.disputed, "disputed", "disputed"),
    (.drawn(.agreed), "draw by agreement", "draw by agreement"),
    (.drawn(.dead), "draw (dead position)", "draw (dead position)"),
  ])
  func versionThreesEndsAreWordedFromEachSide(result: RecordResult, mine: String, theirs: String) {
    let game = Self.record(
      black: .init(name: "bob", publicKey: "BOB"), white: .init(name: "me", publicKey: "MINE"), result: result)
    #expect(GameRow(game, myKey: "MINE") { _ in nil }.result == mine)
    #expect(GameRow(game, myKey: "BOB") { _ in nil }.result == theirs)
  }
}

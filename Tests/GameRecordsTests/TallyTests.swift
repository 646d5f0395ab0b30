import GameCore
import Testing

@testable import GameRecords

/// The record against each opponent and each level of the computer, from the games' records.
@Suite struct TallyTests {
  static func game(_ black: GameRecord.Player, _ white: GameRecord.Player, _ result: RecordResult) -> GameRecord {
    GameRecord(rules: .standard, black: black, white: white, date: "2026-12-01", result: result, moves: [])
  }

  @Test func eachOpponentKeyIsCountedFromMySideWhicheverMarkIHad() {
    let me = GameRecord.Player(name: "me", publicKey: "MINE")
    let alice = GameRecord.Player(name: "alice", publicKey: "ALICE")
    let renamed = GameRecord.Player(name: "Alice B.", publicKey: "ALICE")
    let bob = GameRecord.Player(name: "bob", publicKey: "BOB")
    let records = [
      Self.game(me, alice, .won(.x, .line)), Self.game(alice, me, .won(.x, .resignation)),
      Self.game(renamed, me, .won(.o, .left)), Self.game(me, alice, .drawn(.full)),
      Self.game(bob, me, .won(.x, .claim)),
      Self.game(me, bob, .unknown), Self.game(alice, bob, .won(.x, .line)),
    ]
    let tallies = OpponentTally.byOpponentKey(records, myKey: "MINE")
    #expect(tallies == ["ALICE": Tally(wins: 2, losses: 1, draws: 1), "BOB": Tally(wins: 0, losses: 1, draws: 0)])
    #expect(tallies["ALICE"]?.description == "2–1, 1 drawn")
    #expect(tallies["BOB"]?.description == "0–1")
  }

  @Test func theComputerIsCountedByLevelFromTheOtherSide() {
    let carol = GameRecord.Player(name: "carol")
    let perfect = GameRecord.Player(name: "Computer", level: "perfect")
    let easy = GameRecord.Player(name: "Computer", level: "easy")
    let records = [
      Self.game(carol, perfect, .won(.o, .line)), Self.game(perfect, carol, .drawn(.full)),
      Self.game(easy, carol, .won(.o, .line)),
      Self.game(.init(name: "X"), .init(name: "O"), .won(.x, .line)),
    ]
    #expect(
      OpponentTally.byComputerLevel(records) == [
        "perfect": Tally(wins: 0, losses: 1, draws: 1), "easy": Tally(wins: 1, losses: 0, draws: 0),
      ])
  }
}

import GameCore
import GameRecords
import Session
import SessionTestSupport
import TerminalUI
import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// The record each kind of game leaves: who is Black, the names, the levels, the result and why.
@Suite struct RecordOfGameTests {
  static func cells(_ numbers: [Int], _ rules: Rules = .standard) -> [Position] {
    numbers.map { Position(cellNumber: $0, rules: rules)! }
  }

  @Test func theComputerIsNamedWithItsLevelOnItsSide() throws {
    let game = try Game(rules: .standard, moves: Self.cells([1, 2, 4, 5, 7]))
    let record = try #require(
      RecordOfGame.local(game: game, opponent: .computer(.easy), humanMark: .o, playerName: "bob", date: "2026-12-01"))
    #expect(record.black == .init(name: "Computer", level: "easy"))
    #expect(record.white == .init(name: "bob"))
    #expect(record.result == .won(.x, .line))
    #expect(record.moves == game.history)
    #expect(record.resultProblem == nil)
  }

  @Test func hotSeatPlayersAreTheirMarksAndAnUnfinishedGameHasNoRecord() throws {
    var game = try Game(rules: .standard, moves: Self.cells([1, 2, 3, 5, 4, 6, 8, 7]))
    #expect(RecordOfGame.local(game: game, opponent: .hotseat, humanMark: .x, playerName: "a", date: "d") == nil)
    try game.play(Self.cells([9])[0])
    let record = try #require(
      RecordOfGame.local(game: game, opponent: .hotseat, humanMark: .x, playerName: "a", date: "d"))
    #expect(record.black.name == "X" && record.white.name == "O")
    #expect(record.result == .drawn(.full))
  }

  private func records(_ pair: SessionPair) -> (host: [GameRecord], joiner: [GameRecord]) {
    func of(_ events: [SessionOutput], _ session: NetSession, mine: String, theirs: String) -> [GameRecord] {
      events.compactMap {
        RecordOfGame.network(after: $0, session: session, myKey: mine, peerKey: theirs, date: "2026-12-01")
      }
    }
    return (
      of(pair.hostEvents, pair.host, mine: "KEYA", theirs: "KEYB"),
      of(pair.joinerEvents, pair.joiner, mine: "KEYB", theirs: "KEYA")
    )
  }

  @Test func bothSidesOfANetworkGameRecordTheSameGame() throws {
    var pair = SessionPair()
    pair.startMatch()
    for position in Self.cells([1, 2, 4, 5, 7]) { try pair.play(position) }
    let (host, joiner) = records(pair)
    #expect(host.count == 1 && joiner.count == 1)
    #expect(host == joiner)
    let record = try #require(host.first)
    let hostIsBlack = pair.host.myMark == .x
    #expect(record.black == .init(name: hostIsBlack ? "Alice" : "Bob", publicKey: hostIsBlack ? "KEYA" : "KEYB"))
    #expect(record.white == .init(name: hostIsBlack ? "Bob" : "Alice", publicKey: hostIsBlack ? "KEYB" : "KEYA"))
    #expect(record.result == .won(.x, .line))
    #expect(record.moves == Self.cells([1, 2, 4, 5, 7]))
  }

  @Test func aResignationAndALeaverAreRecordedAsSuch() throws {
    var pair = SessionPair()
    pair.startMatch()
    try pair.play(Self.cells([5])[0])
    pair.send(fromHost: try pair.host.resign(now: 0))
    pair.settle()
    let hostMark = try #require(pair.host.myMark)
    #expect(records(pair).host.map(\.result) == [.won(hostMark.opponent, .resignation)])
    #expect(records(pair).joiner.map(\.result) == [.won(hostMark.opponent, .resignation)])

    var left = SessionPair()
    left.startMatch()
    try left.play(Self.cells([5])[0])
    left.send(fromJoiner: left.joiner.quit(text: "bye", now: 0))
    left.settle()
    let joinerMark = try #require(left.joiner.myMark)
    #expect(records(left).host.map(\.result) == [.won(joinerMark.opponent, .left)])
    #expect(records(left).joiner.map(\.result) == [.won(joinerMark.opponent, .left)])
    #expect(records(left).host.first?.moves == Self.cells([5]))
  }

  @Test func aGoodbyeBetweenGamesLeavesNoSecondRecord() throws {
    var pair = SessionPair()
    pair.startMatch()
    for position in Self.cells([1, 2, 4, 5, 7]) { try pair.play(position) }
    pair.send(fromJoiner: pair.joiner.quit(text: "", now: 0))
    pair.settle()
    #expect(records(pair).host.count == 1)
    #expect(records(pair).joiner.count == 1)
  }
}

import GameCore
import Testing
import WireProtocol

@testable import MatchCoordination

/// `--watch-delay N` (PROTOCOL.md, "Version 4: watching"): spectators see the game N moves late, the moves held
/// back sent before the result when the game ends; the players are not delayed.
@Suite struct WatchDelayTests {
  static func moves(_ messages: [Message]) -> [UInt16] {
    messages.compactMap { if case .watchMove(_, let ply, _, _) = $0 { ply } else { nil } }
  }

  @Test func spectatorsSeeTheGameTwoMovesLateAndTheRestAtItsEnd() throws {
    var pair = SpectatorCoordinatorTests.pair(.anyone)
    pair.host.core.configuration.watchDelay = 2
    try pair.play([0, 3, 1])
    let id = SpectatorCoordinatorTests.watch(&pair)
    let first = SpectatorCoordinatorTests.sent(pair, to: id)
    let snapshot = first.compactMap { if case .watchSnapshot(let s) = $0 { s } else { nil } }.first
    #expect(snapshot?.moves == [Position(row: 0, column: 0)], "three played, two held back: \(first)")
    try pair.play([4])
    #expect(Self.moves(SpectatorCoordinatorTests.sent(pair, to: id)) == [1], "the fourth move shows the second")
    #expect(pair.joiner.session?.game?.history.count == 4, "the players are not delayed")
    try pair.play([2])  // X completes the top row: the game ends
    let all = SpectatorCoordinatorTests.sent(pair, to: id)
    #expect(Self.moves(all) == [1, 2, 3, 4], "the moves held back come at the end: \(all)")
    guard case .watchEnd(1, let end, _) = all.last else {
      Issue.record("the result comes last: \(all)")
      return
    }
    #expect(end == WatchedEnd(.line, mark: .x))
  }

  @Test func aDelayedViewHoldsBackTheLastMovesAndTheirTimesUntilTheEnd() {
    let moves = (0..<5).map { Position(row: 0, column: $0) }
    let times = (0..<5).map { OfferedTime(charged: UInt32($0), left: 1_000) }
    let view = WatchView(
      joinerName: "bob", joinerKey: [], game: 1, hostPlaysX: true, moves: moves, times: times, score: [0, 0, 0],
      end: nil)
    #expect(view.delayed(by: 0) == view)
    #expect(view.delayed(by: 2).moves == Array(moves.prefix(3)) && view.delayed(by: 2).times.count == 3)
    #expect(view.delayed(by: 9).moves.isEmpty && view.delayed(by: 9).times.isEmpty)
    var ended = view
    ended.end = WatchedEnd(.resigned, mark: .o)
    #expect(ended.delayed(by: 2) == ended, "a game that ended is shown whole")
  }
}

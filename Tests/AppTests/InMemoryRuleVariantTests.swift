import GameCore
import Session
import Testing

@testable import App
@testable import MatchCoordination

/// A host offering renju (protocol version 4) and a joiner, the real shells over the in-memory network: the
/// joiner's player reads the rule in the terms before the game, both play under it, and X's foul is refused with
/// its reason, nothing sent.
@Suite(.serialized) struct InMemoryRuleVariantTests {
  static let renju = try! Rules(size: 15, k: 5, variant: .renju)

  private static func termsAsked(_ player: MemoryPlayer) -> [String]? {
    player.events.lazy.compactMap { if case .askTerms(let lines) = $0 { lines } else { nil } }.last
  }

  /// Both accept each other's key; the joiner's player reads the terms and accepts them; the game starts.
  private static func start(_ table: InMemoryMatch, _ host: MemoryPlayer, _ joiner: MemoryPlayer) throws -> [String] {
    #expect(table.run { joiner.question != nil })
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.question != nil })
    host.take(host.match.answer(accept: true))
    #expect(table.run { Self.termsAsked(joiner) != nil })
    let lines = try #require(Self.termsAsked(joiner))
    #expect(host.myMark == nil && joiner.myMark == nil, "a game began before the player accepted the rule")
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.myMark != nil && joiner.myMark != nil })
    return lines
  }

  @Test func theJoinerReadsTheRuleAndAFoulIsRefused() throws {
    let table = InMemoryMatch()
    let host = try table.host(rules: Self.renju)
    let joiner = try table.join(host)
    let lines = try Self.start(table, host, joiner)
    #expect(
      lines == [
        "alice offers 15×15, 5 in a row, renju, untimed.",
        "renju: X wins only by exactly five and may not make 3-3, 4-4 or 6+.", "Play on these terms?",
      ])
    #expect(host.match.view.session?.rules == Self.renju && joiner.match.view.session?.rules == Self.renju)
    #expect(joiner.match.view.session?.version == 4)
    let (x, o) = host.myMark == .x ? (host, joiner) : (joiner, host)
    // X: f8 g8, h10 h9; O far away. Then X's h8 would make two open threes.
    let cells = [(7, 5), (0, 0), (7, 6), (0, 14), (5, 7), (14, 0), (6, 7), (14, 14)]
    for (index, cell) in cells.enumerated() {
      let (mover, other) = index.isMultiple(of: 2) ? (x, o) : (o, x)
      let position = Position(row: cell.0, column: cell.1)
      mover.take(try mover.match.play(position))
      #expect(table.run { other.peerMoves.last == position })
    }
    #expect(throws: PlayError.illegal(.forbidden(Position(row: 7, column: 7), .doubleThree))) {
      try x.match.play(Position(row: 7, column: 7))
    }
    table.settle(0.2)
    #expect(o.peerMoves.count == 4 && x.end == nil && o.end == nil)
    #expect(x.match.view.session?.myTurn == true)
  }
}

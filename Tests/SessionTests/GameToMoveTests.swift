import GameCore
import SessionTestSupport
import Testing

@testable import Session

/// `gameToMove`, what the practice bot reads once a move instead of `myTurn`, `inOpening` and `game` one after
/// the other: the game exactly when this side is to move in it, outside a Swap2 opening, not resuming.
@Suite struct GameToMoveTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  @Test func theMoverGetsTheGameAndTheOtherSideNothing() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 2)
    pair.startMatch()
    let (mover, waiter) = pair.host.myTurn ? (pair.host, pair.joiner) : (pair.joiner, pair.host)
    #expect(mover.gameToMove == mover.game && mover.game != nil)
    #expect(waiter.gameToMove == nil && waiter.game != nil)
    try pair.play(p(0, 0))
    #expect(pair.host.gameToMove == (pair.host.myTurn ? pair.host.game : nil))
    #expect(pair.joiner.gameToMove == (pair.joiner.myTurn ? pair.joiner.game : nil))
    #expect((pair.host.gameToMove == nil) != (pair.joiner.gameToMove == nil), "one side is to move, not both")
  }

  @Test func nobodyIsToMoveBeforeTheMatchOrAfterAGameEnds() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 2)
    #expect(pair.host.gameToMove == nil && pair.joiner.gameToMove == nil)
    pair.startMatch()
    // A line for the first mover: 0,0 0,1 0,2 against 1,0 1,1.
    for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)] { try pair.play(cell) }
    #expect(pair.host.game?.isOver == true && pair.host.game != nil)
    #expect(pair.host.gameToMove == nil && pair.joiner.gameToMove == nil)
  }

  @Test func notWhileTheResumeIsConfirmed() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 2)
    pair.startMatch()
    let joinerMoves = pair.joiner.myTurn
    #expect((pair.joiner.gameToMove != nil) == joinerMoves)
    pair.drop()
    pair.reconnect()
    #expect(pair.joiner.isResuming && pair.joiner.gameToMove == nil)
    pair.settle()
    #expect(!pair.joiner.isResuming && (pair.joiner.gameToMove != nil) == joinerMoves)
  }

  @Test func notInASwap2OpeningEvenOnTheSideToPlaceAStone() throws {
    var pair = SessionPair(
      hostCoin: 1, joinerCoin: 1, rules: NetSessionSwap2Tests.rules, opening: .swap2)
    pair.startMatch()
    #expect(pair.host.inOpening && pair.host.myTurn && pair.host.gameToMove == nil)
    try NetSessionSwap2Tests.threeStones(&pair)
    try NetSessionSwap2Tests.choose(.black, joiner: true, &pair)
    // White (the host) moves next with three stones down: the opening is over.
    #expect(!pair.host.inOpening && pair.host.gameToMove == pair.host.game && pair.host.game?.history.count == 3)
    #expect(pair.joiner.gameToMove == nil)
  }
}

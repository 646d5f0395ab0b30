import GameCore
import Testing
import WireProtocol

@testable import Session

/// PROTOCOL.md rule 14 on one side's clocks, driven by hand: what the peer's moves are charged, what this
/// player's cost once echoed, the lag budget, the flag's deadline and the answer to a claim.
@Suite struct GameClockTests {
  static let fiveMinutes = TimeControl.fischer(base: 300_000, increment: 0)

  /// This side plays O: X (the peer) moves first. Plays the two uncharged first moves, X's at 1 s and O's at 2 s.
  static func afterFirstMoves(_ control: TimeControl = fiveMinutes) throws -> GameClock {
    var clock = try #require(GameClock(control, myMark: .o, now: 0))
    _ = clock.peerMove(ply: 0, fields: MoveClock(thinking: 900, echo: nil), now: 1)
    _ = clock.myMove(ply: 1, now: 2)
    return clock
  }

  @Test func noClockForAnUntimedGame() {
    #expect(GameClock(.none, myMark: .x, now: 0) == nil)
  }

  @Test func theLagBudgetFollowsTheBase() {
    #expect(GameClock.lagBudget(.fischer(base: 300_000, increment: 3_000)) == 15_000)
    #expect(GameClock.lagBudget(.fischer(base: 10_000, increment: 0)) == 2_500)
    #expect(GameClock.lagBudget(.fischer(base: 4_000, increment: 0)) == 2_000)
    #expect(GameClock.lagBudget(.perMove(20_000)) == 5_000)
  }

  @Test func theFirstMovesAreNotCharged() throws {
    let clock = try Self.afterFirstMoves()
    #expect(clock.left == [.x: 300_000, .o: 300_000])
  }

  /// Q = min(O, max(C, O − A)): believed up to A of delay, never charged more than was seen.
  @Test(arguments: [
    (4_000, 4_300, 4_000),  // 300 ms of lag: the mover's C
    (4_000, 6_000, 5_000),  // 2 s more than C: O − A
    (0, 3_000, 2_000),  // claims nothing: O − A
    (9_000, 3_000, 3_000),  // claims more than was seen: O
    (0, 500, 0),
  ])
  func theChargeIsTheFormula(thinking: Int, observed: Int, charge: Int) throws {
    var clock = try Self.afterFirstMoves()
    let result = clock.peerMove(
      ply: 2, fields: MoveClock(thinking: thinking, echo: nil), now: 2 + Double(observed) / 1_000)
    #expect(result == .success(charge))
    #expect(clock.left[.x] == 300_000 - charge)
    #expect(clock.peerBudgetLeft == 15_000 - (observed - charge))
  }

  @Test func fischerAddsTheIncrementAndPerMoveKeepsItsTime() throws {
    var fischer = try Self.afterFirstMoves(.fischer(base: 60_000, increment: 2_000))
    _ = fischer.peerMove(ply: 2, fields: MoveClock(thinking: 5_000, echo: nil), now: 7)
    #expect(fischer.left[.x] == 57_000)
    var perMove = try Self.afterFirstMoves(.perMove(20_000))
    _ = perMove.peerMove(ply: 2, fields: MoveClock(thinking: 5_000, echo: nil), now: 7)
    #expect(perMove.left[.x] == 20_000)
  }

  /// This player's own move is counted at its C until the peer's echo replaces it.
  @Test func theEchoReplacesTheMoversOwnTime() throws {
    var clock = try Self.afterFirstMoves()
    _ = clock.peerMove(ply: 2, fields: MoveClock(thinking: 1_000, echo: nil), now: 3)
    let sent = clock.myMove(ply: 3, now: 7)  // 4 s of thinking
    #expect(sent == MoveClock(thinking: 4_000, echo: 1_000))
    #expect(clock.left[.o] == 296_000)
    _ = clock.peerMove(ply: 4, fields: MoveClock(thinking: 1_000, echo: 4_300), now: 9)
    #expect(clock.left[.o] == 295_700)
  }

  @Test func aMoveClaimingMoreThanItsTimeIsRefused() throws {
    var clock = try Self.afterFirstMoves(.fischer(base: 10_000, increment: 0))
    #expect(
      clock.peerMove(ply: 2, fields: MoveClock(thinking: 10_001, echo: nil), now: 12)
        == .failure(.overTime(thinking: 10_001, left: 10_000)))
    #expect(clock.peerMove(ply: 2, fields: nil, now: 12) == .failure(.missing))
  }

  /// The flag falls A after the time left, on the waiting side's clock, and only once both have moved.
  @Test func theFlagDeadlineIsTheTimeLeftPlusA() throws {
    var clock = try #require(GameClock(.fischer(base: 10_000, increment: 0), myMark: .o, now: 0))
    #expect(clock.flagDeadline(ply: 0) == nil)
    _ = clock.peerMove(ply: 0, fields: MoveClock(thinking: 0, echo: nil), now: 1)
    #expect(clock.flagDeadline(ply: 1) == nil, "this player's turn")
    _ = clock.myMove(ply: 1, now: 2)
    #expect(clock.flagDeadline(ply: 2) == 13)
    #expect(clock.claim(ply: 2, now: 13) == .flagClaim(ply: 2, timeLeft: 10_000, observed: 11_000))
    #expect(clock.remaining(.x, now: 7) == 5_000 && clock.remaining(.x, now: 20) == 0)
  }

  /// The mover concedes when its own clock agrees within A, and disputes when it had more than A left.
  @Test func aClaimIsJudgedOnTheMoversOwnClock() throws {
    var clock = try Self.afterFirstMoves(.fischer(base: 10_000, increment: 0))
    _ = clock.peerMove(ply: 2, fields: MoveClock(thinking: 0, echo: nil), now: 3)  // this player's turn from 3 s
    #expect(clock.answer(crossed: nil, now: 12.5) == (thinking: 9_500, disputed: false))
    #expect(clock.answer(crossed: nil, now: 11.999) == (thinking: 8_999, disputed: true))
    #expect(clock.myTimeIsUp(ply: 3, now: 13) == false && clock.myTimeIsUp(ply: 3, now: 13.001))
  }
}

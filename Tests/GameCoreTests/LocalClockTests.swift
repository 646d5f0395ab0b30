import GameCore
import Testing

/// The clocks of a local timed game on a clock the test moves (issue 24): the first moves free, each later move
/// charged exactly, the increment, a fixed time per move, a flag in a 10-second game, and the computer's search
/// budget, which never reaches its flag.
@Suite struct LocalClockTests {
  @Test func anUntimedGameHasNoClock() {
    #expect(LocalClock(.none, now: 0) == nil)
  }

  @Test func eachSidesFirstMoveIsFreeThenEachMoveCostsWhatItTook() throws {
    var clock = try #require(LocalClock(.fischer(base: 60_000, increment: 2_000), now: 100))
    #expect(clock.running == nil && clock.flagDeadline == nil)
    #expect(clock.moved(now: 130) == .init(charged: 0, left: 60_000), "X's first move is free")
    #expect(clock.running == nil)
    #expect(clock.moved(now: 170) == .init(charged: 0, left: 60_000), "O's first move is free")
    #expect(clock.running == .x && clock.flagDeadline == 230)
    #expect(clock.remaining(.x, now: 172.5) == 57_500 && clock.remaining(.o, now: 172.5) == 60_000)
    #expect(clock.moved(now: 175.25) == .init(charged: 5_250, left: 56_750), "5.25 s taken, 2 s added")
    #expect(clock.running == .o && clock.remaining(.x, now: 200) == 56_750)
    #expect(clock.moved(now: 176) == .init(charged: 750, left: 61_250))
    #expect(clock.charges.map(\.charged) == [0, 0, 5_250, 750])
  }

  @Test func aFixedTimePerMoveStartsAfreshEachMove() throws {
    var clock = try #require(LocalClock(.perMove(20_000), now: 0))
    clock.moved(now: 1)
    clock.moved(now: 2)
    #expect(clock.moved(now: 17) == .init(charged: 15_000, left: 5_000))
    #expect(clock.remaining(.o, now: 17) == 20_000 && clock.flagDeadline == 37)
    #expect(clock.moved(now: 36.5) == .init(charged: 19_500, left: 500))
    #expect(clock.remaining(.x, now: 36.5) == 20_000)
  }

  @Test func aFlagFallsInATenSecondGame() throws {
    var clock = try #require(LocalClock(.fischer(base: 10_000, increment: 0), now: 0))
    clock.moved(now: 3)
    clock.moved(now: 4)
    clock.moved(now: 9)  // X: 5 s, 5 s left
    #expect(clock.flagDeadline == 19, "O has 10 s from 9")
    #expect(clock.flagIfDue(now: 18.999) == nil && clock.remaining(.o, now: 18.999) == 1)
    #expect(clock.nextFaceChange(now: 18.5) == 19)
    #expect(clock.flagIfDue(now: 19) == .o)
    #expect(clock.flagged == .o && clock.running == nil && clock.remaining(.o, now: 30) == 0)
    #expect(clock.flagIfDue(now: 20) == nil, "a flag falls once")
    #expect(clock.moved(now: 19.5) == nil && clock.charges.count == 3, "no move after the flag")
  }

  @Test func aMoveMadeAfterTheTimeRanOutIsRefusedAsAFlag() throws {
    var clock = try #require(LocalClock(.fischer(base: 10_000, increment: 0), now: 0))
    clock.moved(now: 0)
    clock.moved(now: 0)
    #expect(clock.moved(now: 10.2) == nil)
    #expect(clock.flagged == .x && clock.charges.count == 2)
  }

  @Test func noClockRunsAfterTheGameEndsOnTheBoard() throws {
    var clock = try #require(LocalClock(.fischer(base: 10_000, increment: 0), now: 0))
    clock.moved(now: 0)
    clock.moved(now: 0)
    clock.moved(now: 2, ends: true)
    #expect(clock.running == nil && clock.flagDeadline == nil && clock.nextFaceChange(now: 3) == nil)
    #expect(clock.flagIfDue(now: 100) == nil && clock.remaining(.o, now: 100) == 10_000)
  }

  @Test(arguments: [
    TimeControl.fischer(base: 10_000, increment: 0), .fischer(base: 60_000, increment: 2_000),
    .fischer(base: 1_000, increment: 0), .perMove(300), .perMove(2_000), .fischer(base: 500, increment: 100),
  ])
  func theSearchBudgetNeverReachesTheFlag(control: TimeControl) throws {
    // On every clock reading down to the flag, and every board size, the budget leaves the margin: what it
    // allows ends before the time left.
    for empty in [0, 9, 40, 225] {
      var clock = try #require(LocalClock(control, now: 0))
      clock.moved(now: 0)
      clock.moved(now: 0)
      let deadline = try #require(clock.flagDeadline)
      var now = 0.0
      while now < deadline {
        let left = clock.remaining(.x, now: now)
        let budget = clock.searchBudget(now: now, emptyCells: empty, usual: 250)
        #expect(budget >= 1 && budget <= 250)
        if left > 100 { #expect(budget <= left - 50, "\(control) at \(now): \(budget) of \(left)") }
        now += 0.01
      }
    }
  }

  @Test func theSearchBudgetIsTheUsualOneWhileTimeIsPlenty() throws {
    var clock = try #require(LocalClock(.fischer(base: 300_000, increment: 3_000), now: 0))
    #expect(clock.searchBudget(now: 5, emptyCells: 225, usual: 250) == 250, "first move: no clock runs")
    clock.moved(now: 0)
    clock.moved(now: 0)
    #expect(clock.searchBudget(now: 1, emptyCells: 200, usual: 250) == 250)
    // 3 s left, 200 empty cells: a thirtieth of it with the increment is 3.1 s, but the margin keeps 300 ms.
    #expect(clock.searchBudget(now: 297, emptyCells: 200, usual: 5_000) == 2_700)
    // 1 s left and no increment: a thirtieth of it.
    var short = try #require(LocalClock(.fischer(base: 1_000, increment: 0), now: 0))
    short.moved(now: 0)
    short.moved(now: 0)
    #expect(short.searchBudget(now: 0, emptyCells: 200, usual: 250) == 33)
  }
}

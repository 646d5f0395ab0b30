import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// Timed games between two sessions on a clock the test moves (PROTOCOL.md rules 14 and 15): liars on either
/// side, a flag, and clocks through a drop and a resume.
@Suite struct TimedGameTests {
  static let gomoku = try! Rules(size: 15, k: 5)

  /// The i-th cell of a game that makes no line of 5 in its first 44 moves (rows filled in turn).
  static func cell(_ index: Int) -> Position { Position(row: index / 15, column: index % 15) }

  /// Host X (equal coin bytes: the host starts), joiner O.
  static func match(_ control: TimeControl) throws -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: gomoku, timeControl: control)
    pair.startMatch()
    try #require(pair.host.myMark == .x && pair.host.clock != nil && pair.joiner.clock != nil)
    return pair
  }

  /// The side to move thinks `think` seconds and plays move `index`; it arrives `lag` seconds later.
  static func move(_ pair: inout SessionPair, _ index: Int, think: Double, lag: Double = 0, claim: Int? = nil) throws {
    pair.now += think
    if pair.host.myTurn {
      try pair.hostPlays(cell(index))
    } else {
      try pair.joinerPlays(cell(index))
      if let claim, case .move(let ply, let position, var fields?) = pair.toHost.last {
        fields.thinking = claim  // the joiner's program lies about its time
        pair.toHost[pair.toHost.count - 1] = .move(ply: ply, position: position, clock: fields)
      }
    }
    pair.now += lag
    pair.settle()
  }

  /// Time passes to `until` on a live connection: both sides tick every second (heartbeats go both ways) and
  /// what they send is delivered.
  static func wait(_ pair: inout SessionPair, until: Double) {
    while pair.now < until {
      pair.now = min(until, pair.now + 1)
      pair.send(fromHost: pair.host.tick(now: pair.now))
      pair.send(fromJoiner: pair.joiner.tick(now: pair.now))
      pair.settle()
    }
  }

  /// A joiner that always claims 0 s: charged O − A, so it gains A (1 s) a move until the lag budget (15 s in a
  /// 5-minute game) is spent, and nothing after.
  @Test func aPeerAlwaysClaimingNoTimeGainsAtMostAPerMoveCappedByTheBudget() throws {
    var pair = try Self.match(.fischer(base: 300_000, increment: 0))
    var gained: [Int] = []
    for index in 0..<40 {
      let joinerMoves = pair.joiner.myTurn
      let before = try #require(pair.host.clock?.left[.o])
      try Self.move(&pair, index, think: 3, claim: 0)
      if joinerMoves && index >= 2 { gained.append(3_000 - (before - (pair.host.clock?.left[.o] ?? 0))) }
    }
    #expect(gained.count == 19)
    #expect(gained.allSatisfy { $0 <= GameClock.lagAllowance }, "\(gained)")
    #expect(gained.reduce(0, +) == 15_000, "\(gained)")
    #expect(gained.prefix(15).allSatisfy { $0 == 1_000 } && gained.dropFirst(15).allSatisfy { $0 == 0 })
    #expect(pair.host.clock?.peerBudgetLeft == 0)
    // Both sides hold the same times: the liar's own clock adopted the host's charges.
    #expect(pair.joiner.clock?.left == pair.host.clock?.left)
    #expect(pair.host.clock?.left == [.x: 300_000 - 19 * 3_000, .o: 300_000 - 19 * 3_000 + 15_000])
  }

  /// An honest mover on a slow network (0.4 s each way) is charged its own thinking time and no more.
  @Test func anHonestMoverIsChargedItsThinkingThroughLag() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 1_000))
    for index in 0..<12 { try Self.move(&pair, index, think: 2, lag: 0.4) }
    // 10 charged moves, 5 each: 60 − 5 × 2 + 5 × 1 on both clocks, on both sides.
    #expect(pair.host.clock?.left == [.x: 55_000, .o: 55_000])
    #expect(pair.joiner.clock?.left == pair.host.clock?.left)
  }

  /// A flag in a 10-second game: the joiner stops moving; the host claims 10 s after its move went (9 s left and
  /// A), the joiner's own clock agrees, and both record a loss on time.
  @Test func aFlagInATenSecondGame() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }  // the joiner has spent 1 s of its 10
    #expect(pair.host.flagDeadline == 15)  // the host's move went at 5 s: 5 + 9 left + A
    #expect(pair.host.nextDeadline == 8)  // the heartbeat comes first
    Self.wait(&pair, until: 14.999)
    #expect(pair.host.flagClaimedAt == nil)
    var inTime = pair.joiner
    #expect(throws: Never.self) { _ = try inTime.play(Self.cell(5), now: 14) }
    #expect(throws: PlayError.outOfTime) { try pair.joiner.play(Self.cell(5), now: 14.001) }
    Self.wait(&pair, until: 15)
    #expect(pair.host.flagClaimedAt == nil, "the game ended")
    #expect(pair.hostEvents.contains(.gameFlow(.flagClaimed)))
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
    #expect(pair.host.score.wins == 1 && pair.joiner.score.losses == 1)
    #expect(pair.joinerEvents.contains(.send(.flagAnswer(ply: 5, disputed: false, thinking: 10_000))))
    #expect(pair.closings.isEmpty)
  }

  /// A move that arrives before the claim went counts, even past the flag on the receiver's clock (its loop woke
  /// late): charged at most the time its mover had.
  @Test func aMoveArrivingBeforeALateClaimCounts() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }
    try Self.move(&pair, 5, think: 9, lag: 2)  // 9 s of its 9 left, 11 s on the host's clock, no tick between
    #expect(pair.host.game?.history.count == 6 && pair.host.gameInProgress && pair.closings.isEmpty)
    #expect(pair.host.clock?.left[.o] == 0)
    try Self.move(&pair, 6, think: 1)
    #expect(pair.joiner.clock?.left[.o] == 0, "the echo says so on the joiner's side too")
  }

  /// A fixed time per move (move:5s): every move has the whole time again, and a move over it loses on time.
  @Test func aFixedTimePerMove() throws {
    var pair = try Self.match(.perMove(5_000))
    for index in 0..<9 { try Self.move(&pair, index, think: 4.5) }
    #expect(pair.host.clock?.left == [.x: 5_000, .o: 5_000] && pair.joiner.clock?.left == pair.host.clock?.left)
    #expect(pair.host.flagDeadline == pair.now + 6)  // the joiner to move: 5 s and A
    Self.wait(&pair, until: pair.now + 6)
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
  }

  /// A waiting side that lies (or whose clock runs fast) claims early: the mover's own clock contradicts it by
  /// more than A, and the game ends disputed on both sides, won by no one.
  @Test func aFalseFlagClaimEndsAsDisputed() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }
    Self.wait(&pair, until: 8)  // the joiner has thought 3 s of its 9 left
    // The host's program claims as if 10 s had passed.
    pair.host.flagClaimedAt = 5
    pair.toJoiner.append(.flagClaim(ply: 5, timeLeft: 9_000, observed: 10_000))
    pair.settle()
    #expect(pair.host.lastResult == .disputed(claimant: .x) && pair.joiner.lastResult == .disputed(claimant: .x))
    #expect(pair.host.score == NetSession.Score() && pair.joiner.score == NetSession.Score())
    #expect(pair.joinerEvents.contains(.send(.flagAnswer(ply: 5, disputed: true, thinking: 3_000))))
    #expect(pair.closings.isEmpty)
  }

  /// A claim must say the time ran out by more than A on its sender's own count; a mover's time over its own clock
  /// is refused too.
  @Test func aClaimOrAMoveContradictingItselfIsAViolation() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }
    var early = pair.joiner
    let outputs = early.receive(.flagClaim(ply: 5, timeLeft: 9_000, observed: 9_999), now: pair.now)
    #expect(SessionPair.violation(outputs, containing: "a flag claim after 9999 ms when 9000 ms were left"))
    let late = pair.host.receive(
      .move(ply: 5, position: Self.cell(5), clock: MoveClock(thinking: 9_001, echo: 1_000)), now: pair.now + 9)
    #expect(SessionPair.violation(late, containing: "a move after 9001 ms of thinking when 9000 ms were left"))
  }

  /// A move that crosses the claim is void on both sides, and the claim is judged on that move's time.
  @Test func aMoveCrossingTheClaimIsVoid() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }
    Self.wait(&pair, until: 13.5)
    try pair.joinerPlays(Self.cell(5))  // at 13.5 s, with 0.5 s of its 9 left; the move is slow to arrive
    pair.now = 15
    pair.send(fromHost: pair.host.tick(now: pair.now))  // the host claims before the move arrives
    #expect(pair.host.flagClaimedAt == 5)
    pair.settle()
    // The move is void on both sides; the joiner's own clock (8.5 s of 9) agrees within A: lost on time.
    #expect(pair.host.game?.history.count == 5 && pair.joiner.game?.history.count == 5)
    #expect(pair.joinerEvents.contains(.send(.flagAnswer(ply: 5, disputed: false, thinking: 8_500))))
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
  }

  /// The same game twice, once with the connection down while the joiner thinks: after the resume both
  /// sides' clocks are what they are without the drop, to the millisecond.
  @Test func clocksThroughADropAndResumeMatchAnUninterruptedRun() throws {
    func run(dropping: Bool) throws -> SessionPair {
      var pair = try Self.match(.fischer(base: 60_000, increment: 2_000))
      for index in 0..<6 { try Self.move(&pair, index, think: 1.5, lag: 0.1) }
      pair.now += 2
      if dropping { pair.drop() }
      pair.now += 20  // the joiner thinks on, the connection down
      if dropping {
        pair.reconnect()
        pair.settle()
        try #require(pair.host.link == .up && pair.joiner.link == .up)
      }
      pair.now += 3
      try Self.move(&pair, 6, think: 0.5, lag: 0.1)
      for index in 7..<10 { try Self.move(&pair, index, think: 1, lag: 0.1) }
      return pair
    }
    let straight = try run(dropping: false)
    let dropped = try run(dropping: true)
    #expect(dropped.host.clock?.left == straight.host.clock?.left)
    #expect(dropped.joiner.clock?.left == straight.joiner.clock?.left)
    #expect(dropped.host.clock?.left == dropped.joiner.clock?.left)
    // X thought through the drop: plies 2, 4, 6, 8 charged 1.5, 1.5, 25.5 and 1 s; O 1.5, 1.5, 1 and 1 s; 4 × 2 s
    // of increment each.
    #expect(straight.host.clock?.left == [.x: 38_500, .o: 63_000])
    #expect(dropped.closings.isEmpty)
    // What the records keep is the same too: every move's agreed times, on both sides, with or without the drop.
    let times = straight.host.clock?.agreedTimes(plies: 10)
    #expect(times?.count == 10 && times?[6] == GameClock.AgreedTime(charged: 25_500, left: 38_500 - 2_000 + 1_000))
    for clock in [straight.joiner.clock, dropped.host.clock, dropped.joiner.clock] {
      #expect(clock?.agreedTimes(plies: 10) == times)
    }
  }

  /// A move made while the connection is down goes out on the resume: its mover is charged the wait (less A,
  /// from the budget), and the reply is charged from the moment the move went out again, not from before.
  @Test func aMoveMadeDuringADropIsChargedTheWaitAndTheReplyIsNot() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }  // at 5 s the joiner is to move
    pair.drop()
    pair.now = 7
    try pair.joinerPlays(Self.cell(5))  // 2 s of thinking, kept for the resume
    pair.now = 27
    pair.reconnect()
    pair.settle()
    // The host saw 22 s pass since its move: charged 21 s (A forgiven); 59 s less 21.
    #expect(pair.host.clock?.left[.o] == 38_000)
    try Self.move(&pair, 6, think: 2)  // the host replies 2 s after the resume
    #expect(pair.joiner.clock?.left[.x] == 60_000 - 1_000 - 1_000 - 2_000)
    #expect(pair.host.clock?.left == pair.joiner.clock?.left)
    #expect(pair.closings.isEmpty)
  }

  /// Takebacks of one ply and of two in a timed game: the clocks are not restored, and both sides still hold the
  /// same times (a move taken back before its echo came keeps its mover's C on both sides).
  @Test func takebacksKeepBothSidesClocksTheSame() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 0))
    for index in 0..<4 { try Self.move(&pair, index, think: 1) }
    try Self.move(&pair, 4, think: 2, lag: 1.5)  // the host's move: charged 2.5 s on the joiner's side
    pair.deliver(fromHost: try pair.host.requestTakeback(now: pair.now))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: pair.now))
    #expect(pair.host.game?.history.count == 4 && pair.host.myTurn)
    #expect(pair.host.clock?.left == pair.joiner.clock?.left)
    #expect(pair.host.clock?.left[.x] == 60_000 - 1_000 - 2_000)
    try Self.move(&pair, 4, think: 1)
    try Self.move(&pair, 5, think: 1)  // the joiner replied: two plies back to the host's turn
    pair.deliver(fromHost: try pair.host.requestTakeback(now: pair.now))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: pair.now))
    #expect(pair.host.game?.history.count == 4 && pair.host.myTurn)
    for index in 4..<7 { try Self.move(&pair, index, think: 1) }
    #expect(pair.host.clock?.left == pair.joiner.clock?.left)
    #expect(pair.closings.isEmpty)
  }

  /// A player whose time runs out while it is away loses on time: the claim is made during the drop and sent on
  /// the resume, and the returning side's own clock (which ran on) agrees.
  @Test func timeRunningOutWhileAwayLosesOnTime() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, index, think: 1) }
    pair.drop()
    pair.now += 10
    #expect(pair.host.nextDeadline == pair.now)  // 15 s: before the grace period's end
    pair.send(fromHost: pair.host.tick(now: pair.now))
    #expect(pair.host.flagClaimedAt == 5)
    pair.now += 5
    pair.reconnect()
    pair.settle()
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
    #expect(pair.closings.isEmpty)
    // Both sides keep the claim and its answer alike, for their records.
    #expect(pair.host.flagFacts == FlagFacts(claimant: .x, timeLeft: 9_000, observed: 10_000, thinking: 15_000))
    #expect(pair.joiner.flagFacts == pair.host.flagFacts)
  }

  /// An untimed game has no flag deadline: nothing wakes the loop for a clock.
  @Test func anUntimedGameHasNoClockDeadline() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 2, rules: Self.gomoku)
    pair.startMatch()
    try pair.play(Self.cell(0))
    try pair.play(Self.cell(1))
    #expect(pair.host.clock == nil && pair.host.flagDeadline == nil)
    #expect(pair.host.nextDeadline == pair.now + 3)  // the heartbeat only
  }
}

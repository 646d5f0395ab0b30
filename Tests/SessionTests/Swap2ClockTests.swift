import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// A timed game that opens with Swap2 (PROTOCOL.md rule 14 and "Version 4: rule variants and openings"), on a
/// clock the test moves: the clock of the side that acts runs from the first stone, a turn being a run of one
/// player's stones and choices; only the message that ends a turn carries the clock fields, and the flag falls in
/// the opening as after it, voiding the turn it is about on both sides.
@Suite struct Swap2ClockTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let rules = try! Rules(size: 15, k: 5)
  static let three = [Position(row: 7, column: 7), Position(row: 7, column: 8), Position(row: 8, column: 8)]
  /// 60 s and 2 s a turn.
  static let control = TimeControl.fischer(base: 60_000, increment: 2_000)

  /// Host the first (tentative) player: equal coin bytes.
  static func match(_ control: TimeControl = control) throws -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, timeControl: control, opening: .swap2)
    pair.startMatch()
    try #require(pair.host.inOpening && pair.host.swap2?.me == .first)
    return pair
  }

  /// The clock fields of the last message `outputs` sent.
  static func fields(_ outputs: [SessionOutput]) -> MoveClock?? {
    for case .send(let message) in outputs.reversed() {
      switch message {
      case .move(_, _, let clock), .openingChoice(_, _, let clock): return .some(clock)
      default: continue
      }
    }
    return nil
  }

  /// Each side's time left as each side's clock keeps it: (host's own, host's view of the joiner's, joiner's own,
  /// joiner's view of the host's).
  static func left(_ pair: SessionPair) -> [Int] {
    let host = pair.host.clock
    let joiner = pair.joiner.clock
    return [
      host?.left[.x] ?? -1, host?.left[.o] ?? -1, joiner?.left[.o] ?? -1, joiner?.left[.x] ?? -1,
    ]
  }

  @Test func theFirstPlayersClockRunsFromItsFirstStoneAndItsThreeStonesAreOneTurn() throws {
    var pair = try Self.match()
    #expect(pair.host.runningClock == .mine && pair.joiner.runningClock == .peer)
    pair.now = 4
    let first = try pair.host.play(Self.three[0], now: pair.now)
    #expect(Self.fields(first) == .some(nil), "a stone within the turn carries no clock fields")
    pair.deliver(fromHost: first)
    pair.now = 7
    pair.deliver(fromHost: try pair.host.play(Self.three[1], now: pair.now))
    #expect(pair.joiner.runningClock == .peer && pair.host.clock?.left[.x] == 60_000)
    pair.now = 10
    let third = try pair.host.play(Self.three[2], now: pair.now)
    #expect(Self.fields(third) == .some(MoveClock(thinking: 10_000, echo: nil)), "the turn's 10 s in one charge")
    pair.deliver(fromHost: third)
    // 60 − 10 + 2 on both sides; the second player's clock runs while it chooses.
    #expect(Self.left(pair) == [52_000, 60_000, 60_000, 52_000])
    #expect(pair.host.runningClock == .peer && pair.joiner.runningClock == .mine)
    #expect(pair.joiner.agreedTimes(plies: 3) == pair.host.agreedTimes(plies: 3))
  }

  @Test func aChoiceOfBlackEndsTheTurnWithTheClockFieldsAndTheEcho() throws {
    var pair = try Self.match()
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    pair.now = 5
    let choice = try pair.joiner.choose(.black, now: pair.now)
    #expect(Self.fields(choice) == .some(MoveClock(thinking: 5_000, echo: 0)), "the echo of the host's free start")
    pair.deliver(fromJoiner: choice)
    #expect(Self.left(pair) == [62_000, 57_000, 57_000, 62_000])
    // The host, now white (O), moves; its clock is the first player's whatever its colour.
    #expect(pair.host.myMark == .o && pair.host.runningClock == .mine && pair.joiner.runningClock == .peer)
    pair.now = 8
    let white = try pair.host.play(p(0, 0), now: pair.now)
    #expect(Self.fields(white) == .some(MoveClock(thinking: 3_000, echo: 5_000)))
    pair.deliver(fromHost: white)
    #expect(Self.left(pair) == [61_000, 57_000, 57_000, 61_000])
    let clocks = try #require(pair.host.clockMarks)
    #expect(clocks.mine == .x && pair.host.clockMark(of: .o) == .x, "the host's clock is the first player's")
  }

  @Test func aChoiceOfWhiteGoesOnWithStoneFourInTheSameTurn() throws {
    var pair = try Self.match()
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    pair.now = 2
    let choice = try pair.joiner.choose(.white, now: pair.now)
    #expect(Self.fields(choice) == .some(nil), "white moves next: the turn goes on")
    pair.deliver(fromJoiner: choice)
    #expect(pair.host.runningClock == .peer && pair.joiner.runningClock == .mine)
    pair.now = 6
    let stone = try pair.joiner.play(p(0, 0), now: pair.now)
    #expect(Self.fields(stone) == .some(MoveClock(thinking: 6_000, echo: 0)))
    pair.deliver(fromJoiner: stone)
    #expect(Self.left(pair) == [62_000, 56_000, 56_000, 62_000])
    #expect(pair.host.runningClock == .mine && pair.host.myMark == .x)
    // Each stone's time as the records keep it: the host's turn on stone 3, the joiner's on stone 4.
    let times = pair.host.agreedTimes(plies: 4)
    #expect(times == pair.joiner.agreedTimes(plies: 4))
    #expect(times.map(\.charged) == [0, 0, 0, 6_000] && times.map(\.left) == [60_000, 60_000, 62_000, 56_000])
  }

  @Test func placeTwoStonesAreOneTurnAndTheFirstPlayersChoiceAnother() throws {
    var pair = try Self.match(.perMove(20_000))
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    pair.now = 1
    pair.deliver(fromJoiner: try pair.joiner.choose(.placeTwo, now: pair.now))
    pair.now = 3
    pair.deliver(fromJoiner: try pair.joiner.play(p(6, 6), now: pair.now))
    pair.now = 5
    let fifth = try pair.joiner.play(p(9, 9), now: pair.now)
    #expect(Self.fields(fifth) == .some(MoveClock(thinking: 5_000, echo: 0)))
    pair.deliver(fromJoiner: fifth)
    #expect(pair.host.myTurn && pair.host.runningClock == .mine && pair.host.clockTurn == 2)
    pair.now = 12
    let choice = try pair.host.choose(.black, now: pair.now)
    #expect(Self.fields(choice) == .some(MoveClock(thinking: 7_000, echo: 5_000)))
    pair.deliver(fromJoiner: [])
    pair.deliver(fromHost: choice)
    #expect(pair.joiner.runningClock == .mine && pair.joiner.myMark == .o && pair.joiner.clockTurn == 3)
    // Per move: a turn has its 20 s again, whatever the turn before it used.
    #expect(Self.left(pair) == [20_000, 20_000, 20_000, 20_000])
    #expect(pair.host.agreedTimes(plies: 5) == pair.joiner.agreedTimes(plies: 5) && pair.closings.isEmpty)
  }

  @Test func aPlayerOutOfTimeInTheOpeningMayNotActAndLosesOnTime() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    // The host's deadline: the joiner's 10 s and A.
    #expect(pair.host.flagDeadline == 11 && pair.joiner.flagDeadline == nil)
    TimedGameTests.wait(&pair, until: 10.5)
    #expect(throws: PlayError.outOfTime) { try pair.joiner.choose(.black, now: 10.5) }
    TimedGameTests.wait(&pair, until: 11)
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
    #expect(pair.host.flagFacts == pair.joiner.flagFacts && pair.host.flagFacts?.thinking == 11_000)
    #expect(pair.host.game == pair.joiner.game && pair.host.runningClock == nil && pair.closings.isEmpty)
  }

  @Test func aClaimVoidsTheStonesOfTheTurnItIsAboutOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    try pair.hostPlays(Self.three[0])
    try pair.hostPlays(Self.three[1])
    pair.settle()
    #expect(pair.joiner.game?.history.count == 2 && pair.joiner.flagDeadline == 11)
    TimedGameTests.wait(&pair, until: 11)
    #expect(pair.host.lastResult == .lostOnTime(loser: .x) && pair.joiner.lastResult == .lostOnTime(loser: .x))
    #expect(pair.host.game == pair.joiner.game && pair.host.game?.history.isEmpty == true)
    #expect(pair.host.swap2?.opening.log.isEmpty == true && pair.joiner.swap2?.opening.log.isEmpty == true)
    #expect(pair.host.flagFacts == pair.joiner.flagFacts && pair.closings.isEmpty)
  }

  @Test func aChoiceThatCrossedTheClaimIsVoidAndTheColoursUnsettled() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    // The joiner takes black after 6 s; its choice is slow to arrive and the host's clock says it ran out.
    TimedGameTests.wait(&pair, until: 6)
    pair.send(fromJoiner: try pair.joiner.choose(.black, now: pair.now))
    let held = pair.toHost.removeLast()
    #expect(pair.joiner.myMark == .x)
    TimedGameTests.wait(&pair, until: 10)
    pair.now = 11
    pair.send(fromHost: pair.host.tick(now: pair.now))
    pair.toHost.insert(held, at: 0)
    pair.settle()
    #expect(pair.joiner.swap2?.opening.isSettled == false && pair.joiner.myMark == .o)
    #expect(pair.host.lastResult == .disputed(claimant: .x) && pair.joiner.lastResult == .disputed(claimant: .x))
    #expect(pair.host.flagFacts?.thinking == 6_000 && pair.host.flagFacts == pair.joiner.flagFacts)
    #expect(pair.host.swap2?.opening.log == pair.joiner.swap2?.opening.log && pair.closings.isEmpty)
  }

  @Test func clockFieldsOutOfPlaceAreViolations() throws {
    var pair = try Self.match()
    let early = Message.move(ply: 0, position: Self.three[0], clock: MoveClock(thinking: 0, echo: nil))
    let outputs = pair.joiner.receive(early, now: 0)
    #expect(SessionPair.violation(outputs, containing: "a move with clock fields within its turn"))
    var other = try Self.match()
    for cell in Self.three.prefix(2) { try other.hostPlays(cell) }
    other.settle()
    let last = Message.move(ply: 2, position: Self.three[2])
    #expect(
      SessionPair.violation(
        other.joiner.receive(last, now: 0), containing: "a move that ends its turn without its thinking time"))
  }

  @Test func aTimedSwap2GameIsPlayedToItsEndWithBothRecordsTimesAlike() throws {
    var pair = try Self.match(.fischer(base: 300_000, increment: 3_000))
    for cell in Self.three {
      pair.now += 1
      try pair.hostPlays(cell)
      pair.settle()
    }
    pair.now += 2
    pair.deliver(fromJoiner: try pair.joiner.choose(.placeTwo, now: pair.now))
    for cell in [p(6, 6), p(9, 9)] {
      pair.now += 1.5
      try pair.joinerPlays(cell)
      pair.settle()
    }
    pair.now += 3
    pair.deliver(fromHost: try pair.host.choose(.white, now: pair.now))
    // The host, white, makes five down column 3 while the joiner plays along row 14.
    for row in 0..<4 {
      pair.now += 1
      try pair.play(p(row, 3))
      pair.now += 1
      try pair.play(p(14, row))
    }
    pair.now += 1
    try pair.play(p(4, 3))
    #expect(pair.host.lastResult == .line(winner: .o) && pair.closings.isEmpty)
    let plies = try #require(pair.host.game?.history.count)
    #expect(pair.host.agreedTimes(plies: plies) == pair.joiner.agreedTimes(plies: plies))
    #expect(pair.host.agreedTimes(plies: plies).map(\.charged).reduce(0, +) > 0)
  }
}

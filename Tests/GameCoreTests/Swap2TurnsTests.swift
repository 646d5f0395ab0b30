import Testing

@testable import GameCore

/// The turns of a Swap2 game (PROTOCOL.md rule 14), which a network game's clocks and a local game's count alike:
/// runs of one player's actions; the opening replayed from its stones and choices; a local clock's sides and each
/// stone's time for a record.
@Suite struct Swap2TurnsTests {
  static let rules = try! Rules(size: 15, k: 5)
  static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let five = [p(7, 7), p(7, 8), p(8, 8), p(0, 0), p(1, 1)]

  @Test func turnsAreRunsOfOnePlayersActions() throws {
    var opening = try Swap2(rules: Self.rules)
    #expect(opening.turn == 0)
    for stone in Self.five.prefix(3) { try opening.place(stone, by: .first) }
    #expect(opening.turn == 1, "the second player acts: its turn")
    try opening.choose(.placeTwo, by: .second)
    try opening.place(Self.five[3], by: .second)
    #expect(opening.turn == 1)
    try opening.place(Self.five[4], by: .second)
    #expect(opening.turn == 2)
    try opening.choose(.white, by: .first)
    try opening.place(Self.p(2, 2), by: .first)
    #expect(opening.turn == 3 && opening.actor == .second)
    #expect((0..<6).map { opening.turn(ofStone: $0, current: opening.turn) } == [0, 0, 0, 1, 1, 2])
    #expect(opening.turn(ofStone: 8, current: 3) == 5, "beyond the log, a turn a move")
    #expect(opening.actionsBefore(turn: 1) == 3 && opening.actionsBefore(turn: 2) == 6)
    let stones = opening.stoneTurns(plies: 6, current: 3, now: 3)
    #expect(stones.map(\.turn) == [0, 0, 0, 1, 1, 2])
    #expect(stones.map(\.endsTurn) == [false, false, true, false, true, true])
    #expect(opening.stoneTurns(plies: 6, current: 2, now: 2).last?.endsTurn == false, "a turn still running")
  }

  @Test func anOpeningReplaysFromItsStonesAndChoices() throws {
    let two = try Swap2(rules: Self.rules, stones: Self.five, choices: [.placeTwo])
    #expect(two.step == .firstChooses && two.game.history.count == 5 && two.actor == .first)
    let settled = try Swap2(rules: Self.rules, stones: Self.five, choices: [.placeTwo, .black])
    #expect(settled.isSettled && settled.mark(of: .first) == .x)
    let waiting = try Swap2(rules: Self.rules, stones: Self.five, choices: [])
    #expect(waiting.step == .secondChooses && waiting.game.history.count == 3, "stones stop at a choice due")
    #expect(throws: Swap2Error.self) {
      try Swap2(rules: Self.rules, stones: Array(Self.five.prefix(2)), choices: [.black])
    }
    #expect(throws: Swap2Error.self) { try Swap2(rules: Self.rules, stones: Self.five, choices: [.black, .white]) }
  }

  @Test func aLocalClocksSidesAreThePlacesAndEachStoneKeepsItsTurnsTime() throws {
    var opening = try Swap2(rules: Self.rules, stones: Self.five, choices: [.placeTwo])
    var clock = try #require(LocalClock.swap2(.fischer(base: 30_000, increment: 1_000), now: 0))
    #expect(clock.running == .x && clock.countsTurns)
    clock.moved(now: 4)  // turn 0
    clock.moved(now: 10)  // turn 1
    #expect(LocalClock.colour(ofSide: .x, in: opening) == .x, "before the colours are settled")
    try opening.choose(.white, by: .first)
    #expect(LocalClock.colour(ofSide: .x, in: opening) == .o && LocalClock.colour(ofSide: .o, in: opening) == .x)
    // Stone 6 not yet placed: the first player's turn runs, and no stone has its time yet.
    #expect(
      clock.stoneCharges(in: opening) == [
        .init(charged: 0, left: 30_000), .init(charged: 0, left: 30_000), .init(charged: 4_000, left: 27_000),
        .init(charged: 0, left: 30_000), .init(charged: 6_000, left: 25_000),
      ])
    #expect(clock.flagIfDue(now: 10 + 27) == .x && clock.flaggedColour(in: opening) == .o)
  }

  @Test func aUsualGamesClockKeepsEachMovesCharge() throws {
    var clock = try #require(LocalClock(.perMove(5_000), now: 0))
    #expect(!clock.countsTurns && clock.running == nil, "each side's first move is free")
    clock.moved(now: 1)
    clock.moved(now: 2)
    clock.moved(now: 4)
    #expect(clock.stoneCharges(in: nil) == clock.charges && clock.flaggedColour(in: nil) == nil)
  }
}

import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// A game kept through a restart while its Swap2 opening runs (PROTOCOL.md rule 19 and "Version 4: rule variants
/// and openings"): the offer and the journal carry the choices so far, and the game is taken up at the same step,
/// with the same stones and the same player to act, its clocks counting turns again when timed.
@Suite struct KeptSwap2Tests {
  private static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let rules = try! Rules(size: 15, k: 5)
  static let three = [p(7, 7), p(7, 8), p(8, 8)]

  /// Host the first player; the host's three stones, the joiner's "place two more" and its stone 4 (`timed`: at a
  /// second each, the joiner's turn from second 3).
  static func midOpening(_ control: TimeControl) throws -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, timeControl: control, opening: .swap2)
    pair.startMatch()
    for cell in three {
      pair.now += 1
      try pair.hostPlays(cell)
      pair.settle()
    }
    pair.now += 1
    pair.deliver(fromJoiner: try pair.joiner.choose(.placeTwo, now: pair.now))
    pair.now += 1
    try pair.joinerPlays(p(6, 6))
    pair.settle()
    try #require(pair.joiner.swap2?.opening.step == .placeTwo && pair.joiner.myTurn)
    return pair
  }

  /// The joiner's program restarted 10 s later with its journal; the host's new session offers the game.
  static func comeBack(_ old: SessionPair, journal: KeptGame?, control: TimeControl) -> SessionPair {
    var pair = SessionPair(hostCoin: 7, joinerCoin: 9, rules: rules, timeControl: control, opening: .swap2)
    pair.now = old.now + 10
    pair.host.keptGameToOffer = old.host.keptOffer(now: pair.now)
    pair.joiner.journalGame = journal
    pair.startMatch()
    return pair
  }

  static func journal(_ pair: SessionPair) throws -> KeptGame {
    try #require(GameJournal(of: pair.joiner, myKey: "bob", peerKey: "alice")).kept
  }

  @Test func theOpeningResumesAtTheSameStepWithTheSameChooser() throws {
    let old = try Self.midOpening(.none)
    let journal = try Self.journal(old)
    #expect(journal.choices == [.placeTwo] && journal.moves.count == 4)
    var back = Self.comeBack(old, journal: journal, control: .none)
    for side in [back.host, back.joiner] {
      #expect(side.phase == .playing && side.inOpening && side.swap2?.opening == old.host.swap2?.opening)
    }
    #expect(back.host.swap2?.me == .first && back.joiner.swap2?.me == .second)
    #expect(back.joiner.myTurn && !back.host.myTurn && back.joiner.swap2?.opening.placing?.placed == 1)
    #expect(back.joinerEvents.contains(.resumed(game: 1, ply: 4)) && back.closings.isEmpty)
    // The opening goes on: stone 5, the first player's choice, and the game with the chosen colours.
    try back.joinerPlays(Self.p(9, 9))
    back.settle()
    #expect(back.host.openingChoices == [.black, .white])
    back.deliver(fromHost: try back.host.choose(.white, now: back.now))
    #expect(back.host.myMark == .o && back.joiner.myMark == .x && back.host.myTurn && !back.host.inOpening)
    try back.play(Self.p(0, 0))
    #expect(back.host.game == back.joiner.game && back.host.game?.history.count == 6 && back.closings.isEmpty)
    #expect(
      back.host.openingChoicesMade == [.placeTwo, .white] && back.joiner.openingChoicesMade == [.placeTwo, .white])
  }

  @Test func aTimedOpeningComesBackWithTheTurnsClocks() throws {
    let control = TimeControl.fischer(base: 60_000, increment: 2_000)
    let old = try Self.midOpening(control)
    let back = Self.comeBack(old, journal: try Self.journal(old), control: control)
    // The joiner's turn (turn 1) ran from second 3, on through the 10 s it was away.
    #expect(back.joiner.runningClock == .mine && back.host.runningClock == .peer)
    #expect(back.host.clockTurn == 1 && back.joiner.clockTurn == 1)
    let joinerLeft = old.host.clock?.remaining(.o, now: back.now)
    #expect(joinerLeft == 60_000 - 12_000)
    #expect(back.joiner.clock?.remaining(.o, now: back.now) == joinerLeft)
    #expect(back.host.clock?.remaining(.o, now: back.now) == joinerLeft)
    #expect(back.host.clock?.left[.x] == 59_000 && back.joiner.clock?.left[.x] == 59_000)
    #expect(back.host.agreedTimes(plies: 4) == back.joiner.agreedTimes(plies: 4))
  }

  @Test func aJournalWithAnotherChoiceDisagreesAndTheJoinerLosesTheGame() throws {
    let old = try Self.midOpening(.none)
    let kept = try Self.journal(old)
    let other = KeptGame(
      rules: kept.rules, gameNumber: kept.gameNumber, hostPlaysX: kept.hostPlaysX, moves: kept.moves,
      score: kept.score, choices: [.white])
    let back = Self.comeBack(old, journal: other, control: .none)
    #expect(back.host.lastResult == .abandoned(loser: .o) && back.joiner.lastResult == .abandoned(loser: .o))
    #expect(other.agreement(with: kept) == .differs("the Swap2 choices differ (1 offered, 1 kept here)"))
  }

  @Test func anOfferCarriesTheChoicesAcrossTheWire() throws {
    let offer = Message.gameOffer(
      game: 2, hostPlaysX: false, moves: Self.three, timeLeft: [], score: [1, 0, 0], choices: [.placeTwo, .black])
    var decoder = FrameDecoder()
    decoder.feed(offer.bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == offer)
  }
}

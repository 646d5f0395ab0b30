import GameCore
import SessionTestSupport
import Testing
import UntrustedText
import WireProtocol

@testable import Session

/// A game kept through a restart (PROTOCOL.md rule 19), between two sessions in memory: the host that kept the game
/// offers it on the new connection, and the returning joiner's journal decides whether it is taken up; a game not
/// taken up is lost by the joiner, on both sides.
@Suite struct KeptGameTests {
  static let gomoku = try! Rules(size: 15, k: 5)
  static let control = TimeControl.fischer(base: 60_000, increment: 2_000)

  static func cell(_ index: Int) -> Position { Position(row: index / 15, column: index % 15) }

  /// A timed match, host X, with `count` moves played at a second's thought each.
  static func played(_ count: Int) throws -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: gomoku, timeControl: control)
    pair.startMatch()
    for index in 0..<count {
      pair.now += 1
      try pair.play(cell(index))
    }
    return pair
  }

  /// The joiner's program restarted `away` seconds after the last move: a new connection, a new joiner session
  /// holding `journal`, the host's new session offering the game its old one kept.
  static func comeBack(_ old: SessionPair, journal: KeptGame?, away: Double = 30) -> SessionPair {
    var pair = SessionPair(hostCoin: 7, joinerCoin: 9, rules: gomoku, timeControl: control)
    pair.now = old.now + away
    pair.host.keptGameToOffer = old.host.keptOffer(now: pair.now)
    pair.joiner.journalGame = journal
    pair.startMatch()
    return pair
  }

  static func journal(_ pair: SessionPair) throws -> KeptGame {
    try #require(GameJournal(of: pair.joiner, myKey: "bob", peerKey: "alice")).kept
  }

  @Test func aJoinerBackWithItsJournalTakesTheGameUpWhereItStood() throws {
    let old = try Self.played(5)
    let back = Self.comeBack(old, journal: try Self.journal(old))
    let moves = (0..<5).map(Self.cell)
    for side in [back.host, back.joiner] {
      #expect(side.phase == .playing && side.game?.history == moves && side.gameNumber == 1, "\(side.phase)")
    }
    #expect(back.host.myMark == .x && back.joiner.myMark == .o && back.joiner.myTurn)
    #expect(
      back.joinerEvents.contains(.resumed(game: 1, ply: 5)) && back.hostEvents.contains(.resumed(game: 1, ply: 5)))
    #expect(!back.hostEvents.contains { if case .gameEnded = $0 { true } else { false } })
    // The joiner's clock ran on while it was away: 30 s of O's 61 s, on both sides.
    let expected = old.host.clock!.remaining(.o, now: back.now)
    #expect(expected == 31_000)
    #expect(back.joiner.clock?.remaining(.o, now: back.now) == expected)
    #expect(back.host.clock?.remaining(.o, now: back.now) == expected)
    #expect(back.joiner.clock?.remaining(.x, now: back.now) == old.host.clock!.remaining(.x, now: back.now))
    // Play goes on, and both boards stay the same.
    var pair = back
    for index in 5..<9 {
      pair.now += 1
      try pair.play(Self.cell(index))
    }
    #expect(pair.host.game?.history == pair.joiner.game?.history && pair.host.game?.history.count == 9)
    #expect(pair.host.clock?.remaining(.o, now: pair.now) == pair.joiner.clock?.remaining(.o, now: pair.now))
  }

  /// A move made and written to the journal but lost on the wire: the offered position stands, and the joiner
  /// plays again.
  @Test func aJournalOneMoveAheadStillTakesTheOfferedPosition() throws {
    var old = try Self.played(5)
    try old.joinerPlays(Self.cell(5))  // written here, never delivered
    old.toHost.removeAll()
    let journal = try Self.journal(old)
    #expect(journal.moves.count == 6)
    let back = Self.comeBack(old, journal: journal)
    #expect(back.joiner.game?.history.count == 5 && back.joiner.myTurn && back.host.phase == .playing)
  }

  /// Each move's agreed times go with the offer (field 5): after the restart both sides' clocks, and so both
  /// records, hold the times the keeper had for every move before it, even when the joiner's own list differs by
  /// an echo that never arrived (its move carrying the echo was written to its journal, then lost on the wire).
  @Test func theMovesBeforeTheRestartKeepTheirAgreedTimesOnBothSides() throws {
    var old = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.gomoku, timeControl: Self.control)
    old.startMatch()
    for (index, thought) in [1.0, 2, 3.5, 1.25].enumerated() {
      old.now += thought
      try old.play(Self.cell(index))
    }
    // The host thinks 4 s and its move takes 1.5 s to arrive: the joiner charges it 4.5 s (0.5 s past A).
    old.now += 4
    let move = try old.host.play(Self.cell(4), now: old.now)
    old.now += 1.5
    old.send(fromHost: move)
    old.settle()
    let kept = try #require(old.host.clock?.agreedTimes(plies: 5))
    #expect(kept.map(\.charged) == [0, 0, 3_500, 1_250, 4_000] && kept[3].left == 60_000 - 1_250 + 2_000)
    old.now += 2
    try old.joinerPlays(Self.cell(5))  // echoes 4.5 s; written to its journal, never delivered
    old.toHost.removeAll()
    let journal = try Self.journal(old)
    #expect(
      journal.times.count == 6 && journal.times[4].charged == 4_500
        && journal.times.prefix(4).elementsEqual(kept.prefix(4)))
    var back = Self.comeBack(old, journal: journal)
    #expect(back.joiner.game?.history.count == 5 && back.joiner.myTurn)
    for side in [back.host, back.joiner] {
      #expect(side.clock?.agreedTimes(plies: 5) == kept, "\(side.configuration.role)")
    }
    back.now += 1
    try back.play(Self.cell(5))
    back.now += 2
    try back.play(Self.cell(6))
    let host = back.host.clock?.agreedTimes(plies: 7)
    #expect(host == back.joiner.clock?.agreedTimes(plies: 7) && host?.prefix(5).elementsEqual(kept) == true)
  }

  /// The score of the games before the kept one goes with the offer (field 6) and is checked against the
  /// journal's: both sides count on from it; a journal with another score keeps another match's game.
  @Test func theScoreOfTheGamesBeforeGoesWithTheKeptGame() throws {
    var old = try Self.played(2)
    old.deliver(fromJoiner: try old.joiner.resign(now: old.now))
    old.deliver(fromHost: try old.host.offerRematch(now: old.now))
    old.deliver(fromJoiner: try old.joiner.offerRematch(now: old.now))
    for index in 0..<3 {
      old.now += 1
      try old.play(Self.cell(20 + index))
    }
    #expect(old.host.gameNumber == 2 && old.host.score.wins == 1 && old.joiner.score.losses == 1)
    let journal = try Self.journal(old)
    #expect(journal.score == MatchScore(hostWins: 1, joinerWins: 0, draws: 0))
    let back = Self.comeBack(old, journal: journal)
    #expect(back.joiner.phase == .playing && back.joiner.gameNumber == 2, "\(back.joinerEvents)")
    #expect(back.host.score == old.host.score && back.joiner.score == old.joiner.score)

    let other = KeptGame(
      rules: journal.rules, gameNumber: 2, hostPlaysX: journal.hostPlaysX, moves: journal.moves,
      score: MatchScore(hostWins: 0, joinerWins: 1, draws: 0))
    let lost = Self.comeBack(old, journal: other)
    #expect(lost.joiner.lastResult == .abandoned(loser: lost.joiner.myMark ?? .x) && lost.host.phase == .betweenGames)
    #expect(lost.host.score.wins == 2 && lost.joiner.score.losses == 2)
  }

  /// A returning program of before 2026-12-02 reads neither the moves' times nor the score (fields 5 and 6) and
  /// does not say `readAll`: the side that kept the game takes neither up either, so both hold the same game (the
  /// earlier moves at a charge of 0, the score counted from the kept game).
  @Test func anOlderReturningProgramLeavesTheTimesAndTheScoreOutOnBothSides() throws {
    var old = try Self.played(2)
    old.deliver(fromJoiner: try old.joiner.resign(now: old.now))
    old.deliver(fromHost: try old.host.offerRematch(now: old.now))
    old.deliver(fromJoiner: try old.joiner.offerRematch(now: old.now))
    for index in 0..<4 {
      old.now += 1.5
      try old.play(Self.cell(20 + index))
    }
    var pair = SessionPair(hostCoin: 7, joinerCoin: 9, rules: Self.gomoku, timeControl: Self.control)
    pair.now = old.now + 10
    pair.host.keptGameToOffer = old.host.keptOffer(now: pair.now)
    pair.joiner.journalGame = try Self.journal(old)
    let hello = pair.joiner.start(now: pair.now)
    pair.send(fromHost: pair.host.start(now: pair.now))
    pair.send(fromJoiner: hello)
    pair.settle()
    pair.send(fromHost: pair.host.accept(now: pair.now))
    while pair.deliverToJoiner() {}
    guard case .gameTaken(.taken, _, true)? = pair.toHost.last else {
      Issue.record("the joiner's answer: \(pair.toHost)")
      return
    }
    pair.toHost[pair.toHost.count - 1] = .gameTaken(.taken, text: "")  // as an older program says it
    pair.settle()
    #expect(pair.host.phase == .playing && pair.host.game?.history.count == 4, "\(pair.hostEvents)")
    #expect(pair.host.clock?.agreedTimes(plies: 4).map(\.charged) == [0, 0, 0, 0])
    #expect(pair.host.score == NetSession.Score())
    // Taken up with readAll, the same offer keeps them (the joiner's side here, which read both).
    #expect(pair.joiner.clock?.agreedTimes(plies: 4).map(\.charged) == [0, 0, 1_500, 1_500])
    #expect(pair.joiner.score.losses == 1)
  }

  static func lostByTheJoiner(_ back: SessionPair, reason: String) {
    for side in [back.host, back.joiner] {
      #expect(side.phase == .betweenGames && side.lastResult == .abandoned(loser: .o) && side.gameNumber == 1)
      #expect(side.game?.history.count == 5)
    }
    #expect(back.host.score.wins == 1 && back.joiner.score.losses == 1)
    let told = back.hostEvents.compactMap { event -> String? in
      if case .gameFlow(.keptGameLost(.o, let text, .joiner)) = event { text.description } else { nil }
    }
    #expect(told.count == 1 && told[0].contains(reason), "\(told)")
    #expect(
      back.joinerEvents.contains { if case .gameFlow(.keptGameLost(.o, _, .joiner)) = $0 { true } else { false } })
  }

  @Test func aJournalOfAnotherGameLosesTheKeptGame() throws {
    let old = try Self.played(5)
    var other = try Self.journal(old).moves
    other[3] = Position(row: 9, column: 9)
    let journal = KeptGame(rules: Self.gomoku, gameNumber: 1, hostPlaysX: true, moves: other)
    var back = Self.comeBack(old, journal: journal)
    Self.lostByTheJoiner(back, reason: "move 4 differs")
    // The match goes on: a rematch starts game 2 with the first player alternated.
    back.deliver(fromHost: try back.host.offerRematch(now: back.now))
    back.deliver(fromJoiner: try back.joiner.offerRematch(now: back.now))
    #expect(back.host.gameNumber == 2 && back.joiner.gameNumber == 2 && back.joiner.myMark == .x)
    #expect(back.host.phase == .playing && back.host.myMark == .o)
  }

  /// Without a journal the joiner's player is shown the position and asked; the host waits for the answer.
  static func asked(_ old: SessionPair) -> SessionPair {
    let back = Self.comeBack(old, journal: nil)
    #expect(back.joiner.keptGameAsked?.moves.count == 5 && back.joiner.game?.history.count == 5)
    #expect(back.joinerEvents.contains(.gameFlow(.keptGameOffered(ply: 5))) && !back.joiner.myTurn)
    #expect(back.host.phase == .tossing && back.joiner.phase == .tossing)
    #expect(throws: PlayError.self) {
      var joiner = back.joiner
      _ = try joiner.play(Self.cell(5), now: back.now)
    }
    return back
  }

  @Test func withoutAJournalThePlayerIsAskedAndDecliningLosesTheKeptGame() throws {
    var back = Self.asked(try Self.played(5))
    back.deliver(fromJoiner: back.joiner.answerKeptGame(accept: false, now: back.now))
    Self.lostByTheJoiner(back, reason: "its player did not take it up")
  }

  /// Taken up after the player thought for 10 s: those 10 s were O's, on both clocks.
  @Test func withoutAJournalThePlayerMayTakeTheGameUpOnItsOwnTime() throws {
    let old = try Self.played(5)
    var back = Self.asked(old)
    back.now += 10
    back.deliver(fromJoiner: back.joiner.answerKeptGame(accept: true, now: back.now))
    for side in [back.host, back.joiner] {
      #expect(
        side.phase == .playing && side.game?.history.count == 5 && side.clock?.remaining(.o, now: back.now) == 21_000)
    }
    #expect(back.joiner.myTurn && back.joinerEvents.contains(.resumed(game: 1, ply: 5)))
    #expect(back.hostEvents.contains(.resumed(game: 1, ply: 5)))
    back.now += 1
    try back.play(Self.cell(5))
    #expect(back.host.game?.history == back.joiner.game?.history && back.host.game?.history.count == 6)
  }

  @Test func withNothingKeptTheCoinIsTossedAsBefore() throws {
    let old = try Self.played(5)
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.gomoku, timeControl: Self.control)
    pair.joiner.journalGame = try Self.journal(old)
    pair.startMatch()
    #expect(pair.host.phase == .playing && pair.host.game?.history.isEmpty == true && !pair.host.firstPlayerWasKept)
    // An older joiner (version 2) is offered nothing either: its first player is kept as before.
    var older = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.gomoku, joinerVersions: [2])
    older.host.keptGameToOffer = old.host.keptOffer(now: old.now)
    older.host.keptHostPlaysX = true
    older.startMatch()
    #expect(older.host.firstPlayerWasKept && older.host.game?.history.isEmpty == true)
  }

  @Test func anOfferOrAnAnswerNobodyAskedForIsAViolation() throws {
    var pair = try Self.played(2)
    pair.send(fromHost: [.send(.gameOffer(game: 1, hostPlaysX: true, moves: [], timeLeft: []))])
    pair.settle()
    #expect(pair.joiner.isClosed && pair.host.isClosed)
    var other = try Self.played(2)
    other.send(fromJoiner: [.send(.gameTaken(.taken, text: ""))])
    other.settle()
    guard case .closed(.protocolViolation(let text)) = other.host.phase else {
      Issue.record("\(other.host.phase)")
      return
    }
    #expect(text.contains("answer to the offer of a kept game"))
  }

  @Test func anOfferThatCannotBePlayedIsAViolation() throws {
    let old = try Self.played(3)
    var pair = SessionPair(hostCoin: 7, joinerCoin: 9, rules: Self.gomoku, timeControl: Self.control)
    let twice = [Self.cell(0), Self.cell(0)]
    pair.host.keptGameToOffer = KeptOffer(
      KeptGame(rules: Self.gomoku, gameNumber: 1, hostPlaysX: true, moves: twice), timeLeft: [])
    pair.joiner.journalGame = try Self.journal(old)
    pair.startMatch()
    guard case .closed(.protocolViolation(let text)) = pair.joiner.phase else {
      Issue.record("\(pair.joiner.phase)")
      return
    }
    #expect(text.contains("cannot be played"))
  }
}

/// A joiner that goes away again while the game offered waits for its answer cannot make it vanish.
@Suite struct KeptGameAwayAgainTests {
  @Test func aJoinerGoneBeforeItAnsweredIsOfferedTheGameAgainOrLosesItByClaim() throws {
    let old = try KeptGameTests.played(5)
    var back = KeptGameTests.comeBack(old, journal: nil)
    #expect(back.joiner.keptGameAsked != nil && back.host.phase == .tossing)
    back.drop()
    // Coming back once more, it is offered the same game.
    let again = try #require(back.host.keptOffer(now: back.now))
    #expect(again.game.moves.count == 5 && again.game.gameNumber == 1)
    // Nobody comes back: once the grace period is over the host claims that game.
    back.now += 200
    back.send(fromHost: back.host.tick(now: back.now))
    #expect(back.host.graceExpired && back.hostEvents.contains(.graceExpired))
    back.send(fromHost: try back.host.claim(now: back.now))
    #expect(back.host.lastResult == .abandoned(loser: .o) && back.host.score.wins == 1)
    #expect(back.host.game?.history.count == 5)
    guard case .closed(.peerDidNotReturn(_, claimed: true)) = back.host.phase else {
      Issue.record("\(back.host.phase)")
      return
    }
  }
}

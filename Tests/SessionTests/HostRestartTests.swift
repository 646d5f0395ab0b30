import GameCore
import SessionTestSupport
import Testing
import UntrustedText
import WireProtocol

@testable import Session

/// A host restarted while its joiner kept the game (PROTOCOL.md rule 19), between sessions in memory: the joiner's
/// session that kept the game asks to resume on a new connection, the restarted host's new session greets it with
/// hello saying it takes a kept game back, the joiner offers its game and the host's journal decides. A game not
/// taken up is lost by the host, the side that went away, on both sides.
@Suite struct HostRestartTests {
  /// A timed gomoku match, host X, with five moves played at a second's thought each.
  static func played() throws -> SessionPair { try KeptGameTests.played(5) }

  /// The host's program restarted just after the last move of `old`; `away` seconds later the joiner, which kept
  /// the game, reaches the new host session holding `journal`. Both speak at once: the joiner `resume`, the host
  /// hello.
  static func hostComesBack(
    _ old: SessionPair, journal: KeptGame?, takesBack: Bool = true, away: Double = 30
  ) -> SessionPair {
    var pair = SessionPair(hostCoin: 7, joinerCoin: 9, rules: KeptGameTests.gomoku, timeControl: KeptGameTests.control)
    pair.joiner = old.joiner
    _ = pair.joiner.connectionLost(now: old.now)
    pair.now = old.now + away
    pair.host.takesKeptGameBack = takesBack
    pair.host.journalGame = journal
    pair.send(fromHost: pair.host.start(now: pair.now))
    pair.send(fromJoiner: pair.joiner.requestResume(now: pair.now))
    pair.settle()
    pair.deliver(fromHost: pair.host.accept(now: pair.now))
    return pair
  }

  static func hostJournal(_ pair: SessionPair) throws -> KeptGame {
    try #require(GameJournal(of: pair.host, myKey: "alice", peerKey: "bob")).kept
  }

  @Test func aHostBackWithItsJournalTakesTheJoinersGameUpWhereItStood() throws {
    let old = try Self.played()
    let back = Self.hostComesBack(old, journal: try Self.hostJournal(old))
    let moves = (0..<5).map(KeptGameTests.cell)
    for side in [back.host, back.joiner] {
      #expect(side.phase == .playing && side.game?.history == moves && side.gameNumber == 1, "\(side.phase)")
    }
    #expect(back.host.myMark == .x && back.joiner.myMark == .o && back.joiner.myTurn)
    #expect(back.joinerEvents.contains(.resumed(game: 1, ply: 5)))
    #expect(back.hostEvents.contains(.resumed(game: 1, ply: 5)))
    #expect(!back.hostEvents.contains { if case .coinCommit = Self.sent($0) { true } else { false } })
    // The clock of the side to move (O, the joiner) ran on while the host was away: 30 s of O's 61 s.
    let expected = old.joiner.clock!.remaining(.o, now: back.now)
    #expect(expected == 31_000)
    #expect(back.host.clock?.remaining(.o, now: back.now) == expected)
    #expect(back.joiner.clock?.remaining(.o, now: back.now) == expected)
    #expect(back.host.clock?.remaining(.x, now: back.now) == old.joiner.clock!.remaining(.x, now: back.now))
    var pair = back
    for index in 5..<9 {
      pair.now += 1
      try pair.play(KeptGameTests.cell(index))
    }
    #expect(pair.host.game?.history == pair.joiner.game?.history && pair.host.game?.history.count == 9)
    #expect(pair.host.clock?.remaining(.x, now: pair.now) == pair.joiner.clock?.remaining(.x, now: pair.now))
  }

  /// The host's move reached the joiner but the host was killed before its journal was written: one move short
  /// still agrees, and the joiner's position stands.
  @Test func aHostJournalOneMoveBehindStillTakesTheJoinersPosition() throws {
    let old = try Self.played()
    let journal = try Self.hostJournal(old)
    let behind = KeptGame(
      rules: journal.rules, gameNumber: 1, hostPlaysX: true, moves: Array(journal.moves.dropLast()))
    let back = Self.hostComesBack(old, journal: behind)
    #expect(back.host.phase == .playing && back.host.game?.history.count == 5 && back.joiner.myTurn)
  }

  static func sent(_ output: SessionOutput) -> Message? {
    if case .send(let message) = output { message } else { nil }
  }

  /// Lost by the host (X), the side that went away, on both sides; each side told why.
  static func lostByTheHost(_ back: SessionPair, reason: String) {
    for side in [back.host, back.joiner] {
      #expect(side.phase == .betweenGames && side.lastResult == .abandoned(loser: .x) && side.gameNumber == 1)
      #expect(side.game?.history.count == 5)
    }
    #expect(back.host.score.losses == 1 && back.joiner.score.wins == 1)
    for events in [back.hostEvents, back.joinerEvents] {
      let told = events.compactMap { event -> String? in
        if case .gameFlow(.keptGameLost(.x, let text, .host)) = event { text.description } else { nil }
      }
      #expect(told.count == 1 && told[0].contains(reason), "\(told)")
    }
  }

  @Test func aHostJournalOfAnotherGameLosesTheKeptGameForTheHost() throws {
    let old = try Self.played()
    var other = try Self.hostJournal(old).moves
    other[3] = Position(row: 9, column: 9)
    var back = Self.hostComesBack(
      old, journal: KeptGame(rules: KeptGameTests.gomoku, gameNumber: 1, hostPlaysX: true, moves: other))
    Self.lostByTheHost(back, reason: "move 4 differs")
    #expect(
      back.hostEvents.compactMap(Self.sent).contains {
        if case .gameTaken(.disagrees, _, _) = $0 { true } else { false }
      })
    // The match goes on: a rematch starts game 2 with the first player alternated.
    back.deliver(fromHost: try back.host.offerRematch(now: back.now))
    back.deliver(fromJoiner: try back.joiner.offerRematch(now: back.now))
    #expect(back.host.gameNumber == 2 && back.joiner.gameNumber == 2 && back.host.myMark == .o)
    #expect(back.joiner.phase == .playing && back.joiner.myMark == .x)
  }

  @Test func aHostWithoutAJournalLosesTheKeptGame() throws {
    let back = Self.hostComesBack(try Self.played(), journal: nil)
    Self.lostByTheHost(back, reason: "keeps no journal")
    #expect(
      back.hostEvents.compactMap(Self.sent).contains {
        if case .gameTaken(.noJournal, _, _) = $0 { true } else { false }
      })
  }

  /// A host that does not say it takes a kept game back (older, or the practice bot) is left as before: the
  /// joiner learns the game is no longer held and stops, and the host takes its `resume` for a violation.
  @Test func aHostThatDoesNotSayItTakesGamesBackEndsTheKeptGameAsBefore() throws {
    let back = Self.hostComesBack(try Self.played(), journal: nil, takesBack: false)
    #expect(back.joiner.phase == .closed(.gameNoLongerHeld))
    #expect(back.host.isClosed && back.host.lastResult == nil)
  }

  /// A joiner that kept no game in progress (between games) has nothing to offer: the match is over as before.
  @Test func aJoinerBetweenGamesOffersNothing() throws {
    var old = try Self.played()
    old.send(fromHost: try old.host.resign(now: old.now))
    old.settle()
    #expect(old.joiner.phase == .betweenGames)
    let back = Self.hostComesBack(old, journal: nil)
    #expect(back.joiner.phase == .closed(.gameNoLongerHeld))
  }

  /// A host that said it takes games back and was welcomed by a joiner offering one must not also toss a coin or
  /// offer a game of its own: the joiner takes either for a violation.
  @Test func aJoinerOfferingItsGameRefusesTheHostsCoinOrOffer() throws {
    for intruder in [
      Message.coinCommit(digest: Array(repeating: 1, count: 32)),
      .gameOffer(game: 1, hostPlaysX: true, moves: [], timeLeft: []),
    ] {
      var pair = SessionPair(
        hostCoin: 7, joinerCoin: 9, rules: KeptGameTests.gomoku, timeControl: KeptGameTests.control)
      let old = try Self.played()
      pair.joiner = old.joiner
      _ = pair.joiner.connectionLost(now: old.now)
      pair.host.takesKeptGameBack = true
      pair.send(fromHost: pair.host.start(now: pair.now))
      pair.send(fromJoiner: pair.joiner.requestResume(now: pair.now))
      pair.deliverToJoiner()
      #expect(pair.joiner.phase == .awaitingWelcome)
      pair.send(fromJoiner: pair.joiner.receive(.welcome(version: 3, rules: KeptGameTests.gomoku), now: pair.now))
      pair.send(fromJoiner: pair.joiner.receive(intruder, now: pair.now))
      guard case .closed(.protocolViolation) = pair.joiner.phase else {
        Issue.record("\(intruder): \(pair.joiner.phase)")
        continue
      }
    }
  }
}

import GameCore
import PeerTrust
import PlayerSettings
import Session
import SessionTestSupport
import TerminalUI
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import PlayerFiles

/// A joiner's player consents to a host's timed terms before the game begins (PROTOCOL.md, "The terms"; issue
/// 24): asked once the host's hello is read, with what the host sends after it held (no coin share goes, so no
/// game starts on either side) and the host told meanwhile that the player is deciding; a yes plays the clock,
/// a no leaves with its own status on both sides. An untimed host is played at once.
@Suite struct TermsConsentTests {
  private static func sent(_ commands: [MatchCommand]) -> [Message] {
    commands.compactMap { if case .send(_, let message) = $0 { message } else { nil } }
  }

  private static func sharedTheCoin(_ commands: [MatchCommand]) -> Bool {
    sent(commands).contains { if case .coinShare = $0 { true } else { false } }
  }

  private static func asked(_ events: [MatchEvent]) -> [String]? {
    for case .askTerms(let lines) in events { return lines }
    return nil
  }

  @Test func aTimedHostsTermsArePutToTheJoinerBeforeItsHelloAndAYesPlaysTheClock() throws {
    var pair = MatchPair(clock: try TimeControl(parsing: "5+3"))
    pair.connect()
    let lines = try #require(Self.asked(pair.joinerEvents), "\(pair.joinerEvents)")
    #expect(lines == ["alice offers 3×3, 3 in a row, with a clock: 5 min + 3 s a move.", "Play on these terms?"])
    #expect(!Self.sharedTheCoin(pair.joinerCommands), "the game began before the player agreed")
    #expect(Self.sent(pair.joinerCommands).contains(.deciding))
    #expect(pair.started(pair.hostEvents) == 0)
    // The player reads for a minute: the host waits (it was told the player is deciding), and is told again.
    pair.joinerCommands = []
    for _ in 0..<60 { pair.advance(1) }
    #expect(pair.closedByHost.isEmpty, "\(pair.hostLog.suffix(3))")
    #expect(Self.sent(pair.joinerCommands).filter { $0 == .deciding }.count == 20)
    pair.joinerDid(pair.joiner.answer(accept: true, now: pair.now))
    pair.deliver()
    #expect(pair.started(pair.hostEvents) == 1 && pair.started(pair.joinerEvents) == 1)
    #expect(pair.joiner.session?.timeControl == .fischer(base: 300_000, increment: 3_000))
    #expect(pair.host.session?.clock != nil && pair.joiner.session?.clock != nil)
  }

  @Test func aNoLeavesWithItsOwnStatusOnBothSides() throws {
    var pair = MatchPair(clock: try TimeControl(parsing: "move:20s"))
    pair.connect()
    #expect(Self.asked(pair.joinerEvents) != nil)
    pair.joinerDid(pair.joiner.answer(accept: false, now: pair.now))
    pair.deliver()
    #expect(pair.joiner.finished == .session(.termsDeclined), "\(String(describing: pair.joiner.finished))")
    #expect(Self.sent(pair.joinerCommands).contains(.bye(.termsDeclined, text: "declined the terms")))
    #expect(pair.started(pair.hostEvents) == 0 && pair.closedByHost.contains(pair.links[0].host))
  }

  /// A host that floods the joiner while its player reads: what is held is bounded, and past the bound the
  /// match ends as the host's violation (nothing it sent was acted on).
  @Test func aHostFloodingTheJoinerWhileItsPlayerReadsIsCutOffAtTheBound() throws {
    var pair = MatchPair(clock: try TimeControl(parsing: "5+3"))
    pair.connect()
    #expect(Self.asked(pair.joinerEvents) != nil)
    let link = pair.links[0]
    // The host's welcome and coin commit are held already; its chat fills the rest.
    for index in 0..<(JoinerCoordinator.heldLimit - 2) {
      pair.joinerDid(pair.joiner.received(link.joiner, .chat("spam \(index)"), now: pair.now))
    }
    #expect(pair.joiner.finished == nil, "\(String(describing: pair.joiner.finished))")
    pair.joinerDid(pair.joiner.received(link.joiner, .chat("one more"), now: pair.now))
    #expect(!pair.joinerEvents.contains { if case .session(.chat) = $0 { true } else { false } })
    guard case .session(.protocolViolation(let text)) = pair.joiner.finished else {
      Issue.record("not ended as a violation: \(String(describing: pair.joiner.finished))")
      return
    }
    #expect(text.contains("more than 64 messages"))
  }

  /// A hostile host sends its welcome and a kept coin straight after its hello, while the player still reads the
  /// question about its key: nothing starts, and a no to the terms afterwards still ends the match (review of the
  /// first version: the game began before either answer, and the no did nothing).
  @Test func aHostThatStartsTheGameDuringTheTrustQuestionGetsNothingUntilBothAnswers() throws {
    var pair = MatchPair(clock: try TimeControl(parsing: "5+3"))
    pair.connect(joinerSees: MatchPair.newAlice)
    #expect(pair.joiner.question != nil)
    let link = pair.links[0]
    pair.joinerDid(pair.joiner.received(link.joiner, .welcome(version: 3, rules: MatchPair.rules), now: pair.now))
    pair.joinerDid(pair.joiner.received(link.joiner, .coinKept(hostPlaysX: true), now: pair.now))
    #expect(pair.started(pair.joinerEvents) == 0, "the game began during the trust question")
    pair.joinerDid(pair.joiner.answer(accept: true, now: pair.now))
    #expect(Self.asked(pair.joinerEvents) != nil && pair.started(pair.joinerEvents) == 0)
    pair.joinerDid(pair.joiner.answer(accept: false, now: pair.now))
    #expect(pair.joiner.finished != nil, "a no to the terms left the match going")
    #expect(pair.started(pair.joinerEvents) == 0)
  }

  @Test func anUntimedHostIsPlayedAtOnceAndANewHostsKeyIsAskedAboutFirst() throws {
    var untimed = MatchPair()
    untimed.connect()
    #expect(Self.asked(untimed.joinerEvents) == nil)
    #expect(untimed.started(untimed.joinerEvents) == 1)
    // A new key and a clock: the key first, then the terms, then the game.
    var timed = MatchPair(clock: try TimeControl(parsing: "1+0"))
    timed.connect(joinerSees: MatchPair.newAlice)
    #expect(timed.joiner.question != nil && Self.asked(timed.joinerEvents) == nil)
    timed.joinerDid(timed.joiner.answer(accept: true, now: timed.now))
    timed.deliver()
    #expect(Self.asked(timed.joinerEvents) != nil && timed.started(timed.joinerEvents) == 0)
    timed.joinerDid(timed.joiner.answer(accept: true, now: timed.now))
    timed.deliver()
    #expect(timed.started(timed.joinerEvents) == 1)
  }
}

/// Where a host's time control comes from: `--clock` on `host` and `host --bot` (refused in words when it does
/// not read), else the `clock` setting, which Options cycles and settings.conf keeps.
@Suite struct ClockOptionTests {
  @Test func hostTakesClockAndRefusesOneThatDoesNotRead() throws {
    guard case .host(let request, _, _, _) = try CommandLineParser.parse(["host", "--clock", "30s+2"]) else {
      Issue.record("not a host invocation")
      return
    }
    #expect(request.clock == .fischer(base: 30_000, increment: 2_000))
    guard case .bot(let bot, _, _) = try CommandLineParser.parse(["host", "--bot", "easy", "--clock", "move:20s"])
    else {
      Issue.record("not a bot invocation")
      return
    }
    #expect(bot.clock == .perMove(20_000))
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["host", "--clock", "5m+3"]) }
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["join", "127.0.0.1", "--clock", "5+3"]) }
  }

  @Test func theClockSettingIsReadWrittenAndRefusedWithItsLine() throws {
    let settings = try SettingsFile.parse("clock = 3+2\n", path: "s")
    #expect(settings.clock == .fischer(base: 180_000, increment: 2_000))
    #expect(SettingsFile.render(settings).contains("clock = 3+2\n"))
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    #expect(!SettingsFile.render(Settings()).contains("clock"), "an untimed default is not written")
    #expect(throws: FileError.self) { try SettingsFile.parse("size = 3\nclock = soon\n", path: "s") }
  }
}

/// With a peer that speaks version 2 the game is untimed and has no offers, and both screens say so once.
@Suite struct OlderPeerNoteTests {
  @Test func bothSidesAreToldWhatAVersionTwoPeerLacks() throws {
    var pair = SessionPair(
      hostCoin: 1, joinerCoin: 1, timeControl: .fischer(base: 60_000, increment: 0), joinerVersions: [2])
    pair.startMatch()
    let host = try #require(MatchWords.olderPeer(pair.host, peer: "Bob"))
    #expect(
      host
        == "Bob's program speaks protocol version 2: no draw offers, takebacks or abort and no clock (1+0 was offered)"
        + " in this match.")
    let joiner = try #require(MatchWords.olderPeer(pair.joiner, peer: "Alice"))
    #expect(joiner.hasPrefix("Alice's program speaks protocol version 2: no draw offers, takebacks or abort"))
    var current = SessionPair(hostCoin: 1, joinerCoin: 1, timeControl: .fischer(base: 60_000, increment: 0))
    current.startMatch()
    #expect(
      MatchWords.olderPeer(current.host, peer: "Bob") == nil && MatchWords.olderPeer(current.joiner, peer: "A") == nil)
  }
}

/// Leaving between games records nothing more (review: a draw by agreement, a loss on time or a resignation
/// followed by `quit` was recorded a second time, as a forfeit, on both sides).
@Suite struct LeavingAfterAGameEndsTests {
  @Test func quittingAfterADrawByAgreementOrAResignationAddsNoForfeit() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1)
    pair.startMatch()
    try pair.play(Position(row: 1, column: 1))
    pair.deliver(fromHost: try pair.host.offerDraw(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerDraw(now: 0))
    #expect(pair.host.lastResult == .drawAgreed)
    let quit = pair.host.quit(text: "bye", now: 0)
    #expect(quit.contains(.closed(.localQuit)))
    #expect(
      RecordOfGame.network(after: .closed(.localQuit), session: pair.host, myKey: nil, peerKey: nil, date: "") == nil)
    // During a game, leaving is still recorded as the leaver's loss.
    var playing = SessionPair(hostCoin: 1, joinerCoin: 1)
    playing.startMatch()
    try playing.play(Position(row: 1, column: 1))
    _ = playing.host.quit(text: "bye", now: 0)
    let left = RecordOfGame.network(
      after: .closed(.localQuit), session: playing.host, myKey: nil, peerKey: nil, date: "")
    #expect(left != nil)
  }
}

/// A joiner that has moved cannot decline the terms afterwards, even once a takeback undid its move (review:
/// the host then ended the match as declined and counted nothing, where the protocol says a quit).
@Suite struct DecliningAfterPlayingTests {
  @Test func aGoodbyeForDeclinedTermsAfterATakenBackMoveIsAQuit() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, timeControl: .fischer(base: 60_000, increment: 0))
    pair.startMatch()
    try pair.play(Position(row: 1, column: 1))
    try pair.play(Position(row: 0, column: 0))
    pair.deliver(fromJoiner: try pair.joiner.requestTakeback(now: 0))
    pair.deliver(fromHost: try pair.host.answerTakeback(accept: true, now: 0))
    #expect((pair.host.game?.history.count ?? 9) < 2, "the joiner's move was taken back")
    let outputs = pair.host.receive(.bye(.termsDeclined, text: "declined the terms"), now: 0)
    #expect(outputs.contains(.closed(.peerQuit("declined the terms"))), "\(outputs)")
  }
}

import GameCore
import PeerTrust
import Security
import Session
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import NetworkShell
@testable import PracticeBot

@Suite struct BotCommandLineTests {
  @Test func hostWithBotIsABotInvocation() throws {
    var request = HostRequest()
    request.port = 0
    request.size = 4
    request.k = 3
    var options = NetworkOptions()
    options.acceptNew = true
    options.name = "Robo"
    #expect(
      try CommandLineParser.parse(
        ["host", "--bot", "perfect", "--port", "0", "--size", "4", "--k=3", "--accept-new", "--name", "Robo"])
        == .bot(request, level: .perfect, options))
    #expect(try CommandLineParser.parse(["host", "--bot=easy"]) == .bot(HostRequest(), level: .easy, NetworkOptions()))
    #expect(CommandLineParser.usage.contains("--bot LEVEL"))
  }

  @Test(arguments: [
    (["host", "--bot", "great"], "--bot must be easy, normal or perfect, not \"great\""),
    (["host", "--bot"], "--bot needs a value: a level (easy, normal or perfect), or --engine COMMAND after it"),
    (["play", "--bot", "easy"], "--bot belongs to `tictactoe host`"),
    (["join", "h", "--bot", "easy"], "--bot belongs to `tictactoe host`"),
    (
      ["host", "--bot", "easy", "--ui", "plain"],
      "--ui does not apply to --bot: the bot has no screen, only status lines"
    ),
    (
      ["host", "--ascii", "--bot", "easy"], "--ascii does not apply to --bot: the bot has no screen, only status lines"
    ),
  ])
  func botUsageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
  }
}

/// A bot seat and a joiner's session joined by two in-order queues, as a connection would carry them.
private struct Table {
  var bot: BotSeat
  var joiner: NetSession
  var toJoiner: [Message] = []
  var toBot: [Message] = []
  var records: [BotGameRecord] = []
  var botEnd: SessionEnd?
  var admitted = 0
  /// Everything the joiner's session reported, except what it sent.
  var joinerEvents: [SessionOutput] = []
  /// Messages the bot sent, in order.
  var botSent: [Message] = []
  var now = 100.0

  init(
    level: AILevel = .perfect, rules: Rules = .standard, admission: BotAdmission = .letIn(remember: false),
    seed: UInt64 = 1, chooseMove: ((Game) -> Position?)? = nil, timeControl: TimeControl = .none,
    mayStartGame: @escaping (Double) -> SourceLimits.Refusal? = { _ in nil }
  ) {
    var random = SplitMix(seed: seed)
    let ai = AIPlayer(level: level, book: MoveBook())
    bot = BotSeat(
      configuration: .init(role: .host, name: "Robo", software: "test", rules: rules, timeControl: timeControl),
      level: level,
      admission: admission, coinBytes: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) },
      sha256: Digest.sha256, now: now,
      chooseMove: chooseMove ?? { game in ai.chooseMove(in: game, using: &random) }, mayStartGame: mayStartGame)
    joiner = NetSession(
      configuration: .init(role: .joiner, name: "Joy", software: "test"),
      coinBytes: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ Int(seed >> 3)) }, sha256: Digest.sha256,
      now: now)
    take(bot.start(now: now))
    takeJoiner(joiner.start(now: now))
    pump()
  }

  mutating func take(_ reaction: BotReaction) {
    records += reaction.games
    if reaction.admitted { admitted += 1 }
    botEnd = botEnd ?? reaction.end
    toJoiner += reaction.wire(signatures: [])
    botSent += reaction.wire(signatures: [])
  }

  mutating func takeJoiner(_ outputs: [SessionOutput]) {
    for output in outputs {
      if case .send(let message) = output { toBot.append(message) } else { joinerEvents.append(output) }
    }
  }

  /// Delivers everything in flight, alternating directions, until both queues are empty. Once the bot has
  /// ended, what is sent to it is lost (its connection is closed).
  mutating func pump() {
    while !toJoiner.isEmpty || !toBot.isEmpty {
      if !toJoiner.isEmpty {
        let message = toJoiner.removeFirst()
        takeJoiner(joiner.receive(message, now: now))
      }
      if !toBot.isEmpty {
        let message = toBot.removeFirst()
        if botEnd == nil { take(bot.receive(message, now: now)) }
      }
    }
  }

  /// The joiner plays `choose`'s moves until the game in progress ends.
  mutating func playGame(_ choose: (Game) -> Position) {
    var guardrail = 0
    while joiner.phase == .playing, guardrail < 300 {
      guardrail += 1
      now += 0.01
      if joiner.myTurn, let game = joiner.game {
        do {
          takeJoiner(try joiner.play(choose(game), now: now))
        } catch {
          Issue.record("the joiner's move was refused: \(error)")
          return
        }
      }
      pump()
    }
  }

  /// The joiner acts; a refusal of what the test asked for fails the test.
  mutating func joinerDoes(_ action: (inout NetSession, Double) throws -> [SessionOutput]) {
    do {
      takeJoiner(try action(&joiner, now))
    } catch {
      Issue.record("the joiner's action was refused: \(error)")
    }
    pump()
  }
}

@Suite struct BotSeatTests {
  @Test func aKnownJoinerIsLetInAndEveryGameIsPlayedToItsEndAndRecorded() {
    var table = Table()
    #expect(table.admitted == 1)
    #expect(table.joiner.phase == .playing)
    var random = SplitMix(seed: 7)
    table.playGame { $0.legalMoves.randomElement(using: &random)! }
    #expect(table.joiner.phase == .betweenGames)
    #expect(table.records.count == 1)
    let record = table.records[0]
    #expect(record.number == 1)
    #expect(record.moves == table.joiner.game?.history.count)
    #expect(record.botMark == table.joiner.myMark?.opponent)
    #expect(abs(record.duration - (table.now - 100)) < 1e-9)
    let score = table.joiner.score
    switch record.outcome {
    case .botWon: #expect(score.losses == 1)
    case .draw: #expect(score.draws == 1)
    default: Issue.record("a perfect bot lost or stopped: \(record.outcome)")
    }
    #expect(table.botEnd == nil)
  }

  @Test(arguments: 0..<40)
  func thePerfectBotNeverLosesAndAcceptsEveryRematchWithTheFirstPlayerAlternating(seed: UInt64) {
    var table = Table(seed: seed)
    var random = SplitMix(seed: seed &* 31 &+ 5)
    var botMarks: [Mark] = []
    for game in 1...4 {
      if game > 1 { table.joinerDoes { try $0.offerRematch(now: $1) } }
      #expect(table.joiner.phase == .playing && table.joiner.gameNumber == game)
      if let mark = table.joiner.myMark { botMarks.append(mark.opponent) }
      // Half the games against random moves, half against a perfect joiner.
      let strong = AIPlayer(level: .perfect)
      table.playGame { game in
        seed.isMultiple(of: 2)
          ? game.legalMoves.randomElement(using: &random)! : strong.chooseMove(in: game, using: &random)!
      }
    }
    #expect(table.records.map(\.number) == [1, 2, 3, 4])
    #expect(table.records.allSatisfy { [.botWon, .draw].contains($0.outcome) }, "\(table.records)")
    if !seed.isMultiple(of: 2) { #expect(table.records.allSatisfy { $0.outcome == .draw }) }
    #expect(botMarks.count == 4 && zip(botMarks, botMarks.dropFirst()).allSatisfy { $0 != $1 })
    #expect(table.joiner.score.losses + table.joiner.score.draws == 4)
  }

  /// As a game ends the bot offers the next one, after the game's last messages and its record's signature, in
  /// the same write: the joiner's player accepts with one key, and a joiner that offers too crosses the offer (the
  /// next game starts on both sides, no message more). Each game is counted once under the limit.
  @Test func theBotOffersTheNextGameWithTheLastMessagesOfEachGame() throws {
    final class Counter {
      var games = 0
    }
    let counter = Counter()
    var table = Table(mayStartGame: { _ in
      counter.games += 1
      return nil
    })
    var random = SplitMix(seed: 11)
    table.playGame { $0.legalMoves.randomElement(using: &random)! }
    #expect(table.joiner.phase == .betweenGames && table.records.count == 1)
    #expect(table.botSent.last == .rematchOffer, "\(table.botSent)")
    #expect(table.joiner.rematchOfferedByPeer && table.joinerEvents.contains(.rematchOffered))
    #expect(counter.games == 2)  // game 1, and game 2 as it was offered
    #expect(table.bot.offerUntaken)  // given back under the limits if the joiner goes now
    table.joinerDoes { try $0.offerRematch(now: $1) }
    #expect(!table.bot.offerUntaken)
    #expect(table.joiner.phase == .playing && table.joiner.gameNumber == 2)
    #expect(table.bot.session.phase == .playing && table.bot.session.gameNumber == 2)
    #expect(counter.games == 2)

    // The joiner resigns game 2 and offers game 3 before it reads anything: the bot's one reaction to the
    // resignation records the game and offers game 3 after the signature's place; the offers cross.
    table.takeJoiner(try table.joiner.resign(now: table.now))
    table.takeJoiner(try table.joiner.offerRematch(now: table.now))
    #expect(table.toBot == [.resign, .rematchOffer])
    let reaction = table.bot.receive(table.toBot.removeFirst(), now: table.now)
    #expect(reaction.games.map(\.outcome) == [.peerResigned])
    #expect(reaction.messages.isEmpty && reaction.afterRecords == [.rematchOffer])
    let signature = Message.recordSignature(game: 2, date: "2026-12-04", signature: [1])
    #expect(reaction.wire(signatures: [signature]) == [signature, .rematchOffer])
    table.take(reaction)
    table.pump()
    #expect(table.bot.session.phase == .playing && table.bot.session.gameNumber == 3)
    #expect(table.joiner.phase == .playing && table.joiner.gameNumber == 3)
    #expect(!table.botSent.contains(.rematchAccept) && counter.games == 3)
    table.playGame { $0.legalMoves.randomElement(using: &random)! }
    #expect(table.records.map(\.number) == [1, 2, 3] && counter.games == 4)
  }

  @Test func anUnknownJoinerIsRefusedAsUntrustedWithTheReasonAndNoGameIsPlayed() {
    let table = Table(admission: .refuse("ask for --accept-new"))
    #expect(table.admitted == 0)
    #expect(table.joiner.phase == .closed(.refused(.untrusted, "ask for --accept-new")))
    #expect(table.botEnd == .localQuit)
    #expect(table.records.isEmpty)
    #expect(!table.botSent.contains { if case .welcome = $0 { true } else { false } })
  }

  @Test func theFirstChatIsAnsweredOnceAndLaterOnesAreIgnored() {
    var table = Table()
    table.joinerDoes { try $0.chat("hello bot", now: $1) }
    table.joinerDoes { try $0.chat("are you there?", now: $1) }
    let chats = table.joinerEvents.compactMap { if case .chat(let text) = $0 { text.unsanitised } else { nil } }
    #expect(chats == [table.bot.chatReply])
    #expect(chats.first?.contains("practice bot (perfect)") == true)
    #expect(table.joiner.phase == .playing)
  }

  @Test func aJoinerWhoResignsOrLeavesMidGameIsRecorded() {
    var table = Table()
    table.joinerDoes { try $0.resign(now: $1) }
    #expect(table.records.map(\.outcome) == [.peerResigned])
    table.joinerDoes { try $0.offerRematch(now: $1) }
    #expect(table.joiner.phase == .playing)
    table.joinerDoes { $0.quit(text: "bye", now: $1) }
    #expect(table.records.map(\.outcome) == [.peerResigned, .unfinished("the peer left")])
    #expect(table.botEnd == .peerQuit("bye"))
  }

  @Test func heartbeatsAndASilentJoinerAreHandledOnTicks() {
    var table = Table()
    let start = table.now
    let sentBefore = table.botSent.count
    table.take(table.bot.tick(now: start + 3.5))
    #expect(table.botSent.count == sentBefore + 1 && table.botSent.last == .heartbeat)
    let silent = table.bot.tick(now: start + 10.5)
    table.take(silent)
    #expect(table.botEnd == .peerVanished(seconds: 10))
    // The game in progress is kept for the joiner to come back to (rule 19): nothing is recorded yet.
    #expect(silent.keep && table.records.isEmpty)
  }

  @Test func aJoinerWhoNeverMovesLosesTheSeatAfterTheIdleLimit() {
    var table = Table()
    let start = table.now
    var time = start
    // The joiner keeps its connection alive with heartbeats but never plays.
    while table.botEnd == nil && time < start + BotSeat.idleLimit + 10 {
      time += 2
      table.take(table.bot.receive(.heartbeat, now: time))
      table.take(table.bot.tick(now: time))
    }
    #expect(time >= start + BotSeat.idleLimit, "the seat was taken back early, after \(time - start) s")
    #expect(table.botEnd == .localQuit)
    #expect(table.botSent.last == .bye(.timeout, text: "Robo ends the game: no move for 5 minutes"))
    #expect(table.records.map(\.outcome) == [.unfinished("the peer did not move for 5 minutes")])
  }

  /// In a timed game the joiner's clock, not the idle limit, decides how long it may think; and when such a game
  /// ends after a long think, the time to offer a rematch counts from the end (review: the bot said goodbye at
  /// once, "no move for 5 minutes").
  @Test func aLongThinkUnderAClockKeepsTheSeatAndTheRematchTimeCountsFromTheEnd() throws {
    var table = Table(rules: try Rules(size: 7, k: 4), timeControl: .fischer(base: 600_000, increment: 0))
    // Each side's first move, so that the clocks run (the bot answers each move at once); then the joiner's turn.
    var moves = 0
    while (table.joiner.game?.history.count ?? 0) < 2 || !table.joiner.myTurn, moves < 3 {
      moves += 1
      if table.joiner.myTurn, let move = table.joiner.game?.legalMoves.first {
        table.joinerDoes { try $0.play(move, now: $1) }
      }
    }
    #expect(
      (table.joiner.game?.history.count ?? 0) >= 2 && table.joiner.myTurn, "\(String(describing: table.joiner.game))")
    // Six minutes of thought, the connection kept alive: the clock runs, so the seat stays.
    let start = table.now
    var time = start
    while time < start + 360 {
      time += 2
      table.now = time
      table.take(table.bot.receive(.heartbeat, now: time))
      table.take(table.bot.tick(now: time))
      table.pump()
    }
    #expect(table.botEnd == nil, "the idle limit cut a player whose clock was running")
    table.now = time
    table.joinerDoes { try $0.resign(now: $1) }
    table.take(table.bot.tick(now: time + 1))
    #expect(table.botEnd == nil, "the bot said goodbye as soon as the game ended")
  }

  @Test func aMoveKeepsTheSeat() {
    var table = Table()
    let start = table.now
    table.now = start + BotSeat.idleLimit - 10
    if table.joiner.myTurn, let move = table.joiner.game?.legalMoves.first {
      table.joinerDoes { try $0.play(move, now: $1) }
    }
    table.take(table.bot.receive(.heartbeat, now: start + BotSeat.idleLimit + 1))
    table.take(table.bot.tick(now: start + BotSeat.idleLimit + 1))
    #expect(table.botEnd == nil, "a joiner who moved was cut off")
  }

  @Test func shuttingDownSaysGoodbyeWithTheReasonAndRecordsTheGameInProgress() {
    var table = Table()
    let reaction = table.bot.shutDown(now: table.now + 1)
    #expect(reaction.messages == [.bye(.shuttingDown, text: "Robo is shutting down")])
    #expect(reaction.end == .localQuit)
    #expect(reaction.games.map(\.outcome) == [.unfinished("the bot shut down")])
    table.take(reaction)
    table.pump()
    #expect(table.joiner.phase == .closed(.peerQuit("Robo is shutting down")))
    #expect(table.bot.shutDown(now: table.now + 2) == BotReaction())
  }

  @Test func aBotWithNoMoveResignsRatherThanStall() {
    var table = Table(chooseMove: { _ in nil })
    if table.joiner.myTurn, let move = table.joiner.game?.legalMoves.first {
      table.joinerDoes { try! $0.play(move, now: $1) }
    }
    #expect(table.records.map(\.outcome) == [.botResigned])
    #expect(table.joiner.score.wins == 1)
  }

  @Test func aMalformedFrameEndsTheConnectionWithAnError() {
    var table = Table()
    table.take(table.bot.receiveMalformed(.emptyFrame, now: table.now))
    #expect(table.botEnd.map { if case .protocolViolation = $0 { true } else { false } } == true)
    #expect(table.botSent.last.map { if case .error = $0 { true } else { false } } == true)
  }
}

@Suite struct BotAdmissionTests {
  private let fingerprint = Fingerprint(bytes: Array(repeating: 7, count: 32))!

  @Test func knownPeersAndNewOnesWithAcceptNewAreLetInOnlyTheLatterRemembered() {
    #expect(BotAdmission.decide(.trusted(.knownPeer(name: "bob")), botName: "Robo") == .letIn(remember: false))
    #expect(BotAdmission.decide(.trusted(.pinned), botName: "Robo") == .letIn(remember: false))
    #expect(BotAdmission.decide(.trusted(.acceptedNew), botName: "Robo") == .letIn(remember: true))
  }

  @Test func aNewPeerWithoutAcceptNewIsToldHowToGetInWithinOneMessage() {
    let name = String(repeating: "é", count: 32)  // 64 bytes, the longest --name
    guard
      case .refuse(let text, .untrusted) = BotAdmission.decide(
        .askUser(name: "bob", fingerprint: fingerprint), botName: name)
    else {
      Issue.record("a new peer was let in without --accept-new")
      return
    }
    #expect(text.contains(fingerprint.description) && text.contains("--accept-new") && text.contains(name))
    #expect(text.utf8.count <= Message.maximumTextBytes)
    #expect(Message.refuse(.untrusted, text: text).bytes.count > 0)
  }
}

@Suite struct BotGameRecordTests {
  private let peer = BotGameRecord.Peer(name: "bob", fingerprint: "SHA256:abc", address: "127.0.0.1:5000")

  @Test func aLogLineHasEveryFieldAsKeyEqualsValue() {
    let record = BotGameRecord(number: 2, botMark: .o, outcome: .draw, moves: 9, duration: 0.0214)
    #expect(
      record.logLine(peer: peer)
        == "bot game: peer=\"bob\" key=SHA256:abc address=127.0.0.1:5000 game=2 bot=O result=draw moves=9 duration=0.021s"
    )
    let cut = BotGameRecord(number: 1, botMark: .x, outcome: .unfinished("the peer left"), moves: 3, duration: 12.3456)
    #expect(cut.logLine(peer: peer).hasSuffix("result=unfinished moves=3 duration=12.346s reason=\"the peer left\""))
  }

  /// A known key is logged by the name it is known by; the name its hello gave stands beside it, quoted too.
  @Test func theKnownNameIsLoggedWithTheClaimedOneBeside() {
    let known = BotGameRecord.Peer(name: "carol", fingerprint: "k", address: "a", claimed: "bob\n")
    let line = BotGameRecord(number: 1, botMark: .x, outcome: .botWon, moves: 5, duration: 1).logLine(peer: known)
    #expect(line.hasPrefix("bot game: peer=\"carol\" claimed=\"bob\\n\" key=k "), "\(line)")
    let cut = BotGameRecord(number: 3, botMark: .o, outcome: .unfinished("said \"bye\"\u{1B}"), moves: 2, duration: 0.5)
    #expect(
      cut.logLine(peer: known)
        == "bot game: peer=\"carol\" claimed=\"bob\\n\" key=k address=a game=3 bot=O result=unfinished moves=2"
        + " duration=0.500s reason=\"said \\\"bye\\\"\\u{1b}\"")
  }

  /// Each printable ASCII character alone: only the quote and the backslash get a backslash (the plain names'
  /// shortcut and the scalar-by-scalar way agree), and a control character beside plain ones is still escaped.
  @Test func quotingEscapesOnlyTheQuoteAndTheBackslashAmongPrintableASCII() {
    for byte in UInt8(0x20)..<0x7F {
      let character = String(UnicodeScalar(byte))
      let expected = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? "\\" + character : character
      #expect(BotGameRecord.quoted("a\(character)b") == "\"a\(expected)b\"")
    }
    #expect(BotGameRecord.quoted("plain\u{7F}name") == "\"plain\\u{7f}name\"")
    #expect(BotGameRecord.quoted("caf\u{E9}") == "\"caf\u{E9}\"")
  }

  @Test func aHostileNameCannotForgeFieldsOrLines() {
    let evil = BotGameRecord.Peer(name: "x\" result=peer-won\n2026 fake\u{7}\\", fingerprint: "k", address: "a")
    let line = BotGameRecord(number: 1, botMark: .x, outcome: .botWon, moves: 5, duration: 1).logLine(peer: evil)
    #expect(!line.contains("\n") && !line.contains("\u{7}"))
    #expect(line.hasPrefix("bot game: peer=\"x\\\" result=peer-won\\n2026 fake\\u{7}\\\\\" key=k"))
    #expect(line.components(separatedBy: " result=").count == 3)  // the forged one stays inside the quotes
  }

  @Test func durationsAreMillisecondsAndNeverNegative() {
    #expect(BotGameRecord.seconds(0) == "0.000")
    #expect(BotGameRecord.seconds(1.0005) == "1.001")
    #expect(BotGameRecord.seconds(-3) == "0.000")
    #expect(BotGameRecord.seconds(75.25) == "75.250")
  }
}

@Suite struct PendingHandshakesTests {
  @Test func belowTheCapEveryJoinerIsAccepted() {
    let limit = PendingHandshakes(cap: 3, patience: 2)
    #expect(limit.decide(pending: 0, oldest: nil, now: 10) == .accept)
    #expect(limit.decide(pending: 2, oldest: 0, now: 10) == .accept)
  }

  @Test func atTheCapAYoungBurstWaitsAndAStaleConnectionMakesRoom() {
    let limit = PendingHandshakes(cap: 3, patience: 2)
    #expect(limit.decide(pending: 3, oldest: 9, now: 10) == .wait)
    #expect(limit.decide(pending: 3, oldest: 8, now: 10) == .wait)  // exactly the patience: still waits
    #expect(limit.decide(pending: 3, oldest: 7.9, now: 10) == .dropOldestThenAccept)
    #expect(limit.decide(pending: 5, oldest: 1, now: 10) == .dropOldestThenAccept)
  }

  @Test func theDefaultsLetABurstOfHundredsThrough() {
    let limit = PendingHandshakes()
    #expect(limit.cap >= 256 && limit.patience >= 2)
    #expect(limit.decide(pending: 255, oldest: 0, now: 0.5) == .accept)
  }
}

/// The host's limits as a seat sees them: one `SourceLimits` shared by every seat of the test.
private final class SharedLimits {
  var limits = SourceLimits(now: 0)
  func game(key: String, from peer: String) -> (Double) -> SourceLimits.Refusal? {
    { [self] now in limits.game(key: key, from: peer, now: now) }
  }
}

@Suite struct BotGameLimitTests {
  @Test func aJoinerLoopingResignAndRematchIsSlowedToTheLimitAndToldWhy() {
    let shared = SharedLimits()
    var table = Table(mayStartGame: shared.game(key: "K", from: "192.0.2.1:4000"))
    let numbers = SourceLimits.Numbers()
    var games = 1
    // As fast as it can: resign, offer a rematch, for 60 virtual seconds with a tick every second.
    let start = table.now
    var rounds = 0
    while table.now < start + 60 && table.botEnd == nil && rounds < 1000 {
      rounds += 1
      if table.joiner.phase == .playing {
        table.joinerDoes { try $0.resign(now: $1) }
        table.joinerDoes { try $0.offerRematch(now: $1) }
        if table.joiner.phase == .playing { games += 1 }
      } else {
        table.now += 1
        table.take(table.bot.tick(now: table.now))
        table.pump()
        if table.joiner.phase == .playing { games += 1 }
      }
    }
    #expect(table.botEnd == nil)
    #expect(games >= Int(numbers.gameBurst) && games <= Int(numbers.gameBurst + numbers.gamesPerMinute) + 1)
    let told = table.joinerEvents.contains {
      if case .chat(let text) = $0 { text.unsanitised.contains("too many games in a short time") } else { false }
    }
    #expect(told)
  }

  /// Over the limit as a game ends, the bot offers nothing (an offer would take a game's place under the limit):
  /// the joiner's offer is answered with the wait, and accepted on a tick once the limit allows.
  @Test func overTheLimitAsAGameEndsTheBotOffersNothingAndWaitsForTheJoinersOffer() {
    final class Gate {
      var asked = 0
      var refusing = false
    }
    let gate = Gate()
    var table = Table(mayStartGame: { _ in
      gate.asked += 1
      return gate.refusing ? .tooManyGames(wait: 2) : nil
    })
    #expect(gate.asked == 1 && table.joiner.phase == .playing)
    gate.refusing = true
    table.joinerDoes { try $0.resign(now: $1) }
    #expect(table.records.map(\.outcome) == [.peerResigned])
    #expect(!table.botSent.contains(.rematchOffer) && !table.joiner.rematchOfferedByPeer)
    #expect(gate.asked == 2 && !table.bot.offerUntaken)
    table.joinerDoes { try $0.offerRematch(now: $1) }
    let told = table.joinerEvents.contains {
      if case .chat(let text) = $0 { text.unsanitised.contains("too many games in a short time") } else { false }
    }
    #expect(told && table.joiner.phase == .betweenGames)
    gate.refusing = false
    table.now += 2
    table.take(table.bot.tick(now: table.now))
    table.pump()
    #expect(table.joiner.phase == .playing && table.joiner.gameNumber == 2)
    #expect(table.botSent.contains(.rematchAccept) && !table.botSent.contains(.rematchOffer))
  }

  @Test func reconnectingDoesNotResetTheLimitAJoinerOverItIsTurnedAwayAsBusy() {
    let shared = SharedLimits()
    var first = Table(mayStartGame: shared.game(key: "K", from: "192.0.2.1:4000"))
    for _ in 0..<Int(SourceLimits.Numbers().gameBurst) {
      first.joinerDoes { try $0.resign(now: $1) }
      first.joinerDoes { try $0.offerRematch(now: $1) }
    }
    // The same key again, from another port: no game, and told why.
    let again = Table(mayStartGame: shared.game(key: "K", from: "192.0.2.1:4001"))
    #expect(again.admitted == 0)
    let refused = again.botSent.contains {
      if case .refuse(.busy, let text) = $0 { text.contains("too many games") } else { false }
    }
    #expect(refused)
    #expect(again.records.isEmpty)
  }
}

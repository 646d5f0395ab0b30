import GameCore
import GameRecords
import Security
import Session
import Testing
import UntrustedText
import WireProtocol

@testable import App
@testable import PracticeBot

/// A bot seat whose moves are chosen off the seat (an engine, or a search on a worker thread): it asks with
/// `BotReaction.moveWanted`, plays the answer only where the game still stands, and an engine's forfeit becomes a
/// chat line and a resignation that the joiner's session sees as such.
@Suite struct BotSeatAnswerTests {
  /// The seat and a joiner's session, messages carried at once both ways; the last move wanted is kept.
  private struct Pair {
    var bot: BotSeat
    var joiner: NetSession
    var wanted: BotMoveRequest?
    var records: [BotGameRecord] = []
    var joinerEvents: [SessionOutput] = []
    var now = 10.0

    init() throws {
      let rules = try Rules(size: 9, k: 5)
      bot = BotSeat(
        configuration: .init(role: .host, name: "Robo", software: "test", rules: rules), level: .perfect,
        admission: .letIn(remember: false), coinBytes: (0..<32).map { UInt8($0) }, sha256: Digest.sha256, now: now,
        chooseMove: nil)
      bot.playedBy = "brain.py"
      joiner = NetSession(
        configuration: .init(role: .joiner, name: "Joy", software: "test"),
        coinBytes: (0..<32).map { UInt8(255 - $0) }, sha256: Digest.sha256, now: now)
      var toJoiner = take(bot.start(now: now))
      var toBot = takeJoiner(joiner.start(now: now))
      carry(&toJoiner, &toBot)
    }

    mutating func take(_ reaction: BotReaction) -> [Message] {
      if let request = reaction.moveWanted { wanted = request }
      records += reaction.games
      return reaction.wire(signatures: [])
    }

    mutating func takeJoiner(_ outputs: [SessionOutput]) -> [Message] {
      var messages: [Message] = []
      for output in outputs {
        if case .send(let message) = output { messages.append(message) } else { joinerEvents.append(output) }
      }
      return messages
    }

    mutating func carry(_ toJoiner: inout [Message], _ toBot: inout [Message]) {
      while !toJoiner.isEmpty || !toBot.isEmpty {
        if !toJoiner.isEmpty { toBot += takeJoiner(joiner.receive(toJoiner.removeFirst(), now: now)) }
        if !toBot.isEmpty { toJoiner += take(bot.receive(toBot.removeFirst(), now: now)) }
      }
    }

    /// The bot's answer for `ticket`, carried to the joiner.
    mutating func answer(_ answer: BotMoveAnswer, for ticket: BotMoveRequest.Ticket) -> BotReaction {
      let reaction = bot.answer(answer, for: ticket, now: now)
      var toJoiner = take(reaction)
      var toBot: [Message] = []
      carry(&toJoiner, &toBot)
      return reaction
    }

    /// The joiner plays `position`, carried to the bot.
    mutating func joinerPlays(_ position: Position) throws {
      var toBot = takeJoiner(try joiner.play(position, now: now))
      var toJoiner: [Message] = []
      carry(&toJoiner, &toBot)
    }

    /// Brings the game to the bot's turn (the joiner moving first if it is X).
    mutating func botToMove() throws -> BotMoveRequest {
      if joiner.myTurn { try joinerPlays(Position(row: 4, column: 4)) }
      return try #require(wanted)
    }
  }

  @Test func aMoveIsAskedForAndPlayedWhenItComesBack() throws {
    var pair = try Pair()
    let request = try pair.botToMove()
    #expect(request.game == pair.bot.session.game)
    #expect(pair.bot.awaited == request.ticket)
    let cell = try #require(request.game.legalMoves.first { $0 != Position(row: 4, column: 4) })
    _ = pair.answer(.move(cell), for: request.ticket)
    #expect(pair.joiner.game?.lastMove == cell)
    #expect(pair.bot.awaited == nil)
    // The same answer again, or one for a moment gone, plays nothing.
    let again = pair.answer(.move(Position(row: 0, column: 8)), for: request.ticket)
    #expect(again.isEmpty)
    #expect(pair.joiner.game?.history.count == request.game.history.count + 1)
  }

  @Test func anAnswerForAGameTheJoinerResignedIsDropped() throws {
    var pair = try Pair()
    let request = try pair.botToMove()
    var toBot = pair.takeJoiner(try pair.joiner.resign(now: pair.now))
    var toJoiner: [Message] = []
    pair.carry(&toJoiner, &toBot)
    #expect(pair.records.count == 1)
    let late = pair.answer(.move(request.game.legalMoves[0]), for: request.ticket)
    #expect(late.isEmpty)
    // A rematch is a new game: an answer for the first cannot be played in it.
    toBot = pair.takeJoiner(try pair.joiner.offerRematch(now: pair.now))
    pair.carry(&toJoiner, &toBot)
    if pair.bot.session.myTurn {
      let next = try #require(pair.wanted)
      #expect(next.ticket != request.ticket)
      #expect(pair.answer(.move(request.game.legalMoves[0]), for: request.ticket).isEmpty)
    }
  }

  @Test func aForfeitIsSaidInTheChatAndTheBotResigns() throws {
    var pair = try Pair()
    let request = try pair.botToMove()
    let reaction = pair.answer(.forfeit("Robo's engine brain.py forfeits this game: it hung"), for: request.ticket)
    #expect(reaction.messages.contains(.chat("Robo's engine brain.py forfeits this game: it hung")))
    let botMark = try #require(pair.bot.session.myMark)
    #expect(pair.joinerEvents.contains(.chat(PeerText("Robo's engine brain.py forfeits this game: it hung"))))
    #expect(pair.joinerEvents.contains(.gameEnded(.resigned(loser: botMark))))
    #expect(pair.records.count == 1)
    #expect(pair.records.first?.outcome == .botResigned)
    // The record gives the bot's side the level `engine`, as a local game against an engine does.
    let record = try #require(pair.records.first?.record)
    #expect((botMark == .x ? record.black.level : record.white.level) == GameRecord.Player.engineLevel)
    #expect((botMark == .x ? record.white.level : record.black.level) == nil)
    #expect(pair.bot.chatReply.contains("engine brain.py"))
  }
}

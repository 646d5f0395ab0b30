import GameCore
import GameRecords
import MatchCoordination
import PeerTrust
import Security
import Session
import WireProtocol

/// The bot's side of one connection: the host session, and what the bot does with each thing it says. It lets
/// the joiner in (or refuses it) without asking, answers every move with `chooseMove`, offers the next game as
/// each ends and accepts the joiner's offer (within the limits), answers the first chat once, and records every
/// game that ends. Pure: no sockets, no clock of its own.
package struct BotSeat {
  private(set) var session: NetSession
  let botName: String
  let level: AILevel
  private let admission: BotAdmission
  /// The bot's move, chosen at once; nil: asked for with `BotReaction.moveWanted` and given to `answer`.
  private let chooseMove: ((Game) -> Position?)?
  /// The move asked for and not answered yet.
  private(set) var awaited: BotMoveRequest.Ticket?
  /// Who plays for the bot when it is not the built-in computer: an outside engine's name (the chat says so,
  /// and the record gives the level `engine`, as a local game against an engine does).
  var playedBy: String?
  /// The bot's stones or choice where a Swap2 opening stands (`Swap2Computer`), when it is the bot's to act.
  private let answerOpening: (Swap2) -> [Swap2.Action]
  /// Asked before each game starts (the first one and every rematch): nil lets it start and counts it, a
  /// refusal says how long until one may (the host's `SourceLimits`, per key and per address).
  private let mayStartGame: (Double) -> SourceLimits.Refusal?
  /// Why the joiner was turned away at hello for being over the game limit (for the log).
  private(set) var refusedText: String?
  /// The joiner offered a rematch over the game limit: it is accepted on a tick once the limit allows.
  private var rematchWaiting = false
  /// The bot offered the next game (counted under the limits) and it has not started: given back if the joiner goes.
  private(set) var offerUntaken = false
  /// The game kept for this joiner's key (`offerBack`) as it would be offered at a moment, until the joiner is let
  /// in: the offer is made then, the clock of the side to move having run until that moment (a joiner's player
  /// reading the terms again does not stop it). A closure, so that a seat without one (every seat kept) does not
  /// carry room for a second session.
  private var keptOffer: ((Double) -> KeptOffer?)?
  /// When the game in progress began (nil between games).
  private var gameStartedAt: Double?
  private var answeredChat = false
  /// The peer said goodbye: a game it leaves unfinished is recorded as lost by it.
  private var peerLeft = false
  /// The bot said goodbye on its own (`shutDown`, or an idle joiner): nothing more happens on this seat.
  private var saidGoodbye = false
  /// When the match last moved on (a game started, a move, a rematch): a joiner that lets `idleLimit` pass
  /// without playing loses the seat, so nobody holds one forever.
  private var lastProgress: Double
  /// Seconds a joiner may hold a seat without moving (in a game, or between games without a rematch).
  static let idleLimit = 300.0

  /// The bot's reply to the first chat of a connection; later chats are read and ignored.
  var chatReply: String {
    "\(botName) is a practice bot (\(playedBy.map { "engine \($0)" } ?? "\(level)")); it does not read chat. Good game!"
  }

  init(
    configuration: NetSession.Configuration, level: AILevel, admission: BotAdmission, coinBytes: [UInt8],
    sha256: @escaping @Sendable ([UInt8]) -> [UInt8], now: Double, chooseMove: ((Game) -> Position?)?,
    answerOpening: @escaping (Swap2) -> [Swap2.Action] = { _ in [] },
    mayStartGame: @escaping (Double) -> SourceLimits.Refusal? = { _ in nil }
  ) {
    session = NetSession(configuration: configuration, coinBytes: coinBytes, sha256: sha256, now: now)
    botName = configuration.name
    self.level = level
    self.admission = admission
    self.chooseMove = chooseMove
    self.answerOpening = answerOpening
    self.mayStartGame = mayStartGame
    lastProgress = now
  }

  /// The seat of a joiner just secured at a bot called `name`: random coin bytes, `chooseMove`'s moves (nil: the
  /// host chooses each move off the seat, `BotReaction.moveWanted`), no messages
  /// kept to send again (they were a third of its memory per game: a joiner that comes back is offered the game
  /// kept, rule 19, rather than resumed message by message), kept `gracePeriod` seconds (`--grace`) for that.
  static func practice(
    name: String, level: AILevel, rules: Rules, timeControl: TimeControl = .none, opening: Opening = .standard,
    chooseMove: ((Game) -> Position?)?,
    admission: BotAdmission, now: Double, gracePeriod: Double = 120,
    mayStartGame: @escaping (Double) -> SourceLimits.Refusal?
  ) -> BotSeat {
    BotSeat(
      configuration: .init(
        role: .host, name: name, software: Software.version, rules: rules, gracePeriod: gracePeriod,
        resendLimit: 0, timeControl: timeControl, opening: opening
      ).watchable(),
      level: level, admission: admission, coinBytes: (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255) },
      sha256: Digest.sha256, now: now, chooseMove: chooseMove,
      answerOpening: { opening in
        var random = SystemRandomNumberGenerator()
        return Swap2Computer().answer(to: opening, using: &random)
      },
      mayStartGame: mayStartGame)
  }

  /// Says hello (once the connection is secured).
  mutating func start(now: Double) -> BotReaction {
    absorb(session.start(now: now), now: now)
  }

  mutating func receive(_ message: Message, now: Double) -> BotReaction {
    if case .hello(_, _, _, _, _?, _) = message, session.peerName == nil {
      // A spectator (PROTOCOL.md, "Version 4: watching"): the practice bot's games cannot be watched yet.
      let text = "\(botName): the practice bot's games cannot be watched yet"
      refusedText = text
      return absorb(session.decline(.notWatchable, text: text, now: now), now: now)
    }
    return absorb(session.receive(message, now: now), now: now)
  }

  mutating func receiveMalformed(_ error: WireError, now: Double) -> BotReaction {
    absorb(session.receiveMalformed(error, now: now), now: now)
  }

  mutating func connectionLost(now: Double) -> BotReaction {
    absorb(session.connectionLost(now: now), now: now)
  }

  /// Heartbeats and the silence limit (call it at least once a second).
  mutating func tick(now: Double) -> BotReaction {
    // In a timed game whose clocks run, the joiner's clock decides how long it may think, not the idle limit.
    let clockRuns = session.runningClock != nil
    if !session.isClosed, !saidGoodbye, !clockRuns, now - lastProgress >= BotSeat.idleLimit {
      saidGoodbye = true
      let minutes = Int(BotSeat.idleLimit / 60)
      var reaction = BotReaction(
        messages: [.bye(.timeout, text: "\(botName) ends the game: no move for \(minutes) minutes")])
      reaction.games += unfinishedGame(now: now, reason: "the peer did not move for \(minutes) minutes")
      reaction.end = .localQuit
      return reaction
    }
    var reaction = BotReaction()
    if rematchWaiting, !session.isClosed, !saidGoodbye, mayStartGame(now) == nil {
      rematchWaiting = false
      reaction += absorb((try? session.offerRematch(now: now)) ?? [], now: now)
    }
    // A drop found by the tick is the joiner's silence.
    let silence = SessionEnd.peerVanished(seconds: Int(session.configuration.silenceLimit.rounded()))
    reaction += absorb(session.tick(now: now), now: now, dropped: silence)
    return reaction
  }

  /// A seat kept after its joiner's connection went away (`BotReaction.keep`): the grace period's end claims its
  /// game. The idle limit does not apply to it (the grace period is shorter).
  mutating func tickKept(now: Double) -> BotReaction {
    absorb(session.tick(now: now), now: now)
  }

  /// Before hello: the game `kept` holds for this joiner's key is offered back instead of a coin toss (a joiner
  /// that restarted says hello), and the hello says the bot takes back a game the joiner kept (field 16: a joiner
  /// whose connection only dropped asks to resume, then offers its game). Both are checked as a host does (rule
  /// 19), `kept`'s game standing for the journal the bot does not write.
  mutating func offerBack(_ kept: BotSeat, now: Double) {
    guard let offer = kept.session.keptOffer(now: now) else { return }
    keptOffer = { [session = kept.session] now in session.keptOffer(now: now) }
    session.journalGame = offer.game
    session.takesKeptGameBack = true
  }

  /// The seat asked to keep its game (`BotReaction.keep`) and could not (too many kept): the game is logged
  /// unfinished, as a drop was before rule 19.
  mutating func notKept(now: Double) -> [BotGameRecord] {
    unfinishedGame(now: now, reason: "the peer vanished (too many games kept to keep its)")
  }

  /// The host is stopping: say goodbye with `ByeReason.shuttingDown` and end (a game in progress is recorded
  /// as unfinished).
  mutating func shutDown(now: Double) -> BotReaction {
    guard !session.isClosed, !saidGoodbye else { return BotReaction() }
    saidGoodbye = true
    var reaction = BotReaction(messages: [.bye(.shuttingDown, text: "\(botName) is shutting down")])
    reaction.games += unfinishedGame(now: now, reason: "the bot shut down")
    reaction.end = .localQuit
    return reaction
  }

  /// `dropped` is why the connection dropped if the session reports it did.
  private mutating func absorb(
    _ outputs: [SessionOutput], now: Double, dropped: SessionEnd = .connectionLost
  ) -> BotReaction {
    var reaction = BotReaction()
    guard !saidGoodbye else { return reaction }
    for output in outputs {
      switch output {
      case .send(let message):
        reaction.messages.append(message)
      case .peerHello:
        reaction += answerHello(now: now)
      case .gameStarted:
        (gameStartedAt, offerUntaken) = (now, false)
        lastProgress = now
        reaction += playIfMyTurn(now: now)
      case .peerMoved, .peerChose:
        lastProgress = now
        reaction += playIfMyTurn(now: now)
      case .coloursSettled:
        break  // said with the choice that settled them (`.peerChose`, or the bot's own)
      case .chat:
        guard !answeredChat else { continue }
        answeredChat = true
        // A refusal (the session is ending) leaves nothing to answer.
        reaction += absorb((try? session.chat(chatReply, now: now)) ?? [], now: now)
      case .rematchOffered:
        reaction += answerRematch(now: now)
      case .gameEnded(let result):
        // The time to offer a rematch counts from the end (a long timed game must not end the seat at once).
        lastProgress = now
        var finished = finishedGame(result, now: now)
        let recorded = !finished.isEmpty
        reaction.games.join(&finished)
        if recorded { reaction += offerNextGame(now: now) }
      case .closed(let end):
        reaction.games += unfinishedGame(now: now, reason: closingReason(end))
        reaction.end = end
      case .connectionLost:
        if session.keptOffer(now: now) != nil {
          // A version-3 game in progress is kept for the grace period: the joiner's key is offered it back.
          reaction.keep = true
        } else {
          reaction.games += unfinishedGame(now: now, reason: "the peer vanished")
        }
        reaction.end = dropped
      case .graceExpired:
        // Nobody came back for the game kept: it is lost by the joiner, which vanished (+F).
        reaction += absorb((try? session.claim(now: now)) ?? [], now: now)
      case .resumed:
        break  // said after a kept game was taken up: `.gameStarted` came first
      case .chatsDropped:
        break  // the bot does not read chat
      case .gameFlow(let event):
        reaction += answer(event, now: now)
      }
    }
    return reaction
  }

  /// Version 3's offers: the bot declines every takeback, and accepts a draw only in a dead position (one no
  /// line can still be completed in, which the session ends by itself: so in practice it declines them too).
  private mutating func answer(_ event: GameFlowEvent, now: Double) -> BotReaction {
    switch event {
    case .drawOffered:
      let dead = session.game?.noLineCanBeCompleted == true
      return absorb((try? dead ? session.offerDraw(now: now) : session.declineDraw(now: now)) ?? [], now: now)
    case .takebackRequested:
      return absorb((try? session.answerTakeback(accept: false, now: now)) ?? [], now: now)
    case .drawDeclined, .takebackDeclined, .tookBack, .flagClaimed, .keptGameOffered, .keptGameLost:
      return BotReaction()
    }
  }

  /// The joiner said hello: let in (when the limits allow a game now) or refused, as the admission says.
  private mutating func answerHello(now: Double) -> BotReaction {
    switch admission {
    case .letIn:
      if let refusal = mayStartGame(now) {
        refusedText = "\(botName): \(refusal)"
        return absorb(session.decline(.busy, text: "\(botName): \(refusal)", now: now), now: now)
      }
      var reaction = BotReaction()
      reaction.admitted = true
      session.keptGameToOffer = keptOffer?(now)
      keptOffer = nil
      reaction += absorb(session.accept(now: now), now: now)
      return reaction
    case .refuse(let text, let reason):
      return absorb(session.decline(reason, text: text, now: now), now: now)
    }
  }

  /// A game ended: the bot offers the next one at once, in the same write as the game's last messages, when the
  /// limits allow a game now (the offer takes its place under them). The joiner's player accepts with one key,
  /// and a joiner that offers too has crossed the offer (a rematch, no message more). Over the limits the bot
  /// says nothing and waits for the joiner's offer (`answerRematch`), as it did before it offered.
  private mutating func offerNextGame(now: Double) -> BotReaction {
    guard !session.isClosed, !saidGoodbye, !session.isResuming, session.phase == .betweenGames,
      !session.rematchOfferedByMe, !session.rematchOfferedByPeer, mayStartGame(now) == nil
    else { return BotReaction() }
    // After the records' signatures in the write (`BotReaction.afterRecords`): the game's messages come first.
    var offer = absorb((try? session.offerRematch(now: now)) ?? [], now: now)
    (offer.messages, offer.afterRecords, offerUntaken) = ([], offer.messages, true)
    return offer
  }

  /// The joiner offered a rematch: accepted now, or later on a tick when the limits do not allow a game yet.
  private mutating func answerRematch(now: Double) -> BotReaction {
    if let refusal = mayStartGame(now) {
      // Accepted later, on a tick: the joiner is told why it waits (a peer looping resign and rematch is
      // slowed to the limit; an honest one waits a few seconds at most).
      rematchWaiting = true
      return absorb((try? session.chat("\(botName): \(refusal)", now: now)) ?? [], now: now)
    }
    return absorb((try? session.offerRematch(now: now)) ?? [], now: now)
  }

  /// Why a game the session's `end` cut short is logged as unfinished (and whether the peer left on purpose).
  private mutating func closingReason(_ end: SessionEnd) -> String {
    switch end {
    case .peerQuit:
      peerLeft = true
      return "the peer left"
    case .peerVanished, .connectionLost: return "the peer vanished"
    default: return "the session ended: \(end)"
    }
  }

  /// A move's path reads the session once (`gameToMove`, inlined: a call copies the whole session). The chooser's
  /// copy of the game ends before the move is played (alive then, it would make the board be copied). Without a
  /// chooser the move is asked for with a ticket that says where the game stands.
  private mutating func playIfMyTurn(now: Double) -> BotReaction {
    if let chooseMove, let choice = session.gameToMove.map(chooseMove) { return play(choice, now: now) }
    guard chooseMove == nil, let game = session.gameToMove else {
      return session.inOpening ? answerInOpening(now: now) : BotReaction()
    }
    let ticket = BotMoveRequest.Ticket(gameNumber: session.gameNumber, moves: game.history.count)
    awaited = ticket
    return BotReaction(moveWanted: BotMoveRequest(game: game, ticket: ticket))
  }

  /// A move asked for with `BotReaction.moveWanted` came back: played (or the forfeit said and the game resigned)
  /// when the game still stands where it was asked, else dropped (the joiner resigned or went, the game ended).
  mutating func answer(_ answer: BotMoveAnswer, for ticket: BotMoveRequest.Ticket, now: Double) -> BotReaction {
    guard ticket == awaited, !saidGoodbye, session.myTurn, session.gameNumber == ticket.gameNumber,
      session.game?.history.count == ticket.moves
    else { return BotReaction() }
    awaited = nil
    switch answer {
    case .move(let position):
      return play(position, now: now)
    case .forfeit(let text):
      var reaction = absorb((try? session.chat(text, now: now)) ?? [], now: now)
      reaction += play(nil, now: now)
      return reaction
    }
  }

  /// Plays `position`; nil resigns.
  private mutating func play(_ position: Position?, now: Double) -> BotReaction {
    guard let position else { return absorb((try? session.resign(now: now)) ?? [], now: now) }
    do {
      return absorb(try session.play(position, now: now), now: now)
    } catch {
      // The chooser only offers legal moves; if it ever did not, resigning keeps the game honest.
      return absorb((try? session.resign(now: now)) ?? [], now: now)
    }
  }

  /// The bot's stones or choice in a Swap2 opening when they are its to make (and, after a choice of white, its
  /// first move); resigns if the opening refused them, as with a move.
  private mutating func answerInOpening(now: Double) -> BotReaction {
    guard session.myTurn, let opening = session.swap2?.opening else { return BotReaction() }
    var reaction = BotReaction()
    for action in answerOpening(opening) {
      do {
        switch action {
        case .stone(let position): reaction += absorb(try session.play(position, now: now), now: now)
        case .choice(let choice): reaction += absorb(try session.choose(choice, now: now), now: now)
        }
      } catch {
        reaction += absorb((try? session.resign(now: now)) ?? [], now: now)
        return reaction
      }
    }
    return reaction
  }

  private mutating func finishedGame(_ result: GameResult, now: Double) -> [BotGameRecord] {
    // One line per game: a resignation that crossed the bot's last move re-scores a game already logged.
    guard gameStartedAt != nil, let mark = session.myMark else { return [] }
    defer { gameStartedAt = nil }
    return [record(BotGameRecord.Outcome(result, botMark: mark), mark: mark, now: now, end: .result(result))]
  }

  private mutating func unfinishedGame(now: Double, reason: String) -> [BotGameRecord] {
    guard gameStartedAt != nil, session.game?.isOver == false, let mark = session.myMark else { return [] }
    defer { gameStartedAt = nil }
    return [record(.unfinished(reason), mark: mark, now: now, end: peerLeft ? .left(mark.opponent) : nil)]
  }

  private func record(
    _ outcome: BotGameRecord.Outcome, mark: Mark, now: Double, end: RecordOfGame.NetworkEnd?
  ) -> BotGameRecord {
    var line = BotGameRecord(
      number: session.gameNumber, botMark: mark, outcome: outcome, moves: session.game?.history.count ?? 0,
      duration: max(0, now - (gameStartedAt ?? now)))
    if let end, let game = session.game {
      var record = RecordOfGame.network(
        game: game, myMark: mark, myName: botName, peerName: session.peerName?.unsanitised ?? "", myKey: nil,
        peerKey: nil, end: end, date: "")
      let level = playedBy == nil ? level.rawValue : GameRecord.Player.engineLevel
      if mark == .x { record.black.level = level } else { record.white.level = level }
      record.addClock(of: session)
      line.record = record
    }
    return line
  }
}

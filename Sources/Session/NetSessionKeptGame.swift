import GameCore
import UntrustedText
import WireProtocol

/// A game kept through a restart as the side that kept it offers it (PROTOCOL.md rule 19): the game, and in a
/// timed game each side's time left (ms) on the keeper's clock when it offers.
public struct KeptOffer: Sendable, Equatable {
  public let game: KeptGame
  /// Time left of X and of O; empty for an untimed game.
  public let timeLeft: [Mark: Int]

  public init(_ game: KeptGame, timeLeft: [UInt32]) {
    self.game = game
    self.timeLeft = timeLeft.count == 2 ? [.x: Int(timeLeft[0]), .o: Int(timeLeft[1])] : [:]
  }

  /// The offer as a program that reads neither the moves' times nor the score takes it up.
  var withoutTimesAndScore: KeptOffer {
    let bare = KeptGame(
      rules: game.rules, gameNumber: game.gameNumber, hostPlaysX: game.hostPlaysX, moves: game.moves,
      choices: game.choices)
    return KeptOffer(bare, timeLeft: [Mark.x, .o].compactMap { timeLeft[$0].map { UInt32(clamping: $0) } })
  }

  var message: Message {
    let times = [Mark.x, .o].compactMap { timeLeft[$0].map { UInt32(clamping: $0) } }
    let moveTimes = game.times.map {
      OfferedTime(charged: UInt32(clamping: $0.charged), left: UInt32(clamping: $0.left))
    }
    let score = game.score.map { [$0.hostWins, $0.joinerWins, $0.draws].map { UInt16(clamping: $0) } } ?? []
    return .gameOffer(
      game: UInt16(clamping: game.gameNumber), hostPlaysX: game.hostPlaysX, moves: game.moves,
      timeLeft: times.count == 2 ? times : [], times: times.count == 2 ? moveTimes : [], score: score,
      choices: game.choices)
  }
}

/// What each side knows of a kept game (PROTOCOL.md rule 19): the game to offer and the offer waiting for its
/// answer (the side that kept the game: a host whose joiner restarted, a joiner whose host restarted); the journal
/// of the side that went away.
struct KeptGameExchange: Sendable {
  /// The game the other side left here, to offer: a host's instead of a coin toss, a joiner's after the welcome.
  var toOffer: KeptOffer?
  /// The offer sent, until the answer comes, and when it went: the clocks run from then (a player deciding
  /// whether to take the game up thinks on its time).
  var offered: KeptOffer?
  var offeredAt = 0.0
  /// The game this side's journal keeps with the peer (nil: none).
  var journal: KeptGame?
  /// An offer has come (a second is a violation).
  var answered = false
  /// Host: its hello says it takes back a game its joiner kept through its restart (field 16).
  var takesBack = false
  /// Host: the joiner said `resume` before its hello: it kept a game through this host's restart and offers it
  /// after the welcome, instead of a coin toss.
  var peerKeeps = false
  /// Joiner with no journal of the game: the offer its player is asked about (`answerKeptGame`), and when it came.
  var pending: KeptOffer?
  var pendingSince = 0.0
}

extension NetSession {
  /// Host: the game this joiner's key left here (`keptOffer(now:)` of the session that kept it), offered instead
  /// of the coin toss when both speak version 3. Set before `accept`.
  public var keptGameToOffer: KeptOffer? {
    get { kept.toOffer }
    set { kept.toOffer = newValue }
  }

  /// The game this side's journal keeps with the peer, to check an offer against. Set before the welcome (a
  /// joiner) or before `start` (a host: its hello names the game).
  public var journalGame: KeptGame? {
    get { kept.journal }
    set { kept.journal = newValue }
  }

  /// The game in progress as this side would offer it to a peer back from a restart: nil when there is none or
  /// the peer speaks no version 3. The clock of the side to move has run on while it was away.
  public func keptOffer(now: Double) -> KeptOffer? {
    // An offer not yet answered is still the game kept: a joiner that goes away again is offered it again.
    if phase == .tossing, let offer = kept.offered { return offer }
    // A Swap2 opening's choices travel with its stones (version 4): a game is kept while its opening runs too.
    guard hasGameFlow, gameInProgress, let game, let hostPlaysX = hostPlayedXLast else { return nil }
    let kept = KeptGame(
      rules: rules, gameNumber: gameNumber, hostPlaysX: hostPlaysX, moves: game.history,
      times: agreedTimes(plies: game.history.count), score: MatchScore(score, of: configuration.role),
      choices: openingChoicesMade)
    let times =
      clock.map { clock in [Mark.x, .o].map { UInt32(clamping: clock.remaining(clockMark(of: $0), now: now)) } } ?? []
    return KeptOffer(kept, timeLeft: times)
  }

  /// Joiner: the game offered, while its player is asked whether to take it up (it has no journal of it).
  public var keptGameAsked: KeptGame? { kept.pending?.game }

  /// Joiner: the host offers a game this side's key left there. The journal decides: the same game is taken up,
  /// another game in it is lost by this side (it went away). Without a journal the position is shown (the game
  /// begun, not yet played) and the player asked: `answerKeptGame`.
  mutating func peerOffersKeptGame(_ offer: KeptOffer, _ now: Double) -> [SessionOutput] {
    let mayOffer =
      configuration.role == .joiner ? coin.commitment == nil && kept.toOffer == nil : kept.peerKeeps
    guard mayOffer, phase == .tossing, hasGameFlow, !kept.answered
    else { return unexpected(.gameOffer(game: 0, hostPlaysX: true, moves: [], timeLeft: []), now) }
    kept.answered = true
    let verdict: GameTakenVerdict
    var reason = ""
    switch kept.journal?.agreement(with: offer.game) {
    case nil where configuration.role == .host:
      // A restarted host without a journal of the game cannot check it: the game is lost by it, the side that
      // went away (its player is not asked: a host may be unattended).
      verdict = .noJournal
      reason = "the host restarted and keeps no journal of this game"
    case nil:
      let mark = (configuration.role == .host) == offer.game.hostPlaysX ? Mark.x : .o
      keepFirstPlayer(of: offer.game)
      do {
        try series.restore(offer.game, myMark: mark, role: configuration.role)
      } catch {
        return violation("the kept game offered cannot be played: \(error)", now)
      }
      kept.pending = offer
      kept.pendingSince = now
      return [
        .gameStarted(number: offer.game.gameNumber, myMark: mark),
        .gameFlow(.keptGameOffered(ply: offer.game.moves.count)),
      ]
    case .differs(let why)?:
      verdict = .disagrees
      reason = "the journal here keeps another game: \(why)"
    default:
      verdict = .taken
    }
    let answer = send(.gameTaken(verdict, text: reason, readAll: true), now)
    let taken = verdict == .taken
    return [answer]
      + takeUp(offer, taken: taken, reason: PeerText(reason), clockFrom: now, wentAway: configuration.role, now)
  }

  /// Joiner: its player's answer about the game offered (`keptGameAsked`): taken up, or lost by this side.
  public mutating func answerKeptGame(accept: Bool, now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, !isClosed, let offer = kept.pending else { return [] }
    kept.pending = nil
    let reason = accept ? "" : "its player did not take it up"
    let answer = send(.gameTaken(accept ? .taken : .declined, text: reason, readAll: true), now)
    return [answer]
      + takeUp(offer, taken: accept, reason: PeerText(reason), clockFrom: kept.pendingSince, wentAway: .joiner, now)
      .filter {
        if case .gameStarted = $0 { false } else { true }  // said when the position was shown
      }
  }

  /// The side that kept the game hears the answer of the side that went away (a joiner's, or a restarted host's).
  /// Without `readAll` (a program of before 2026-12-02) the peer took up neither the moves' times nor the score:
  /// neither does this side, so both hold the same game.
  mutating func peerAnswersKeptGame(_ verdict: GameTakenVerdict, _ reason: PeerText, readAll: Bool, _ now: Double)
    -> [SessionOutput]
  {
    guard phase == .tossing, var offer = kept.offered else { return unexpected(.gameTaken(verdict, text: ""), now) }
    kept.offered = nil
    if !readAll { offer = offer.withoutTimesAndScore }
    let peer: Role = configuration.role == .host ? .joiner : .host
    return takeUp(offer, taken: verdict == .taken, reason: reason, clockFrom: kept.offeredAt, wentAway: peer, now)
  }

  /// The first game's X as the alternation from game 1 makes `game`'s X (rule 7): the next game alternates from it.
  private mutating func keepFirstPlayer(of game: KeptGame) {
    coin.keep(hostPlaysX: game.hostPlaysX == !game.gameNumber.isMultiple(of: 2))
  }

  /// Both sides: the kept game becomes the current one. Taken, play goes on from it; else it ends at once as
  /// lost by `wentAway`, the side whose program restarted, and the match goes on between games.
  mutating func takeUp(
    _ offer: KeptOffer, taken: Bool, reason: PeerText, clockFrom: Double, wentAway: Role, _ now: Double
  ) -> [SessionOutput] {
    let mark = (configuration.role == .host) == offer.game.hostPlaysX ? Mark.x : .o
    let ply = offer.game.moves.count
    keepFirstPlayer(of: offer.game)
    do {
      try series.restore(offer.game, myMark: mark, role: configuration.role)
    } catch {
      return violation("the kept game offered cannot be played: \(error)", now)
    }
    phase = .playing
    flow = GameFlow(myMark: mark, plies: ply)
    clock = GameClock(
      restoring: timeControl, myMark: mark, left: offer.timeLeft, ply: ply, times: offer.game.times, now: clockFrom)
    swap2 = nil
    if opening == .swap2 {
      do {
        try restoreOpening(offer, clockFrom: clockFrom)
      } catch {
        return violation("the kept game's Swap2 opening cannot be played: \(error.reason)", now)
      }
    }
    (flagClaimedAt, heldClaim, claimSent, flagFacts) = (nil, nil, nil, nil)
    peerMoved = ply > (mark == .x ? 0 : 1)
    let started = SessionOutput.gameStarted(number: offer.game.gameNumber, myMark: mark)
    guard !taken else { return [started, .resumed(game: offer.game.gameNumber, ply: ply)] }
    let loser = configuration.role == wentAway ? mark : mark.opponent
    return [started, .gameFlow(.keptGameLost(loser: loser, reason: reason, wentAway: wentAway))]
      + ended(series.end(.abandoned(loser: loser)))
  }
}

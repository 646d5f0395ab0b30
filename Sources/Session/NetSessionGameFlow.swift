import GameCore
import UntrustedText
import WireProtocol

/// Version 3's game flow (PROTOCOL.md, "The terms" and rules 14 to 18): the terms declined, draw offers,
/// takebacks, abort, and the flag claim with its answer. The offers are `GameFlow`'s, the clocks `GameClock`'s;
/// this joins them to the session's game, sends and ends.
extension NetSession {
  // MARK: - Local actions

  /// Joiner: its player declined the host's terms: say so (`bye`, reason 4) and end.
  public mutating func declineTerms(text: String = "declined the terms", now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, !isClosed, !canResume else { return [] }
    return [send(.bye(.termsDeclined, text: text), now), close(.termsDeclined)]
  }

  /// The game in progress and this player's mark, or why version 3's game flow cannot act now.
  private func flowInPlay() throws(ActionRefusal) -> (game: Game, myMark: Mark) {
    guard !isClosed else { throw .matchOver }
    guard !isResuming else { throw .reconnecting }
    guard phase == .playing, let game, let myMark, flagClaimedAt == nil else { throw .noGameInProgress }
    guard !inOpening else { throw .duringOpening }
    guard hasGameFlow, flow != nil else { throw .notInThisVersion }
    return (game, myMark)
  }

  /// Offers a draw, or accepts the peer's offer (rule 16): once for each move of this player's.
  public mutating func offerDraw(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    let (_, myMark) = try flowInPlay()
    if drawOfferedByPeer { return [send(.drawAccept, now)] + ended(series.end(.drawAgreed)) }
    guard flow?.mayOfferDraw(myMark) == true else { throw .drawAlreadyOffered }
    flow?.offerDraw(by: myMark)
    return [send(.drawOffer, now)]
  }

  /// Declines the peer's draw offer.
  public mutating func declineDraw(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    _ = try flowInPlay()
    guard drawOfferedByPeer else { throw .nothingToAnswer }
    let peer = peerMark
    flow?.drawAnswered(offeredBy: peer)
    return [send(.drawDecline, now)]
  }

  /// Asks to go back to this player's turn: its last move, and the reply after it if there is one.
  public mutating func requestTakeback(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    let (game, myMark) = try flowInPlay()
    guard takebackRequestedByPeer == nil else { throw .answerTakebackFirst }
    guard flow?.mayAskTakeback(myMark) == true else { throw .takebackAlreadyAsked }
    guard let ply = GameFlow.takebackTarget(for: myMark, in: game), ply >= (swap2?.ply).map(Int.init) ?? 0 else {
      throw .nothingToTakeBack  // the stones of a Swap2 opening are not taken back
    }
    flow?.askTakeback(by: myMark, ply: ply)
    return [send(.takebackRequest(ply: UInt16(ply)), now)]
  }

  /// Answers the peer's takeback request: accepted, both boards go back (the clocks are not restored).
  public mutating func answerTakeback(accept: Bool, now: Double) throws(ActionRefusal) -> [SessionOutput] {
    _ = try flowInPlay()
    guard let ply = takebackRequestedByPeer else { throw .nothingToAnswer }
    let peer = peerMark
    flow?.takebackAnswered(askedBy: peer)
    guard accept else { return [send(.takebackDecline(ply: UInt16(ply)), now)] }
    let outputs = [send(.takebackAccept(ply: UInt16(ply)), now)]
    series.takeBack(to: ply)
    flow?.tookBack()
    clock?.turnAfterTakeback(requesterIsMe: false, now: now)
    return outputs + [.gameFlow(.tookBack(ply: ply))]
  }

  /// Whether this player may abort the game in progress (rule 17): version 3, and not both sides have moved in it,
  /// a takeback undoing nothing of that.
  public var mayAbort: Bool {
    guard hasGameFlow, phase == .playing, let game, let flow else { return false }
    return game.history.count < 2 && !flow.bothHaveMoved
  }

  /// Aborts the game before each side has made its first move (rule 17): void, and the first player is kept.
  /// Once both have moved, a takeback to before the second move does not make it abortable again.
  public mutating func abort(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    let (game, _) = try flowInPlay()
    guard mayAbort else { throw .tooLateToAbort }
    return [send(.abort(seen: UInt16(game.history.count)), now)] + ended(series.end(.aborted))
  }

  // MARK: - The flag

  /// When the peer's flag falls on this side's clock (nil when no claim can come).
  var flagDeadline: Double? {
    guard phase == .playing, flagClaimedAt == nil, !isResuming, game != nil, !myClockRuns else { return nil }
    return clock?.flagDeadline(ply: clockTurn)
  }

  /// Claims the win on time once the peer's time ran out by more than A (rule 15). During a drop the claim is
  /// made all the same and goes out on resume.
  mutating func flagDue(_ now: Double) -> [SessionOutput] {
    guard let deadline = flagDeadline, now >= deadline, let clock else { return [] }
    // The claim is about the turn in progress (a move; in a Swap2 opening, maybe stones or a choice already seen):
    // that turn is void on both sides.
    let ply = clockTurn
    voidTurn(ply)
    flagClaimedAt = ply
    let claim = clock.claim(ply: ply, now: now)
    if case .flagClaim(_, let timeLeft, let observed) = claim { claimSent = (timeLeft, observed) }
    return [send(claim, now), .gameFlow(.flagClaimed)]
  }

  // MARK: - From the peer

  /// Version 3's messages from the peer.
  mutating func processGameFlow(_ message: Message, _ now: Double) -> [SessionOutput] {
    guard hasGameFlow else { return violation("a \(message.name) in protocol version \(version ?? 0)", now) }
    // An offer or an answer that crossed the game's end changes nothing.
    if phase == .betweenGames { return changedNothing(now) }
    guard phase == .playing, let game else { return unexpected(message, now) }
    if let refused = refusedInOpening(message) { return violation(refused, now) }
    switch message {
    case .abort(let seen):
      guard Int(seen) <= game.history.count else {
        return violation("an abort after \(seen) moves when \(game.history.count) were made", now)
      }
      // Only a takeback brings a game both sides began back under 2 moves; the peer saw it too (it asked or accepted).
      guard flow?.begun != true else { return violation("an abort after both sides had moved (a takeback since)", now) }
      return ended(series.end(.aborted))
    case .flagClaim(let ply, let timeLeft, let observed):
      guard !isResuming else {
        heldClaim = (Int(ply), timeLeft, observed)
        return []
      }
      return peerClaims(ply: Int(ply), timeLeft: timeLeft, observed: observed, now)
    case .flagAnswer(let ply, let disputed, let thinking):
      guard flagClaimedAt == Int(ply) else { return violation("an answer to a flag claim that was not made", now) }
      if let sent = claimSent, let myMark {
        flagFacts = FlagFacts(
          claimant: myMark, timeLeft: sent.timeLeft, observed: sent.observed, thinking: thinking)
      }
      return ended(series.end(disputed ? .disputed(claimant: myMark ?? .x) : .lostOnTime(loser: peerMark)))
    default:
      return offers(message, game, now)
    }
  }

  /// The peer's draw offers, takeback requests and their answers.
  private mutating func offers(_ message: Message, _ game: Game, _ now: Double) -> [SessionOutput] {
    guard var offers = flow else { return unexpected(message, now) }
    let verdict: GameFlow.Verdict
    switch message {
    case .drawOffer: verdict = offers.peerOffersDraw()
    case .drawAccept: verdict = offers.peerAnswersDraw(accept: true)
    case .drawDecline: verdict = offers.peerAnswersDraw(accept: false)
    case .takebackRequest(let ply): verdict = offers.peerAsksTakeback(ply: Int(ply), in: game)
    case .takebackAccept(let ply): verdict = offers.peerAnswersTakeback(ply: Int(ply), accept: true)
    case .takebackDecline(let ply): verdict = offers.peerAnswersTakeback(ply: Int(ply), accept: false)
    default: return unexpected(message, now)
    }
    flow = offers
    switch verdict {
    case .drawOffered: return [.gameFlow(.drawOffered)]
    case .takebackRequested(let ply): return [.gameFlow(.takebackRequested(ply: ply))]
    case .drawAgreed: return ended(series.end(.drawAgreed))
    case .drawDeclined: return [.gameFlow(.drawDeclined)]
    case .takebackDeclined: return [.gameFlow(.takebackDeclined)]
    case .takebackRequestsCrossed(let ply): return [send(.takebackDecline(ply: UInt16(ply)), now)]
    case .takeBack(let ply):
      series.takeBack(to: ply)
      flow?.tookBack()
      clock?.turnAfterTakeback(requesterIsMe: true, now: now)
      return [.gameFlow(.tookBack(ply: ply))]
    case .changedNothing: return changedNothing(now)
    case .violation(let text): return violation(text, now)
    }
  }

  /// The claim that arrived during the resume, now that it is confirmed.
  mutating func answerHeldClaim(_ now: Double) -> [SessionOutput] {
    guard let claim = heldClaim else { return [] }
    heldClaim = nil
    return peerClaims(ply: claim.ply, timeLeft: claim.timeLeft, observed: claim.observed, now)
  }

  /// The peer claims this player's time ran out at `ply`: judged on this player's own clock (the C of a move
  /// the claim crossed, which is void), answered, and the game ends lost on time or disputed.
  private mutating func peerClaims(ply: Int, timeLeft: Int, observed: Int, _ now: Double) -> [SessionOutput] {
    guard var timed = clock, game != nil, myMark != nil else {
      return violation("a flag claim in an untimed game", now)
    }
    guard observed >= timeLeft + GameClock.lagAllowance else {
      return violation("a flag claim after \(observed) ms when \(timeLeft) ms were left", now)
    }
    // A game that opens with Swap2 counts turns (rule 14); any other, moves.
    let count = clockTurn
    let crossed: (thinking: Int, leftBefore: Int)?
    if myClockRuns && ply == count {
      crossed = nil
      voidTurn(ply)  // this player's stones or choices of the turn, in a Swap2 opening
    } else if !myClockRuns, ply == count - 1, let move = timed.unechoedMove {
      crossed = move  // this player's move crossed the claim: it is void
      voidTurn(ply)
      timed.myMoveVoided()
    } else {
      return violation("a flag claim about ply \(ply) when the game is at ply \(count)", now)
    }
    // The colours as the void turn leaves them (a Swap2 opening's choice taken back unsettles them).
    guard let myMark = self.myMark else { return violation("a flag claim in an untimed game", now) }
    let answer = timed.answer(crossed: crossed, now: now)
    clock = timed
    flagFacts = FlagFacts(claimant: myMark.opponent, timeLeft: timeLeft, observed: observed, thinking: answer.thinking)
    let result: GameResult = answer.disputed ? .disputed(claimant: myMark.opponent) : .lostOnTime(loser: myMark)
    let reply = Message.flagAnswer(ply: UInt16(ply), disputed: answer.disputed, thinking: answer.thinking)
    return [send(reply, now)] + ended(series.end(result))
  }
}

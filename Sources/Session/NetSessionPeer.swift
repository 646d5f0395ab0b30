import GameCore
import UntrustedText
import WireProtocol

extension NetSession {
  // MARK: - From the peer

  /// A frame arrived that could not be decoded: tell the peer and close.
  public mutating func receiveMalformed(_ error: WireError, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    return violation("malformed message: \(error)", now)
  }

  /// The side above the session found the peer breaking the protocol (a spectator's host): tell it and close.
  public mutating func violation(_ text: String, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    return violation(text, now)
  }

  /// The connection ended without a goodbye. In the middle of a match the game is kept for the grace period
  /// (`.connectionLost` tells the driver to close the socket and, on the joiner, to reconnect); before the
  /// game began the session ends.
  public mutating func connectionLost(now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    if connection.isLost { return [] }
    guard canResume else { return [close(.connectionLost)] }
    return connection.drop(now)
  }

  /// Whether a drop now keeps the game for the grace period (the match has begun and is not over).
  public var keepsGameOnDrop: Bool { !isClosed && canResume }

  /// Whether the peer has made a move in this match (a takeback does not undo it): until then it may still
  /// decline the terms (it holds the game back while its player reads them, but the host may have begun game 1
  /// and made its first move).
  var peerHasPlayed: Bool { peerMoved || series.gameNumber > 1 }

  /// Whether a drop now keeps the game: the match had begun (the host accepted, the rules are known).
  var canResume: Bool {
    switch phase {
    case .tossing, .playing, .betweenGames: return true
    default: return false
    }
  }

  /// Joiner: a new connection to the host is secured; ask to resume the game.
  public mutating func requestResume(now: Double) -> [SessionOutput] {
    guard configuration.role == .joiner, let request = connection.requestResume(now, holding: holding) else {
      return []
    }
    return [sendUncounted(request, now)]
  }

  /// Host: the joiner came back on a new connection (its key already checked). The old connection may still
  /// look alive, or be half-way through an earlier resume: it is dropped and the resume starts over on the new
  /// one.
  public mutating func peerReconnected(now: Double) -> [SessionOutput] {
    guard configuration.role == .host, canResume, !isClosed else { return [] }
    return connection.peerReconnected(now)
  }

  /// The remaining player ends a game whose opponent did not come back within the grace period: a win.
  public mutating func claim(now: Double) throws(ActionRefusal) -> [SessionOutput] {
    guard !isClosed else { throw .matchOver }
    if graceExpired, connection.isLost, let offer = kept.offered {
      // The joiner went away again before it answered the game offered (rule 19): that game is the one claimed.
      kept.offered = nil
      let peer: Role = configuration.role == .host ? .joiner : .host
      let why = PeerText("it went away before it answered")
      let lost = takeUp(offer, taken: false, reason: why, clockFrom: now, wentAway: peer, now)
      return lost + [close(.peerDidNotReturn(seconds: Int(configuration.gracePeriod), claimed: true))]
    }
    guard graceExpired, connection.isLost, phase == .playing, let myMark else { throw .nothingToClaim }
    return ended(series.end(.abandoned(loser: myMark.opponent))) + [
      close(.peerDidNotReturn(seconds: Int(configuration.gracePeriod), claimed: true))
    ]
  }

  /// The game this side holds, as the resume messages say it.
  var holding: HeldGame { series.holding(playing: phase == .playing, choices: openingChoiceNumbers, sha256: sha256) }

  mutating func peerResume(received: UInt32, sent: UInt32, _ now: Double) -> [SessionOutput] {
    switch connection.peerResumes(received: received, sent: sent, holding: holding) {
    case .success(let messages):
      // A move (or takeback accept) sent again gives the peer the turn only now (rule 14).
      if messages.contains(where: {
        switch $0 {
        case .move, .takebackAccept, .openingChoice: true
        default: false
        }
      }) {
        clock?.turnGivenAgain(now: now)
      }
      return messages.map { sendUncounted($0, now) } + checkIfCaughtUp(now)
    case .failure(let mismatch): return violation(mismatch.text, now)
    }
  }

  /// Once everything the peer sent before the drop has arrived, say which game this side holds.
  mutating func checkIfCaughtUp(_ now: Double) -> [SessionOutput] {
    guard connection.caughtUp else { return [] }
    return [sendUncounted(connection.check(holding: holding), now)]
  }

  public mutating func receive(_ message: Message, now: Double) -> [SessionOutput] {
    guard !isClosed else { return [] }
    if connection.isLost { return [] }  // nothing arrives on a dropped connection
    if let early = connection.arrived(message, now) { return violation(early, now) }
    let outputs = process(message, now)
    return outputs + checkIfCaughtUp(now)
  }

  mutating func process(_ message: Message, _ now: Double) -> [SessionOutput] {
    if let outputs = processAnyTime(message, now) { return outputs }
    guard peerGreeted else { return violation("\(message.name) before hello", now) }
    if case .gameOffer(let game, let hostPlaysX, let moves, let timeLeft, let times, let score, let choices) = message {
      let agreed = times.map { GameClock.AgreedTime(charged: Int($0.charged), left: Int($0.left)) }
      let before =
        score.count == 3 ? MatchScore(hostWins: Int(score[0]), joinerWins: Int(score[1]), draws: Int(score[2])) : nil
      let offered = KeptGame(
        rules: rules, gameNumber: Int(game), hostPlaysX: hostPlaysX, moves: moves, times: agreed, score: before,
        choices: choices)
      return peerOffersKeptGame(KeptOffer(offered, timeLeft: timeLeft), now)
    }
    if case .gameTaken(let verdict, let text, let readAll) = message {
      return peerAnswersKeptGame(verdict, PeerText(text), readAll: readAll, now)
    }
    if case .openingChoice = message { return peerOpening(message, now) }
    if message.minimumVersion == 3 { return processGameFlow(message, now) }
    // Version 4's spectators' messages go to spectators, never to a player's session (a host's count of them is
    // its coordinator's business).
    if message.minimumVersion == 4 { return violation("a \(message.name), which is for spectators", now) }
    switch message {
    case .welcome, .refuse, .coinCommit, .coinKept, .coinShare, .coinReveal: return processSetup(message, now)
    default: return processGame(message, now)
    }
  }

  /// What may arrive at any moment: liveness, the resume exchange, goodbyes, errors and the hello. nil for the
  /// other messages.
  mutating func processAnyTime(_ message: Message, _ now: Double) -> [SessionOutput]? {
    switch message {
    case .heartbeat, .deciding:
      // One every 3 seconds keeps a connection alive; a peer that floods them only costs the other side. A
      // joiner's `deciding` is liveness here; how long the host waits for its hello is the match's business.
      guard connection.heartbeatArrived(now) else {
        return violation("more than \(NetSession.heartbeatBurst) heartbeats within a second", now)
      }
      return []
    case .resume(let received, let sent, _, _, _):
      guard peerGreeted, canResume else {
        if hostRestartedHearsResume() { return [] }
        // A first message: a joiner coming back to a game this host no longer has (it restarted). Its own
        // program tells it so on seeing this host's hello; this side only ends the connection.
        if configuration.role == .host && !peerGreeted { return [close(.resumeWithoutGame)] }
        return violation("a resume request, but there is no game to resume here", now)
      }
      return peerResume(received: received, sent: sent, now)
    case .resumeCheck(let gameNumber, let ply, let digest):
      switch connection.peerChecks(HeldGame(game: gameNumber, ply: ply, digest: digest), holding: holding) {
      case .success(let resumed): return [resumed] + answerHeldClaim(now)
      case .failure(let mismatch): return violation(mismatch.text, now)
      }
    case .bye(let reason, let text):
      if reason == .termsDeclined && configuration.role == .host && !peerHasPlayed {
        return [close(.peerDeclinedTerms)]
      }
      // An opponent who leaves a game in progress loses it, as the leaver's own score says.
      if gameInProgress { series.gameLeft(byMe: false) }
      return [close(.peerQuit(PeerText(text)))]
    case .error(let text):
      return [close(.peerReportedError(PeerText(text)))]
    case .hello(let versions, let name, let software, let terms, _, let batchSignatures):
      if isResuming && configuration.role == .joiner {
        if let offering = restartedHostGreets(message, now) { return offering }
        return [close(.gameNoLongerHeld)]  // a host greeting us afresh has no game to resume with us
      }
      if configuration.role == .joiner { hostTerms = terms }  // a joiner's terms mean nothing
      if !peerGreeted { peerTakesBatchSignatures = batchSignatures }
      return hello(versions: versions, name: name, software: software, now)
    default:
      return nil
    }
  }

  /// The host's welcome or refusal and the coin toss.
  mutating func processSetup(_ message: Message, _ now: Double) -> [SessionOutput] {
    switch message {
    case .welcome(let version, let rules):
      guard configuration.role == .joiner, phase == .awaitingWelcome else { return unexpected(message, now) }
      guard configuration.versions.contains(version) else {
        return violation("the host chose protocol version \(version), which was not offered", now)
      }
      // The welcome names the board and k; the rule variant is the terms' (version 4).
      let played = hostTerms?.rules.flatMap { try? rules.with($0.variant) } ?? rules
      if let offered = hostTerms?.rules, offered != played {
        return violation("the welcome's rules (\(rules)) differ from the terms of the host's hello (\(offered))", now)
      }
      if let unplayable = openingUnplayable(on: played) { return violation(unplayable, now) }
      self.version = version
      series.rules = played
      phase = .tossing
      return offerKeptGameBack(now)
    case .refuse(let reason, let text):
      guard configuration.role == .joiner, phase == .awaitingWelcome else { return unexpected(message, now) }
      return [close(.refused(reason, PeerText(text)))]
    case .coinCommit(let digest):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment == nil, kept.toOffer == nil else {
        return unexpected(message, now)
      }
      return [send(.coinShare(bytes: coin.committed(to: digest)), now)]
    case .coinKept(let hostPlaysX):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment == nil, (version ?? 0) >= 2,
        kept.toOffer == nil
      else {
        return unexpected(message, now)
      }
      coin.keep(hostPlaysX: hostPlaysX)
      return startGame(now)
    case .coinShare(let share):
      guard configuration.role == .host, phase == .tossing else { return unexpected(message, now) }
      return [send(.coinReveal(secret: coin.shared(share)), now)] + startGame(now)
    case .coinReveal(let secret):
      guard configuration.role == .joiner, phase == .tossing, coin.commitment != nil else {
        return unexpected(message, now)
      }
      guard coin.revealed(secret) else {
        return [send(.error(text: "coin secret does not match"), now), close(.coinTossCheated)]
      }
      return startGame(now)
    default:
      return []
    }
  }

  /// The game's messages: moves, resignations, rematches, chat and record signatures.
  mutating func processGame(_ message: Message, _ now: Double) -> [SessionOutput] {
    switch message {
    case .move(let ply, let position, let fields):
      return peerMove(ply: ply, position: position, fields: fields, now)
    case .resign:
      if let myMark, phase == .playing { return ended(series.end(.resigned(loser: myMark.opponent))) }
      // Between games only one crossing the game's end counts (rule 6); the others change nothing.
      let crossed = phase == .betweenGames ? ended(series.resignationCrossed()) : []
      return crossed.isEmpty ? changedNothing(now) : crossed
    case .rematchOffer:
      guard phase == .betweenGames else { return unexpected(message, now) }
      if rematchOfferedByMe { return startGame(now) }
      // The offer stands: saying it again changes nothing, and is not reported again.
      guard !rematchOfferedByPeer else { return changedNothing(now) }
      series.peerOffersRematch()
      return [.rematchOffered]
    case .rematchAccept:
      guard phase == .betweenGames, rematchOfferedByMe else { return unexpected(message, now) }
      return startGame(now)
    case .chat(let text):
      // Chats sent again after a drop arrive together; only new ones count towards the pace.
      if connection.ledger.isReplaying { return [.chat(PeerText(text))] }
      switch peerPace.chat(now) {
      case .show: return [.chat(PeerText(text))]
      case .drop(let first): return first ? [.chatsDropped] : []
      case .flood:
        return violation(
          "chat flood: more than \(peerPace.chatFlood) messages in \(Int(peerPace.seconds)) seconds", now)
      }
    case .recordSignature:
      // A record signature is the match's business (MatchCore), not the game's: one a game ended is expected,
      // any more change nothing.
      peerSignatures += 1
      return peerSignatures > series.gameNumber - (phase == .playing ? 1 : 0) ? changedNothing(now) : []
    default:
      return []
    }
  }

  mutating func hello(versions: [UInt16], name: String, software: String, _ now: Double) -> [SessionOutput] {
    guard !peerGreeted else { return violation("a second hello", now) }
    peerGreeted = true
    peerName = PeerText(name)
    peerSoftware = PeerText(software)
    guard let chosen = ProtocolVersion.choose(ours: configuration.versions, theirs: versions) else {
      let ours = ProtocolVersion.describe(configuration.versions)
      let text = "this host speaks protocol \(ours); you speak \(ProtocolVersion.describe(versions))"
      let refusal =
        configuration.role == .host
        ? [send(.refuse(.versionMismatch, text: UTF8Clip.clip(text, bytes: Message.maximumTextBytes)), now)] : []
      return refusal + [close(.versionMismatch(ours: configuration.versions, theirs: versions))]
    }
    if let refusal = termsNeedNewerVersion(chosen: chosen, theirs: versions, now) { return refusal }
    version = chosen
    phase = configuration.role == .host ? .awaitingDecision : .awaitingWelcome
    return [.peerHello(name: PeerText(name), software: PeerText(software))]
  }

  mutating func peerMove(ply: UInt16, position: Position, fields: MoveClock?, _ now: Double) -> [SessionOutput] {
    if phase == .betweenGames, case .resigned = lastResult { return [] }  // crossed with a resignation
    if phase == .betweenGames, lastResult == .aborted { return [] }  // crossed with an abort (rule 17)
    if flagClaimedAt != nil { return [] }  // crossed this side's flag claim: void (rule 15)
    // The number of moves, not a copy of the game: a copy alive while the move is played makes it copy the board.
    guard phase == .playing, let played = game?.history.count else {
      return violation("a move while no game is in progress", now)
    }
    if inOpening { return peerOpening(.move(ply: ply, position: position, clock: fields), now) }
    guard Int(ply) == played else {
      return violation("a move for ply \(ply) when ply \(played) was next (repeated or out of order)", now)
    }
    guard flow?.takeback[peerMark] == nil else { return violation("a move while its own takeback request stands", now) }
    do {
      try series.play(position, byPeer: true)
    } catch .forbidden(let cell, let foul) {
      return violation("a foul move under \(rules.variant.name): \(MoveError.forbidden(cell, foul))", now)
    } catch {
      return violation("an illegal move: \(error)", now)
    }
    if var timed = clock {
      switch timed.peerMove(ply: clockTurn(ofStone: Int(ply)), fields: fields, now: now) {
      case .success: clock = timed
      case .failure(.missing): return violation("a move without its thinking time in a timed game", now)
      case .failure(.overTime(let thinking, let left)):
        return violation("a move after \(thinking) ms of thinking when \(left) ms were left", now)
      }
    }
    let peer = peerMark
    peerMoved = true
    flow?.moved(peer)
    return [.peerMoved(position)] + ended(series.finishIfOver(deadPositionDraws: hasGameFlow))
  }
}

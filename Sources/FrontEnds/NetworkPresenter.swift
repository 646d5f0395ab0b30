import GameCore
import MatchCoordination
import Session
import TerminalUI

/// Turns what a networked match reports, its events and the view after them, into what the full-screen UI shows:
/// pure, it reads nothing from the match itself, nor the clock (`now` is the monotonic time of the report).
enum NetworkPresenter {
  static func apply(_ events: [MatchEvent], view: MatchView, now: Double, to net: inout NetGameState) {
    for event in events {
      switch event {
      case .status(let text):
        if net.game == nil { net.info.append(text) } else { net.addChat(.note(text)) }
      case .reconnecting(let text):
        if net.game == nil { net.info.append(text) } else { net.updateNote(text) }
      case .opponentRecord(let text):
        // Kept in the conversation, where it stays in view once the game is on (and can be scrolled back to).
        if net.game == nil { net.info.append(text) }
        net.addChat(.note(text))
      case .verification(let code):
        net.verificationCode = code.description
      case .ask(let question):
        // The host's screen shows no spectator's code: a spectator is not told to compare one.
        let code = net.isWatching ? nil : net.verificationCode
        net.question = .init(
          lines: question.lines + ["Read aloud: \(question.fingerprint.readAloud)"]
            + (code.map { ["Verification code: \($0) (the same on both screens)"] } ?? []),
          fingerprint: question.fingerprint.description)
      case .askTerms(let lines):
        net.terms = lines
      case .spectators(let count):
        net.spectators = count
      case .spectatorChat(let name, let text): net.addChat(.peer(name: name, text: text))
      case .watched(let update):
        WatchPresenter.apply(update, hostKey: view.peerFingerprint?.description, to: &net)
      case .watchList(let list):
        // A practice bot's games: what a spectator of the full screen can pick from (`watch ADDRESS --game N`).
        net.info = PlainWatchWords.list(list).split(separator: "\n").map(String.init)
      case .session(let output):
        apply(output, view: view, now: now, to: &net)
      case .opponentGone(let end):
        // Hosting on: the screen is the host's again, waiting; the welcome that follows says where to join.
        let peer = net.peerName.map { "\($0)" } ?? "The joiner"
        var next = NetGameState(isHost: true, myName: net.myName)
        next.warnings = net.warnings
        next.info = ["The match with \(peer) is over: \(end.sentence) Hosting on for the next opponent."]
        net = next
      case .finished(let end):
        if case .session(.localQuit) = end { continue }
        net.ended = end.description
        net.question = nil
        net.terms = nil
      }
    }
    if let session = view.session, !net.isWatching { show(session, now: now, in: &net) }
    net.canMakeNewInvite = view.mayMakeNewInvite
  }

  /// What the player's screen shows of the session: the game, the score, the offers, the clocks, the opening.
  private static func show(_ session: NetSession, now: Double, in net: inout NetGameState) {
    net.game = session.game ?? net.game
    net.myMark = session.myMark ?? net.myMark
    net.wins = session.score.wins
    net.losses = session.score.losses
    net.draws = session.score.draws
    net.rematchOfferedByMe = session.rematchOfferedByMe
    net.hasGameFlow = session.hasGameFlow
    net.abortable = session.mayAbort
    net.peerOffer = session.drawOfferedByPeer ? .draw : session.takebackRequestedByPeer != nil ? .takeback : nil
    net.myOffer = session.drawOfferedByMe ? .draw : session.takebackRequestedByMe != nil ? .takeback : nil
    net.clocks = clocks(session, now: now)
    net.opening = session.swap2?.opening
    net.openingMe = session.swap2?.me ?? .first
  }

  /// When the running clock's face (whole seconds) next changes after `now`; nil when no clock runs.
  static func nextClockChange(_ session: NetSession, now: Double) -> Double? {
    guard let clocks = clocks(session, now: now), let running = clocks.running else { return nil }
    let left = running == .mine ? clocks.mine : clocks.theirs
    guard left > 0 else { return nil }
    return now + Double(left % 1_000 + 1) / 1_000
  }

  /// Both clocks as the screen shows them at `now` (nil in an untimed game or before the first game).
  static func clocks(_ session: NetSession, now: Double) -> NetGameState.Clocks? {
    guard let clock = session.clock, let myMark = session.myMark, let marks = session.clockMarks else { return nil }
    let running: NetGameState.Clocks.Running? = session.runningClock.map { $0 == .mine ? .mine : .theirs }
    // A clock starts after each side's first move (in a Swap2 game at once): until then, and while none runs, the
    // time as it stands. The clock's marks are the players' places in a Swap2 opening, not their colours.
    let left = { (mine: Bool) in
      if case .lostOnTime(let loser) = session.lastResult, (loser == myMark) == mine, !session.gameInProgress {
        return 0
      }
      let mark = mine ? marks.mine : marks.peer
      return running == nil ? clock.left[mark, default: 0] : clock.remaining(mark, now: now)
    }
    let mine = left(true)
    return .init(
      mine: mine, theirs: left(false), running: running,
      control: clock.control.description,
      lowMine: NetGameState.Clocks.isLow(mine, base: clock.control.base))
  }

  /// The notice for a move the session refused, in the screen's words: what to do instead.
  static func refusal(_ error: PlayError, on net: NetGameState) -> String {
    let peer = net.peerName.map { "\($0)" } ?? "your opponent"
    switch error {
    case .illegal(.gameOver): return "The game is over: press n for a rematch."
    case .illegal(.notYourTurn), .opening(.notYourTurn): return "Wait for \(peer)'s move."
    case .opening(.choiceDue):
      return "Choose first: \(net.openingChoices.map(NetSwap2Words.key).joined(separator: ", "))."
    case .illegal(.occupied(_, let mark)), .opening(.move(.occupied(_, let mark))):
      return "That cell is taken by \(mark). Choose an empty one."
    default: return "\(error)"
    }
  }

  /// How a game ended, as the screen says it to this player.
  static func resultText(_ result: GameResult, myMark: Mark?, peer: String) -> String {
    switch result {
    case .draw: return "Draw."
    case .line(let winner): return winner == myMark ? "You win!" : "\(peer) wins."
    case .resigned(let loser): return loser == myMark ? "You resigned." : "\(peer) resigned: you win!"
    case .abandoned(let loser):
      // This side's own loss only ever comes from a kept game it did not take up after a restart (rule 19).
      return loser == myMark ? "You left this game: it counts as lost." : "\(peer) did not come back: you win!"
    case .drawAgreed: return "Draw by agreement."
    case .deadPosition: return "Draw: no line can still be completed."
    case .aborted: return "Game aborted."
    case .lostOnTime(let loser):
      return loser == myMark ? "You lost on time." : "\(peer) lost on time: you win!"
    case .disputed: return "Disputed: the clocks disagree about a loss on time."
    }
  }

  private static func apply(_ output: SessionOutput, view: MatchView, now: Double, to net: inout NetGameState) {
    let peer = net.peerName.map { "\($0)" } ?? "Your opponent"
    switch output {
    case .peerHello(let name, _):
      net.peerName = name
      net.peerFingerprint = view.peerFingerprint?.description
      if let address = view.peerAddress { net.info.append("\(name) at \(address)") }
    case .gameStarted(let number, let mark):
      net.beginGame(view.session?.game, mark: mark)
      let ply = net.game?.history.count ?? 0
      let first = mark == .x ? " and move first" : ""
      let swap2 = ply == 0 ? view.session?.swap2 : nil
      // A game taken up after a restart (rule 19) begins where it stood; a Swap2 game with the opening.
      net.addChat(
        .note(
          swap2.map { "Game \(number). " + NetSwap2Words.begins(me: $0.me, peer: peer) }
            ?? (ply > 0
              ? "Game \(number), kept at move \(ply + 1): you play \(mark)."
              : "Game \(number): you play \(mark)\(first).")
        ))
      if number == 1, let session = view.session, let note = MatchWords.olderPeer(session, peer: peer) {
        net.addChat(.note(note))
      }
    case .peerMoved:
      net.game = view.session?.game
    case .peerChose(let choice):
      net.addChat(.note(NetSwap2Words.choice(choice, by: peer, mine: false)))
    case .coloursSettled(let mark):
      net.myMark = mark
      net.addChat(.note(NetSwap2Words.settled(myMark: mark, next: view.session?.game?.turn ?? .o)))
    case .chat(let text):
      net.addChat(.peer(name: net.peerName, text: text))
    case .chatsDropped:
      net.addChat(.note(MatchWords.chatsDropped(peer: peer)))
    case .rematchOffered:
      net.rematchOfferedByPeer = true
    case .connectionLost(let until):
      let seconds = max(0, Int((until - now).rounded()))
      net.dropped = .init(secondsLeft: seconds)
      net.addChat(.note(MatchWords.dropped(isHost: net.isHost, peer: peer, seconds: seconds)))
    case .graceExpired:
      net.dropped?.claimable = true
      net.addChat(.note(MatchWords.graceExpired(peer: peer, claim: "press w")))
    case .resumed(let number, let ply):
      net.dropped = nil
      net.notice = nil
      net.addChat(.note(MatchWords.resumed(game: number, ply: ply)))
    case .gameEnded(let result):
      net.game = view.session?.game
      net.result = resultText(result, myMark: net.myMark, peer: peer)
    case .gameFlow(let event):
      net.game = view.session?.game
      net.addChat(.note(MatchWords.gameFlow(event, peer: peer, keys: .fullScreen)))
    case .send, .closed:
      break
    }
  }
}

import EventLoop
import GameCore
import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import OutsideEngines
import PeerTrust
import PlayerFiles
import Security
import Session
import TerminalUI
import Transport
import UntrustedText
import WireProtocol

/// Runs a networked match in the plain line mode on the event loop: standard input, the match's sockets and
/// its timers. Prompts are written unbuffered; trust questions accept y, n or the fingerprint itself.
package final class PlainNetworkDriver: LoopFrontEnd {
  let match: any MatchShell
  /// The match as it stood after the events last shown: what the words and prompts are made from.
  var view: MatchView
  private let log: Log
  private var input = LineReader(fd: 0)
  /// The last text ended inside a line (a question waiting for its answer): what is said next starts a line of
  /// its own. What the player types ends that line at a terminal, which echoes it; a pipe echoes nothing.
  private var lineOpen = false
  private let inputEchoes = isatty(0) == 1
  var peerName: PeerText = "your opponent"
  package let loop = EventLoop()
  package var shutdown = Shutdown()
  private var verificationCode: VerificationCode?
  /// Lines typed ahead of time (a script can pipe its answers and moves): each is used when it applies.
  private var pending: [String] = []

  package init(match: any MatchShell, log: Log) {
    self.match = match
    view = match.view
    self.log = log
  }

  /// Runs the match; a joiner's (`joining`) connects once the host's name resolved, off the loop.
  package func run(initial: [MatchEvent], joining: [Endpoint] = []) -> Int32 {
    takeSignals()  // before anything is shown, which a script may answer with a signal
    show(initial)
    if !input.closed {
      loop.watch(0, events: Int16(POLLIN)) { [unowned self] _ in
        let lines = self.input.readLines()
        if self.inputEchoes && !lines.isEmpty { self.lineOpen = false }
        self.pending += lines
        if self.input.closed { loop.unwatch(0) }
        self.drain()
      }
    }
    let running = MatchOnLoop(match, loop: loop) { [unowned self] events, view in
      self.show(events, view)
      self.drain()
    }
    loop.beforeEachWait { [unowned self] in
      // At the end of the input the match ends once nothing typed ahead can apply; a joiner still connecting
      // first hears how that went.
      let connecting = self.match.role == .joiner && self.view.session == nil && self.view.finished == nil
      if self.input.closed && !self.shutdown.isEnding && !connecting
        && (self.pending.isEmpty || self.view.session?.phase == .betweenGames)
      {
        self.show(self.match.quit())
      }
      // The end: once the goodbye is out (or given up on), not before.
      if self.stopIfDone() { return }
      running.refresh()
    }
    if !joining.isEmpty { running.join(joining) }
    drain()
    loop.run()
    running.detach()
    return shutdown.status ?? ExitStatus.failure
  }

  /// SIGINT, SIGTERM and SIGHUP: the other side is told this player left, as in every front end.
  package func sayGoodbye(signal number: Int32) {
    log.write("ended by signal \(number)")
    if view.finished == nil { show(match.quit()) }
  }

  /// The goodbye going out, and known_peers writes still being made.
  package var goodbyesGoingOut: Int { match.lingering }

  /// Lines have no size to keep up with.
  package func redraw() {}

  func emit(_ text: String) {
    guard !text.isEmpty else { return }
    writeText(1, lineOpen && !text.hasPrefix("\n") ? "\n" + text : text)
    lineOpen = !text.hasSuffix("\n")
  }

  /// Runs a chat, resignation, rematch or claim; a refusal is said as an `error:` line, in the session's words.
  private func attempt(_ action: (any MatchShell) throws(ActionRefusal) -> [MatchEvent]) {
    do {
      show(try action(match))
    } catch {
      emitError("\(error)")
    }
  }

  /// An `error:` line, then the question the player was being asked, again.
  func emitError(_ text: String) {
    emit("error: \(text)\n")
    askAgain()
  }

  /// Says what an action of this player's returned, with the match's view right after it.
  func show(_ events: [MatchEvent]) { show(events, match.view) }

  /// Says what the match reported, the view after it taken as the state it is said from.
  func show(_ events: [MatchEvent], _ view: MatchView) {
    self.view = view
    // A line printed while a question waits (the record against this opponent, read meanwhile) is followed by
    // the question again, so the last line is what to type.
    var askAgainAfter = false
    defer {
      if askAgainAfter && (view.question != nil || view.asksYesOrNo) { askAgain() }
    }
    for event in events {
      switch event {
      case .status(let text), .opponentRecord(let text), .reconnecting(let text):
        emit(text + "\n")
        askAgainAfter = true
      case .verification(let code):
        verificationCode = code
        emit(
          "verification code: \(code) (read it to each other: the same words on both screens mean nobody is in between)\n"
        )
      case .ask(let question):
        askAgainAfter = false
        emit("\(question.text)\nread aloud: \(question.fingerprint.readAloud)\n[y/n or paste the fingerprint]: ")
      case .askTerms(let lines):
        askAgainAfter = false
        emit(lines.joined(separator: " ") + " [y/n]: ")
      case .session(let output):
        show(output)
      case .spectators(let count): emit("spectators watching: \(count)\n")
      case .spectatorChat(let name, let text): emit("\(name) (watching) says: \(text)\n")
      case .watched(let update): emit(PlainWatchWords.lines(update))
      case .watchList(let list): emit(PlainWatchWords.list(list))
      case .opponentGone(let end):
        emit("match over: \(end.sentence) Hosting on for the next opponent (--keep-hosting).\n")
        peerName = "your opponent"
        verificationCode = nil
      case .finished(let end):
        guard !shutdown.isEnding else { continue }  // the first ending is the one that counts
        if case .session(.localQuit) = end {
          self.end(ExitStatus.ok)
        } else {
          if case .session(.peerQuit) = end, let line = opponentLeftLine() { emit(line + "\n") }
          writeError("tictactoe: \(end)\n")
          self.end(ExitStatus.code(for: end))
        }
      }
    }
  }

  private func show(_ output: SessionOutput) {
    guard let session = view.session else { return }
    switch output {
    case .peerHello(let name, let software):
      peerName = name
      let fingerprint = view.peerFingerprint?.description ?? "?"
      emit("opponent: \(name) (\(software)), key \(fingerprint)\n")
      // Printed while a question waits (the joiner's about the host's key): the question again, last.
      if view.question != nil || view.asksYesOrNo { askAgain() }
      sayWaitingToBeLetIn()
    case .gameStarted(let number, let mark):
      let clock = session.timeControl.isTimed ? "; clock \(session.timeControl.spoken)" : ""
      let opening = session.swap2.map { "Swap2\n" + NetSwap2Words.begins(me: $0.me, peer: "\(peerName)") }
      emit("game \(number): \(session.rules)\(clock); \(opening ?? "you play \(mark) (X moves first)")\n")
      if number == 1, let note = MatchWords.olderPeer(session, peer: "\(peerName)") { emit(note + "\n") }
      // A game taken up after a restart (rule 19): what follows (taken up, or lost) shows the board.
      if let game = session.game, !game.history.isEmpty {
        if session.keptGameAsked != nil { emit(PlainSession.boardText(game) + "\n") }
        return
      }
      showBoardAndPrompt(session)
    case .peerMoved(let position):
      let rules = session.rules
      emit("\(peerName) plays \(PlainSession.moveName(position, rules: rules))\n")
      showBoardAndPrompt(session)
    case .chat(let text):
      emit("\(peerName) says: \(text)\n")
      askAgain()
    case .chatsDropped:
      emit(MatchWords.chatsDropped(peer: "\(peerName)") + "\n")
    case .rematchOffered:
      emit("\(peerName) offers a rematch: type rematch to accept, or quit\n")
    case .gameEnded(let result):
      showEnd(result, session)
    case .connectionLost(let until):
      let seconds = max(0, Int((until - Monotonic.now()).rounded()))
      emit(MatchWords.dropped(isHost: match.role == .host, peer: "\(peerName)", seconds: seconds) + "\n")
    case .graceExpired:
      emit(MatchWords.graceExpired(peer: "\(peerName)", claim: "type claim") + "\n")
    case .resumed(let number, let ply):
      emit(MatchWords.resumed(game: number, ply: ply) + "\n")
      showBoardAndPrompt(session)
    case .gameFlow(let event):
      emit(MatchWords.gameFlow(event, peer: "\(peerName)", keys: .plain) + "\n")
      if case .tookBack = event {
        showBoardAndPrompt(session)
      } else if case .keptGameLost = event, let game = session.game {
        emit(PlainSession.boardText(game) + "\n")
      } else {
        askAgain()
      }
    case .send, .closed, .peerChose, .coloursSettled:
      showOpening(output, session)  // nothing for a message sent or the close, which `.finished` reports
    }
  }

  private func showBoardAndPrompt(_ session: NetSession) {
    guard let game = session.game else { return }
    emit(PlainSession.boardText(game) + "\n")
    if let clock = clockLine(session) { emit(clock + "\n") }
    guard !game.isOver, !session.isResuming else { return }  // the prompt follows the resume
    if showOpeningPrompt(session) { return }
    if session.myTurn {
      emit("your move (\(session.myMark.map { "\($0)" } ?? "?")): ")
    } else {
      emit("waiting for \(peerName)'s move\n")
    }
  }

  /// Uses the typed-ahead lines that apply now: answers while a question waits, moves on this player's
  /// turn, commands at any time.
  private func drain() {
    while !shutdown.isEnding, let line = pending.first, applies(line) {
      pending.removeFirst()
      handle(line: line)
    }
  }

  private func applies(_ raw: String) -> Bool {
    if view.question != nil || view.asksYesOrNo { return true }
    let line = raw.trimmingWhitespace().lowercased()
    let word = line.split(separator: " ").first.map(String.init) ?? ""
    // While a resume is confirmed (one round trip) chat, resign and rematch wait their turn, as moves do.
    if view.session?.isResuming == true && ["chat", "say", "resign", "rematch"].contains(word) { return false }
    if view.session?.isResuming == true && Self.flowWords.contains(word) { return false }
    if ["quit", "q", "exit", "chat", "say", "resign", "code", "verify", "clock", "help", "?", ""].contains(word) {
      return true
    }
    if line == "new invite" { return true }
    if Self.flowWords.contains(word) { return true }
    guard let session = view.session else { return false }
    if word == "rematch" { return session.phase == .betweenGames }
    if word == "claim" { return session.graceExpired }
    if ["y", "yes", "n", "no"].contains(word) || Fingerprint(parsing: line) != nil {
      // An answer typed ahead waits for its question; once a game is on, no question is coming.
      return session.phase == .playing || session.phase == .betweenGames
    }
    return session.myTurn || session.phase == .betweenGames
  }

  /// One line the player typed: the answer to a trust question while one is asked, else a command (code, quit,
  /// resign, claim, rematch, chat, new invite) or a move.
  private func handle(line raw: String) {
    let line = raw.trimmingWhitespace()
    if let question = view.question {
      answerQuestion(question, line)
      return
    }
    if view.asksYesOrNo {
      switch line.lowercased() {
      case "y", "yes": show(match.answer(accept: true))
      case "n", "no": show(match.answer(accept: false))
      default: emitError("answer y or n")
      }
      return
    }
    if carryOutCommand(line) { return }
    playMove(line)
  }

  /// The trust question answered: y or n, or the fingerprint pasted (accepted only when it is the one shown).
  private func answerQuestion(_ question: TrustQuestion, _ line: String) {
    let answer = line.lowercased()
    if ["y", "yes"].contains(answer) {
      show(match.answer(accept: true))
      sayWaitingToBeLetIn()
    } else if ["n", "no"].contains(answer) {
      show(match.answer(accept: false))
    } else if let pasted = Fingerprint(parsing: line) {
      if pasted == question.fingerprint {
        show(match.answer(accept: true))
      } else {
        emit("error: that fingerprint does not match \(question.fingerprint)\n")
        show(match.answer(accept: false))
      }
    } else {
      emitError("answer y or n, or paste the fingerprint")
    }
  }

  /// A command word (or an empty line) carried out; false when the line is not one and may be a move.
  private func carryOutCommand(_ line: String) -> Bool {
    let lower = line.lowercased()
    switch lower {
    case "": return true
    case "help", "?":
      let session = view.session
      let flow = session?.hasGameFlow ?? true
      let timed = session?.timeControl.isTimed ?? false
      emit(
        PlainNetworkWords.help(flow: flow, invite: view.mayMakeNewInvite, timed: timed)
          + "\n")
      askAgain()
    case "code", "verify":
      if let verificationCode {
        emit("verification code: \(verificationCode)\n")
        askAgain()
      } else {
        emitError("not connected yet")
      }
    case "quit", "q", "exit":
      show(match.quit())
    case "resign":
      attempt { (match) throws(ActionRefusal) in try match.resign() }
    case "claim":
      attempt { (match) throws(ActionRefusal) in try match.claim() }
    case "new invite":
      show(match.side.newInvite())
    case "clock":
      emit((view.session.flatMap(clockLine) ?? "this game has no clock") + "\n")
      askAgain()
    case "draw", "takeback", "decline", "abort":
      gameFlow(lower)
    case "rematch":
      attempt { (match) throws(ActionRefusal) in try match.rematch() }
      if view.session?.rematchOfferedByMe == true { emit("rematch offered; waiting for \(peerName)\n") }
    case _ where lower.hasPrefix("chat ") || lower.hasPrefix("say "):
      let text = String(line.drop { $0 != " " }.dropFirst())
      attempt { (match) throws(ActionRefusal) in try match.chat(text) }
    default:
      return false
    }
    return true
  }

  /// A move typed while a game is on: read, checked to be this player's turn, played, and the board shown.
  private func playMove(_ line: String) {
    guard let session = view.session, let game = session.game, session.phase == .playing else {
      emitError("no game is in progress; type rematch or quit")
      return
    }
    if chooseTyped(line, session) { return }
    let position: Position
    switch PlainSession.readMove(line, rules: game.rules) {
    case .success(let read): position = read
    case .failure(let error):
      emitError("\(error)")
      return
    }
    guard session.myTurn else {
      emitError("it is \(peerName)'s turn")
      return
    }
    do {
      let events = try match.play(position)
      view = match.view
      if let updated = view.session, let game = updated.game {
        emit(PlainSession.boardText(game) + "\n")
        if !game.isOver, let clock = clockLine(updated) { emit(clock + "\n") }
        if !showOpeningPrompt(updated), !game.isOver { emit("waiting for \(peerName)'s move\n") }
      }
      show(events)
    } catch .illegal(let refused) {
      emitError(PlainSession.describe(refused, rules: game.rules))
    } catch {
      emitError("\(error)")
    }
  }
}

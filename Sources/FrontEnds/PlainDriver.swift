import CursesBackend
import EventLoop
import GameCore
import GameRecords
import Glibc
import MatchCoordination
import NetworkShell
import OutsideEngines
import PlayerFiles
import TerminalUI
import UntrustedText

/// Runs a local game in the plain line mode, on the event loop like every front end: standard input and the
/// signals. Every prompt is written straight to the descriptor (no buffering), so a script or screen reader
/// sees it at once. A signal ends the game with 128 + the signal, as everywhere (`LoopFrontEnd`).
package final class PlainDriver: LoopFrontEnd {
  /// Where a finished game is recorded, and the player's name for it.
  package struct Recorder {
    let archive: GameArchive
    let playerName: String

    package init(archive: GameArchive, playerName: String) {
      self.archive = archive
      self.playerName = playerName
    }
  }

  package let loop = EventLoop()
  package var shutdown = Shutdown()
  private var session: PlainSession
  private let log: Log
  private let recorder: Recorder?
  private var input = LineReader(fd: 0)
  /// Lines read and not handled yet.
  private var pending: [String] = []
  /// The outside engine of an engine game (nil after its forfeit).
  private var engine: EngineSeat?
  /// Who plays on after an engine's forfeit.
  private let fallback: AILevel
  /// After a forfeit: the player is asked whether to play on against the built-in computer.
  private var playOnOffered = false
  /// Wakes the loop when the running clock's flag falls (none in an untimed game, nor while no clock runs).
  private var flagTimer: EventLoop.TimerID?

  package init(
    session: PlainSession, log: Log, recorder: Recorder? = nil, engine: [String]? = nil, fallback: AILevel = .perfect
  ) {
    self.session = session
    self.log = log
    self.recorder = recorder
    self.fallback = fallback
    self.engine = engine.map { EngineSeat(words: $0, loop: loop, log: log) }
  }

  /// Plays until the game is over, the player quits or the input ends; returns the exit status.
  package func run() -> Int32 {
    takeSignals()  // before the first prompt, which a script may answer with a signal
    emit(session.introduction())
    engine?.onReport = { [unowned self] report in self.engineReported(report) }
    if next() { return shutdown.status ?? 0 }
    loop.watch(0, events: Int16(POLLIN)) { [unowned self] _ in
      pending += input.readLines()
      // At the end of the input the descriptor stays readable: stop watching it, or the loop would spin while
      // the engine thinks.
      if input.closed { loop.unwatch(0) }
      takeLines()
    }
    loop.beforeEachWait { [unowned self] in _ = stopIfDone() }
    loop.run()
    engine?.stop()
    return shutdown.status ?? 0
  }

  /// Whether the engine owes a move (and typed lines wait for it).
  private var waitingForEngine: Bool { engine != nil && (session.engineToMove || session.engineToAnswerSwap2) }

  /// Handles the lines typed so far; while the engine thinks they wait (a script may type ahead).
  private func takeLines() {
    while !pending.isEmpty, !shutdown.isEnding, !waitingForEngine {
      let line = pending.removeFirst()
      if ["quit", "q", "exit"].contains(line.lowercased()) {
        emit("game abandoned\n")
        end(0)
        return
      }
      if playOnOffered {
        playOn(line)
        continue
      }
      let before = session.game.history.count
      emit(session.handle(line: line, now: loop.now))
      if let engine, session.engineToMove, session.game.history.count == before + 1 {
        engine.ask(session.game)
        return
      }
      if engine != nil, session.engineToAnswerSwap2 {
        _ = next()
        return
      }
      _ = next()
    }
    guard input.closed, pending.isEmpty, !waitingForEngine, !shutdown.isEnding else { return }
    emit("\n")
    writeError("tictactoe: input ended before the game finished\n")
    end(1)
  }

  /// The computer's moves, then the end of the game or the next prompt. Returns whether the game is over.
  private func next() -> Bool {
    var rng = SystemRandomNumberGenerator()
    // In a Swap2 opening the computer's answers (its stones, its choice) come first, each in one move's time.
    while session.computerToAnswerSwap2, let opening = session.swap2 {
      let computer = Swap2Computer(budget: .milliseconds(session.searchBudget(now: loop.now)))
      let actions = computer.answer(to: opening, using: &rng)
      emit(session.computerAnswered(actions, now: loop.now))
      if session.swap2?.log.count == opening.log.count { break }  // an answer refused (said): no second try
    }
    if let engine, session.engineToAnswerSwap2, let opening = session.swap2 {
      engine.askSwap2(opening)
      return false
    }
    while session.computerToMove, case .computer(let level) = session.opponent {
      // On a running clock the computer searches no longer than its time left allows.
      let budget = Duration.milliseconds(session.searchBudget(now: loop.now))
      guard let move = AIPlayer(level: level, budget: budget).chooseMove(in: session.game, using: &rng) else { break }
      emit(session.computerMoved(move, now: loop.now))
    }
    if let engine, session.engineToMove {
      engine.ask(session.game)
      return false
    }
    if session.isFinished {
      finish()
      return true
    }
    emit(session.prompt)
    watchTheFlag()
    return false
  }

  /// The game is over: it is recorded, and the program ends.
  private func finish() {
    loop.cancel(flagTimer)
    log.write("plain game over after \(session.game.history.count) moves")
    engine?.stop()
    if let recorder,
      let record = RecordOfGame.local(
        game: session.game, opponent: session.opponent, humanMark: session.humanMark,
        playerName: recorder.playerName, date: RecordOfGame.today(), clock: session.clock,
        swap2: session.swap2)
    {
      recorder.archive.keep(record)
    }
    end(0)
  }

  /// While a clock runs, a timer at its flag: the game ends on time there, whether or not a line was typed.
  private func watchTheFlag() {
    loop.cancel(flagTimer)
    flagTimer = session.flagDeadline.map { due in
      loop.schedule(at: due) { [unowned self] in
        self.flagTimer = nil
        guard !self.shutdown.isEnding else { return }
        if let text = self.session.flagIfDue(now: self.loop.now) {
          self.emit("\n" + text)
          self.finish()
        } else {
          self.watchTheFlag()
        }
      }
    }
  }

  private func engineReported(_ report: EngineSeat.Report) {
    guard engine != nil, !shutdown.isEnding else { return }
    switch report {
    case .moved(let position):
      guard session.engineToMove else { return }
      emit(session.engineMoved(position))
      if next() { return }
    case .swap2(let actions):
      guard session.engineToAnswerSwap2 else { return }
      emit(session.computerAnswered(actions, now: loop.now))
      if next() { return }
    case .noSwap2(let words):
      guard session.engineToAnswerSwap2 else { return }
      emit(session.engineRefusedSwap2(words))
      engine?.stop()
      if next() { return }
    case .forfeit(let fault):
      // Whenever it comes while the game goes on, the player's turn included (an answer nobody asked for): the
      // seat has stopped the engine already, and would not be asked again.
      guard !session.isFinished else { return }
      if !waitingForEngine { emit("\n") }  // the prompt for the player's move is showing
      // The game ends here, won by the player; it is recorded as such, and the player may play on.
      emit("the engine forfeits: \(fault.reason)\nresult: \(session.humanMark) wins by the engine's forfeit\n")
      if let recorder, case .engine(let name) = session.opponent {
        recorder.archive.keep(
          RecordOfGame.forfeit(
            game: session.game, engine: name, humanMark: session.humanMark, playerName: recorder.playerName,
            date: RecordOfGame.today()))
      }
      engine = nil
      playOnOffered = true
      emit("play on against the built-in computer (\(fallback.shown(on: session.game.rules)))? yes or quit: ")
    }
    takeLines()
  }

  /// The answer to the offer to play on against the built-in computer after a forfeit.
  private func playOn(_ line: String) {
    switch String(line.filter { !$0.isWhitespace }).lowercased() {
    case "yes", "y":
      playOnOffered = false
      session = PlainSession(
        opponent: .computer(fallback), rules: session.game.rules, humanMark: session.humanMark, now: loop.now)
      log.write("plain game: the built-in computer (\(fallback)) plays on after the engine's forfeit")
      emit(session.introduction())
      _ = next()
    case "no", "n":
      emit("game over\n")
      end(0)
    default:
      emit("type yes to play the built-in computer, or quit: ")
    }
  }

  /// A local game has no peer to tell; an engine is told END.
  package func sayGoodbye(signal: Int32) {
    log.write("plain game ended by signal \(signal)")
    engine?.stop()
  }
  package var goodbyesGoingOut: Int { 0 }
  package func redraw() {}

  private func emit(_ text: String) { writeText(1, text) }
}

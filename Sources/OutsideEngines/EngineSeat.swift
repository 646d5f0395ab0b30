import EventLoop
import GameCore
import Glibc
import Gomocup
import PlayerFiles
import UntrustedText

/// An outside Gomocup engine as the other side of local games, on the event loop: a process for each game
/// (`EngineProcess`), the protocol (`EngineConversation`), its clock, and its standard error into the log,
/// sanitised. What it does is reported as a move or a forfeit; the seat decides nothing about the game.
package final class EngineSeat {
  package enum Report {
    case moved(Position)
    case forfeit(EngineFault)
    /// Its part of a Swap2 opening (asked with `askSwap2`).
    case swap2([Swap2.Action])
    /// It does not play Swap2: it answered SWAP2BOARD with these words (ERROR or UNKNOWN).
    case noSwap2(PeerText)
  }

  /// The engine's standard error lines kept in the log per game; the rest are counted, not kept.
  static let logLines = 200

  let words: [String]
  /// The program's name as shown and recorded.
  package let name: String
  private let loop: EventLoop
  private let log: Log
  private let terms: EngineConversation.Terms
  private var process: EngineProcess?
  private var conversation: EngineConversation?
  private var output = LineReader(fd: -1)
  private var errors = LineReader(fd: -1)
  private var timer: EventLoop.TimerID?
  /// A move was asked for before the engine said OK to START.
  private var moveWanted = false
  /// A Swap2 answer was asked for before the engine said OK to START.
  private var swap2Wanted: Swap2?
  /// The game opened with Swap2: after the opening, a board the engine's conversation lacks stones of (the
  /// player's) is told whole to the same process (BOARD) rather than to a new one.
  private var playsSwap2 = false
  private var errorLines = 0
  /// Reports judged from one read of the engine's output and not yet delivered (see `deliver`).
  private var undelivered: [Report] = []
  package var onReport: (Report) -> Void = { _ in }
  /// Where a game's process goes at `stop` when the seat must not pause the loop for it (a bot serving many
  /// games ends it on timers), told END already; the status of one that closed its output is then looked for
  /// on timers too. nil: `stop` waits up to half a second for it to exit, and a tenth for that status.
  package var retire: ((EngineProcess) -> Void)?

  package init(words: [String], loop: EventLoop, log: Log, terms: EngineConversation.Terms = .init()) {
    self.words = words
    self.loop = loop
    self.log = log
    self.terms = terms
    name = Self.shownName(words)
  }

  package static func shownName(_ words: [String]) -> String { EngineCommandLine.shownName(words) }

  deinit { stop() }

  /// The engine is to move in `game`, just after the player's move (or on an empty board). The game its process
  /// plays goes on when `game` is that game and one move more; anything else is a new game, in a new process.
  package func ask(_ game: Game) {
    // A forfeit judged in the same read is still to be reported (after a move that came before it): nothing more
    // is asked of this engine, and no new process is started for it.
    if undelivered.contains(where: { if case .forfeit = $0 { true } else { false } }) { return }
    if var conversation, process != nil, playsSwap2, conversation.game.history != game.history.dropLast(),
      game.history.starts(with: conversation.game.history)
    {
      conversation.adopt(game)
      self.conversation = conversation
      send(self.conversation?.askForMove() ?? [])
      return
    }
    if var conversation, process != nil, conversation.game.history == game.history.dropLast(),
      let last = game.history.last
    {
      do {
        try conversation.opponentMoved(last)
      } catch {
        log.write("engine \(name): the player's move \(last) did not fit its board: \(error)")
      }
      self.conversation = conversation
      send(self.conversation?.askForMove() ?? [])
      return
    }
    start(game)
  }

  /// The engine is to answer the Swap2 opening `opening` (whose actor it is), with SWAP2BOARD: in the game's
  /// process, or a new one for a new game.
  package func askSwap2(_ opening: Swap2) {
    if undelivered.contains(where: { if case .forfeit = $0 { true } else { false } }) { return }
    if var conversation, process != nil, playsSwap2, !opening.game.history.isEmpty {
      let lines = conversation.askSwap2(opening)
      self.conversation = conversation
      send(lines)
      return
    }
    start(Game(rules: opening.rules))
    playsSwap2 = true
    moveWanted = false
    swap2Wanted = opening
  }

  /// The game is over (or left): the engine is told END and its process goes.
  package func stop() {
    guard let process = detach() else { return }
    if let retire {
      process.hangUp()
      retire(process)
      return
    }
    process.stop()
    if let ended = process.ended() { log.write("engine \(name) \(ended)") }
  }

  /// Lets go of the process, still running, for the caller to end. What it wrote on its standard error so far is
  /// logged first.
  private func detach() -> EngineProcess? {
    if let timer { loop.cancel(timer) }
    timer = nil
    conversation?.finish()
    guard let process else { return nil }
    loop.unwatch(process.output)
    loop.unwatch(process.errors)
    // A crash's last words may still be in the pipe (its output was read first): they belong in the log.
    for _ in 0..<64 where !errors.closed && errorLines <= Self.logLines {
      let lines = errors.readLines()
      if lines.isEmpty { break }
      for line in lines {
        errorLines += 1
        if errorLines <= Self.logLines { log.write("engine \(name) stderr: \(PeerText(line))") }
      }
    }
    if errorLines > Self.logLines {
      log.write("engine \(name): \(errorLines - Self.logLines) more lines on its standard error, not kept")
    }
    self.process = nil
    return process
  }

  private func start(_ game: Game) {
    stop()
    errorLines = 0
    playsSwap2 = false
    swap2Wanted = nil
    let process: EngineProcess
    do {
      process = try EngineProcess(words)
    } catch {
      log.write("engine: \(error)")
      onReport(.forfeit(.crashed("it could not be started: \(String(cString: strerror(error.code)))")))
      return
    }
    self.process = process
    log.write("engine \(name) started as process \(process.pid): \(words.map { VisibleText.escaping($0) })")
    var conversation = EngineConversation(rules: game.rules, terms: terms)
    for move in game.history {
      do { try conversation.opponentMoved(move) } catch { break }
    }
    self.conversation = conversation
    moveWanted = true
    output = LineReader(fd: process.output)
    errors = LineReader(fd: process.errors)
    loop.watch(process.output, events: Int16(POLLIN)) { [unowned self] _ in self.readOutput() }
    loop.watch(process.errors, events: Int16(POLLIN)) { [unowned self] _ in self.readErrors() }
    send(conversation.opening())
  }

  /// Writes lines to the engine and starts its clock when it owes an answer.
  private func send(_ lines: [String]) {
    guard let process, !lines.isEmpty else { return }
    guard process.send(lines) else {
      // It does not read: dead, or a pipe's worth behind. What it wrote last still says more; the clock decides.
      log.write("engine \(name) does not take its input")
      armClock()
      return
    }
    armClock()
  }

  private func armClock() {
    if let timer { loop.cancel(timer) }
    timer = nil
    guard let conversation, conversation.isWaiting else { return }
    let due = loop.now + Double(conversation.answerMilliseconds) / 1000
    timer = loop.schedule(at: due) { [weak self] in
      guard let self, var conversation = self.conversation else { return }
      self.timer = nil
      let event = conversation.timedOut()
      self.conversation = conversation
      self.deliver(self.handle(event).map { [$0] } ?? [])
    }
  }

  /// Judges every line of one read before anything is reported: a report re-enters the seat (the front end asks
  /// the next move at once when the player typed ahead), and a line the engine wrote before that TURN is not its
  /// answer. A move written when none was asked for forfeits (`EngineConversation`).
  private func readOutput() {
    var reports: [Report] = []
    for line in output.readLines() {
      guard var conversation else { break }
      let event = conversation.read(line)
      self.conversation = conversation
      if let report = handle(event) { reports.append(report) }
      if self.process == nil { break }
    }
    if let report = readOutputEnd() { reports.append(report) }
    deliver(reports)
  }

  /// When the engine's output has ended: the forfeit that says how.
  private func readOutputEnd() -> Report? {
    guard output.closed, var conversation, let process else { return nil }
    loop.unwatch(process.output)
    if retire != nil {
      judgeEnd(of: process, looks: 5)
      return nil
    }
    // Give a process that closed its output the moment it takes to exit, so its status can be told.
    var how = process.ended()
    for _ in 0..<20 where how == nil {
      var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
      nanosleep(&pause, nil)
      how = process.ended()
    }
    let event = conversation.ended(how ?? "it closed its output")
    self.conversation = conversation
    return handle(event)
  }

  /// The engine's output ended: the forfeit says how its process ended once it has exited, or after `looks`
  /// more looks 20 ms apart on the loop's timers.
  private func judgeEnd(of process: EngineProcess, looks: Int) {
    let how = process.ended()
    guard how != nil || looks == 0 else {
      _ = loop.schedule(at: loop.now + 0.02) { [weak self] in self?.judgeEnd(of: process, looks: looks - 1) }
      return
    }
    guard self.process === process, var conversation else { return }
    let event = conversation.ended(how ?? "it closed its output")
    self.conversation = conversation
    deliver(handle(event).map { [$0] } ?? [])
  }

  /// Standard error goes to the log (the first `logLines` lines of a game); past
  /// `EngineConversation.errorLineLimit` lines in a game the engine forfeits, and it is read no more.
  private func readErrors() {
    var reports: [Report] = []
    for line in errors.readLines() {
      errorLines += 1
      if errorLines <= Self.logLines { log.write("engine \(name) stderr: \(PeerText(line))") }
      guard var conversation else { break }
      let event = conversation.wroteError()
      self.conversation = conversation
      if let report = handle(event) { reports.append(report) }
      if process == nil { break }
    }
    if errors.closed, let process { loop.unwatch(process.errors) }
    deliver(reports)
  }

  /// Reports in the order they were judged. A front end may let go of the seat on a forfeit, so it is kept alive
  /// to the end of the loop.
  private func deliver(_ reports: [Report]) {
    guard !reports.isEmpty else { return }
    withExtendedLifetime(self) {
      undelivered = reports
      while !undelivered.isEmpty {
        let report = undelivered.removeFirst()
        onReport(report)
      }
    }
  }

  /// Logs what the engine did, starts the clock or stops the process; returns what is to be reported.
  private func handle(_ event: EngineConversation.Event) -> Report? {
    switch event {
    case .said(let text):
      if !text.isEmpty { log.write("engine \(name): \(text)") }
    case .ready:
      if let opening = swap2Wanted {
        swap2Wanted = nil
        send(conversation?.askSwap2(opening) ?? [])
      } else if moveWanted {
        moveWanted = false
        send(conversation?.askForMove() ?? [])
      } else {
        armClock()
      }
    case .moved(let position):
      if let timer { loop.cancel(timer) }
      timer = nil
      return .moved(position)
    case .swap2(let actions):
      if let timer { loop.cancel(timer) }
      timer = nil
      return .swap2(actions)
    case .noSwap2(let words):
      if let timer { loop.cancel(timer) }
      timer = nil
      log.write("engine \(name) does not play Swap2: it answered \"\(words)\"")
      return .noSwap2(words)
    case .forfeit(let fault):
      log.write("engine \(name) forfeits: \(fault.code): \(fault.reason)")
      stop()
      return .forfeit(fault)
    }
    return nil
  }
}

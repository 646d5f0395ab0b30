import EventLoop
import GameCore
import Glibc
import TerminalUI
import UntrustedText

/// Runs a local game in the plain line mode, on the event loop like every front end: standard input and the
/// signals. Every prompt is written straight to the descriptor (no buffering), so a script or screen reader
/// sees it at once. A signal ends the game with 128 + the signal, as everywhere (`LoopFrontEnd`).
final class PlainDriver: LoopFrontEnd {
  /// Where a finished game is recorded, and the player's name for it.
  struct Recorder {
    let archive: GameArchive
    let playerName: String
  }

  let loop = EventLoop()
  var shutdown = Shutdown()
  private var session: PlainSession
  private let log: Log
  private let recorder: Recorder?
  private var input = LineReader(fd: 0)

  init(session: PlainSession, log: Log, recorder: Recorder? = nil) {
    self.session = session
    self.log = log
    self.recorder = recorder
  }

  /// Plays until the game is over, the player quits or the input ends; returns the exit status.
  func run() -> Int32 {
    takeSignals()  // before the first prompt, which a script may answer with a signal
    emit(session.introduction())
    if next() { return shutdown.status ?? 0 }
    loop.watch(0, events: Int16(POLLIN)) { [unowned self] _ in
      for line in input.readLines() where !shutdown.isEnding {
        if ["quit", "q", "exit"].contains(line.lowercased()) {
          emit("game abandoned\n")
          end(0)
          return
        }
        emit(session.handle(line: line))
        _ = next()
      }
      guard input.closed, !shutdown.isEnding else { return }
      emit("\n")
      writeError("tictactoe: input ended before the game finished\n")
      end(1)
    }
    loop.beforeEachWait { [unowned self] in _ = stopIfDone() }
    loop.run()
    return shutdown.status ?? 0
  }

  /// The computer's moves, then the end of the game or the next prompt. Returns whether the game is over.
  private func next() -> Bool {
    var rng = SystemRandomNumberGenerator()
    while session.computerToMove, case .computer(let level) = session.opponent {
      guard let move = AIPlayer(level: level).chooseMove(in: session.game, using: &rng) else { break }
      emit(session.computerMoved(move))
    }
    if session.isFinished {
      log.write("plain game over after \(session.game.history.count) moves")
      if let recorder,
        let record = RecordOfGame.local(
          game: session.game, opponent: session.opponent, humanMark: session.humanMark,
          playerName: recorder.playerName, date: RecordOfGame.today())
      {
        recorder.archive.keep(record)
      }
      end(0)
      return true
    }
    emit(session.prompt)
    return false
  }

  /// A local game has no peer to tell.
  func sayGoodbye(signal: Int32) { log.write("plain game ended by signal \(signal)") }
  var goodbyesGoingOut: Int { 0 }
  func redraw() {}

  private func emit(_ text: String) { writeText(1, text) }
}

/// A message for the player on standard error, through the one sanitiser (`writeText`).
func writeError(_ text: String) { writeText(2, text) }

/// Writes words for a person (messages, status lines, tables) to `fd`: every piece between line ends and tabs
/// passes `VisibleText`, the one sanitiser, so nothing a file, a setting, a name or a peer put in the text can
/// reach the terminal as a control or a bidirectional mark. Escaping is idempotent: text escaped before comes out
/// the same. Data for programs (a certificate, JSON, SGF, completions) goes out with `writeAll`.
func writeText(_ fd: Int32, _ text: String) {
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
    line.split(separator: "\t", omittingEmptySubsequences: false).map { VisibleText.escaping(String($0)) }
      .joined(separator: "\t")
  }
  writeAll(fd, lines.joined(separator: "\n"))
}

/// Writes all of `text` to `fd`, retrying short writes.
func writeAll(_ fd: Int32, _ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
    if written <= 0 {
      if written < 0 && errno == EINTR { continue }
      return
    }
    offset += written
  }
  bytes.removeAll()
}

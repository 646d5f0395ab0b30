import GameCore
import Glibc
import TerminalUI

/// Runs the plain line mode on standard input and output. Every prompt is written straight to the
/// descriptor (no buffering), so a script or screen reader sees it at once.
public enum PlainDriver {
  /// Where a finished game is recorded, and the player's name for it.
  struct Recorder {
    let archive: GameArchive
    let playerName: String
  }

  static func run(session initial: PlainSession, log: Log, recorder: Recorder? = nil) -> Int32 {
    var session = initial
    emit(session.introduction())
    var rng = SystemRandomNumberGenerator()
    while true {
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
        return 0
      }
      emit(session.prompt)
      guard let line = readLine(strippingNewline: true) else {
        emit("\n")
        writeError("tictactoe: input ended before the game finished\n")
        return 1
      }
      if ["quit", "q", "exit"].contains(line.lowercased()) {
        emit("game abandoned\n")
        return 0
      }
      emit(session.handle(line: line))
    }
  }

  static func emit(_ text: String) { writeAll(1, text) }
}

func writeError(_ text: String) { writeAll(2, text) }

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

import CursesBackend
import EventLoop
import FrontEnds
import GameRecords
import Glibc
import NetworkShell
import PlayerFiles
import TerminalUI
import UntrustedText

/// `tictactoe replay FILE|N`: a saved game (N as `tictactoe games` numbers them) or any GM[4] SGF file, every
/// position printed in plain mode, or stepped through on the full screen.
enum ReplayCommand: Command {
  static let name = CommandLineGrammar.Command.replay

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    guard arguments.words.count == 1 else { throw UsageError(message: "replay needs one FILE or game number") }
    let screen = try arguments.screen()
    return .replay(arguments.words[0], ui: screen.ui, ascii: screen.ascii)
  }

  static func run(_ target: String, ui: UIMode, ascii: Bool, environment: [String: String]) -> Int32 {
    let paths = Paths(environment: environment)
    let record: GameRecord
    do throws(FileError) {
      record = try find(target, paths: paths)
    } catch {
      writeError("tictactoe: \(VisibleText.escaping(error.description))\n")
      return FileSystem.exists(error.path) ? ExitStatus.badFile : ExitStatus.usage
    }
    let replay = Replay(record: record)
    guard TicTacToe.screenMode(ui, environment) == .curses, isatty(0) == 1, isatty(1) == 1 else {
      writeAll(1, replay.plainText)
      return ExitStatus.ok
    }
    let glyphs = Glyphs.choose(environment: environment, forceASCII: ascii)
    return ReplayDriver(replay: replay, glyphs: glyphs, noColor: !(environment["NO_COLOR"] ?? "").isEmpty).run()
  }

  /// The file at `target`, or else the saved game with that number.
  static func find(_ target: String, paths: Paths) throws(FileError) -> GameRecord {
    if FileSystem.exists(target) || Int(target) == nil { return try GameLibrary.read(target) }
    let entries = GameLibrary.entries(paths)
    guard let number = Int(target), (1...max(1, entries.count)).contains(number), number <= entries.count else {
      throw FileError(
        path: target, reason: "is neither a file nor a saved game's number (`tictactoe games` lists \(entries.count))")
    }
    return try entries[number - 1].record.get()
  }
}

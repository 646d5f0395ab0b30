import CursesBackend
import EventLoop
import FrontEnds
import UntrustedText

/// The program: reads the command line and runs the command it names (`Invocation.run`).
public enum TicTacToe {
  public static func main(arguments: [String], environment: [String: String]) -> Int32 {
    unblockInheritedSignals()
    let invocation: Invocation
    do {
      invocation = try CommandLineParser.parse(arguments)
    } catch {
      // One line that names the problem (the whole help would scroll it away), and where the help is: the
      // command's own when one was given.
      let command = arguments.first.flatMap { CommandLineGrammar.Command(rawValue: $0) }.flatMap {
        $0 == .lobby ? nil : " \($0.rawValue)"
      }
      let help = command.map { "Try 'tictactoe\($0) --help' for its options." }
      writeError("tictactoe: \(error)\n\(help ?? "Try 'tictactoe --help' for the commands.")\n")
      return 64
    }
    return invocation.run(environment: environment)
  }

  /// The full-screen UI where the terminal can show it; plain mode, with a note on stderr, on a terminal that
  /// cannot address the cursor (TERM=dumb) or whose TERM terminfo does not know.
  static func screenMode(_ ui: UIMode, _ environment: [String: String]) -> UIMode {
    guard ui == .curses, let problem = CursesTerminal.unusable(term: environment["TERM"]) else { return ui }
    writeError("tictactoe: \(VisibleText.escaping(problem)): playing line by line, as with --ui plain\n")
    return .plain
  }
}

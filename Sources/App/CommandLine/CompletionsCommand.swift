import FrontEnds

/// `tictactoe completions bash|zsh|fish`: the completion script of a shell.
enum CompletionsCommand: Command {
  static let name = CommandLineGrammar.Command.completions

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    guard arguments.words.count == 1, let shell = Shell(rawValue: arguments.words[0]) else {
      let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError(message: "completions needs one shell: \(shells)")
    }
    return .completions(shell)
  }

  /// Prints the script.
  static func run(_ shell: Shell) -> Int32 {
    writeAll(1, Completions.script(for: shell))
    return 0
  }
}

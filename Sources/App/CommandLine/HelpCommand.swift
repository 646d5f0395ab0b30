import FrontEnds

/// `tictactoe help [COMMAND]`: the whole help, or one command's, as `--help` shows them.
enum HelpCommand: Command {
  static let name = CommandLineGrammar.Command.help

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let words = arguments.words
    guard let word = words.first else { return .help(nil) }
    if words == ["all"] { return .help(.lobby) }
    guard words.count == 1, let command = CommandLineGrammar.Command(rawValue: word), command != .lobby else {
      let guess =
        words.count == 1 ? CommandSuggestion.command(near: word).map { " (did you mean \($0.rawValue)?)" } : nil
      let names = CommandLineGrammar.Command.allCases.filter { $0 != .lobby }.map(\.rawValue)
      throw UsageError(
        message: "help takes one command (\(names.joined(separator: ", ")), or all), not "
          + "\"\(words.joined(separator: " "))\"\(guess ?? "")")
    }
    return .help(command)
  }

  /// Prints the help of `command`, the overview for none, the whole help for `.lobby` (`help all`)
  /// (`CommandHelp`); `--help` anywhere comes here too.
  static func run(_ command: CommandLineGrammar.Command?) -> Int32 {
    writeAll(1, CommandHelp.text(for: command) + "\n")
    return 0
  }

  /// `--version`, which also stands anywhere: prints the version.
  static func runVersion() -> Int32 {
    writeAll(1, CommandLineParser.version + "\n")
    return 0
  }
}

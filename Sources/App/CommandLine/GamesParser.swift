/// `tictactoe games [list] [--json] | games delete N...|all`.
enum GamesParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let command = try GamesCommand.parse(arguments.words, json: arguments.has("--json"))
    if case .delete = command, arguments.has("--json") {
      throw UsageError(message: "--json goes with `tictactoe games list`")
    }
    return .games(command)
  }
}

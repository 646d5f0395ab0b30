/// `tictactoe games [list] [--json] | games delete N...|all`.
enum GamesParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    .games(try GamesCommand.parse(arguments.words, json: arguments.has("--json")))
  }
}

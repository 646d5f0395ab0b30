/// One command of the command line: its words read (`CommandArguments`), checked, and turned into the
/// `Invocation` the program runs. Each command has a type of its own; `CommandLineParser` picks it.
protocol CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation
}

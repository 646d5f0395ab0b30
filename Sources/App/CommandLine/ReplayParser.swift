/// `tictactoe replay FILE|N`: step through a saved game or an SGF file.
enum ReplayParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    guard arguments.words.count == 1 else { throw UsageError(message: "replay needs one FILE or game number") }
    let screen = try arguments.screen()
    return .replay(arguments.words[0], ui: screen.ui, ascii: screen.ascii)
  }
}

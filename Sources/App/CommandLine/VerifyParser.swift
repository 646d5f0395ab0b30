/// `tictactoe verify FILE|N`: check a record's moves and signatures.
enum VerifyParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    guard arguments.words.count == 1 else { throw UsageError(message: "verify needs one FILE or game number") }
    return .verify(arguments.words[0])
  }
}

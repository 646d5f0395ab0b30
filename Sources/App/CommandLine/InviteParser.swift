/// `tictactoe invite`: the invites of the games this user is hosting.
enum InviteParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .invite
  }
}

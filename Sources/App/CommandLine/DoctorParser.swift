/// `tictactoe doctor [--router]`: what stands between the player and a game.
enum DoctorParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .doctor(router: arguments.has("--router"))
  }
}

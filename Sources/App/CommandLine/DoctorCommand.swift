/// `tictactoe doctor [--router]`: what stands between the player and a game.
enum DoctorCommand: Command {
  static let name = CommandLineGrammar.Command.doctor

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .doctor(router: arguments.has("--router"))
  }
}

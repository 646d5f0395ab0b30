/// `tictactoe doctor [--router]`: what stands between the player and a game.
enum DoctorCommand: Command {
  static let name = CommandLineGrammar.Command.doctor

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .doctor(router: arguments.has("--router"))
  }

  /// The checks and their hints (`Doctor`).
  static func run(router: Bool, environment: [String: String]) -> Int32 {
    Doctor.run(
      paths: Paths(environment: environment), profile: RunContext.profile(environment, name: nil), router: router)
  }
}

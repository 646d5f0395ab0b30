import NetworkFacts
import PlayerFiles
import Transport

/// `tictactoe doctor [--router]`: what stands between the player and a game.
enum DoctorCommand: Command {
  static let name = CommandLineGrammar.Command.doctor

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .doctor(router: arguments.has("--router"))
  }

  /// The checks and their hints (`Doctor`).
  /// The firewall is checked for the port `host` listens on: the `port` setting, else 7177.
  static func run(router: Bool, environment: [String: String]) -> Int32 {
    let paths = Paths(environment: environment)
    let port = (try? SettingsFile.load(from: paths.settingsFile))?.port ?? Endpoint.defaultPort
    return Doctor.run(
      paths: paths, profile: RunContext.profile(environment, name: nil), router: router, port: port)
  }
}

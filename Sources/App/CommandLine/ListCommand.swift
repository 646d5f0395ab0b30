import FrontEnds

/// `tictactoe list [--wait SECONDS] [--json]`: the games announced on the LAN.
enum ListCommand: Command {
  static let name = CommandLineGrammar.Command.list

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let wait = try arguments.seconds("--wait", in: 0...60, open: true) ?? 2
    return .list(wait: wait, json: arguments.has("--json"))
  }

  /// Looks for `wait` seconds and prints what it found (`LANGames`).
  static func run(wait: Double, json: Bool, environment: [String: String]) -> Int32 {
    LANGames.list(wait: wait, json: json, profile: RunContext.profile(environment, name: nil))
  }
}

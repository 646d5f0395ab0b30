import NetworkShell
import PlayerFiles

/// `tictactoe invite`: the invites of the games this user is hosting.
enum InviteCommand: Command {
  static let name = CommandLineGrammar.Command.invite

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    return .invite
  }

  /// Prints them (`RunningHosts`).
  static func run(environment: [String: String]) -> Int32 {
    RunningHosts.run(paths: Paths(environment: environment))
  }
}

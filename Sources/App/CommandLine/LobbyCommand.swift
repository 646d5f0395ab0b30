/// `tictactoe` alone: the lobby.
enum LobbyCommand: Command {
  static let name = CommandLineGrammar.Command.lobby

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let screen = try arguments.screen()
    return .lobby(ui: screen.ui, ascii: screen.ascii)
  }
}

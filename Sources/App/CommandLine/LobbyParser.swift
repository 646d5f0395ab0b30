/// `tictactoe` alone: the lobby.
enum LobbyParser: CommandParser {
  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let screen = try arguments.screen()
    return .lobby(ui: screen.ui, ascii: screen.ascii)
  }
}

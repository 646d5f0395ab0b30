/// `tictactoe` alone: the lobby.
enum LobbyCommand: Command {
  static let name = CommandLineGrammar.Command.lobby

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let screen = try arguments.screen()
    return .lobby(ui: screen.ui, ascii: screen.ascii)
  }

  /// The lobby on the full screen; where the terminal cannot show it (or with `--ui plain`), a local game
  /// line by line, as `play --ui plain` starts it.
  static func run(ui: UIMode, ascii: Bool, environment: [String: String]) -> Int32 {
    let ui = TicTacToe.screenMode(ui, environment)
    if ui == .plain { return PlayCommand.run(PlayRequest(), ui: ui, ascii: ascii, environment: environment) }
    return CursesLaunch.game(request: nil, ascii: ascii, environment: environment)
  }
}

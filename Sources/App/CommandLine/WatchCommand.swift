import NetworkFacts
import NetworkShell
import Security
import Transport

/// `tictactoe watch HOST[:PORT] | INVITE`: watch the game a host is playing, on the full screen or line by line.
/// The host's key is judged as a joiner judges it (a known key, the invite's pin, the question on first meeting);
/// then the players, the board, each move and the result are shown as they come.
enum WatchCommand: Command {
  static let name = CommandLineGrammar.Command.watch

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let screen = try arguments.screen()
    var network = try NetworkOptions(arguments)
    let game = try arguments.number("--game") ?? 0
    guard (1...65535).contains(game) || !arguments.has("--game") else {
      throw UsageError(message: "--game needs a game's number from 1 to 65535, as `tictactoe watch ADDRESS` lists them")
    }
    switch try JoinCommand.target(arguments.words, &network, command: "watch") {
    case .joinInvite(let invite):
      return .watch(nil, invite, network, ui: screen.ui, ascii: screen.ascii, game: UInt16(game))
    case .join(let endpoint):
      return .watch(endpoint, nil, network, ui: screen.ui, ascii: screen.ascii, game: UInt16(game))
    case .host: preconditionFailure("a target is never a host")
    }
  }

  static func run(
    _ endpoint: Endpoint?, _ invite: Invite?, options: NetworkOptions, ui: UIMode, ascii: Bool, game: UInt16 = 0,
    environment: [String: String]
  ) -> Int32 {
    let role: NetworkLaunch.Role = invite.map { .joinInvite($0) } ?? .join(endpoint ?? Endpoint(host: "", port: 0))
    return NetworkLaunch.run(
      role, options: options, ui: TicTacToe.screenMode(ui, environment), ascii: ascii, environment: environment,
      watch: true, watchGame: game)
  }
}

import FrontEnds
import NetworkFacts
import NetworkShell
import PeerTrust
import Security
import Transport

/// `tictactoe join HOST[:PORT] | INVITE | --lan GAME`: join a host by address, with an invite, or by the name
/// it announces on the LAN.
enum JoinCommand: Command {
  static let name = CommandLineGrammar.Command.join

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    let screen = try arguments.screen()
    var network = try NetworkOptions(arguments)
    let words = arguments.words
    if let lanName = arguments.value("--lan") {
      try arguments.noWords()
      try network.validate()
      return .joinLAN(lanName, network, ui: screen.ui, ascii: screen.ascii)
    }
    switch try target(words, &network, command: "join") {
    case .joinInvite(let invite): return .joinInvite(invite, network, ui: screen.ui, ascii: screen.ascii)
    case .join(let endpoint): return .join(endpoint, network, ui: screen.ui, ascii: screen.ascii)
    case .host: preconditionFailure("a target is never a host")
    }
  }

  /// The host a joiner (or a spectator, `command`) goes to: an invite, whose key then pins the options, or an
  /// address; the options checked.
  static func target(_ words: [String], _ network: inout NetworkOptions, command: String) throws(UsageError)
    -> NetworkLaunch.Role
  {
    if words.count == 1, Invite.isInvite(words[0]) {
      let invite: Invite
      do {
        invite = try Invite.parse(words[0])
      } catch {
        throw UsageError(message: "that invite cannot be used: \(error)")
      }
      guard network.pins.isEmpty, network.caFile == nil, !network.insecure else {
        throw UsageError(message: "an invite pins the host's key: it cannot be combined with --pin, --ca or --insecure")
      }
      network.pins = [PinnedKey(invite.key, source: "the invite")]
      try network.validate()
      return .joinInvite(invite)
    }
    if words.count == 1, let problem = Endpoint.numericProblem(words[0]) {
      throw UsageError(message: problem)
    }
    guard words.count == 1, let endpoint = Endpoint(parsing: words[0]) else {
      throw UsageError(
        message: words.isEmpty
          ? "\(command) needs an address (HOST, HOST:PORT or [IPv6]:PORT) or an invite"
          : "\"\(words.joined(separator: " "))\" is not an address: use HOST, HOST:PORT or [IPv6]:PORT")
    }
    try network.validate()
    return .join(endpoint)
  }

  /// Joins the host at an address, or at an invite's addresses (`NetworkLaunch`).
  static func run(
    _ role: NetworkLaunch.Role, options: NetworkOptions, ui: UIMode, ascii: Bool, environment: [String: String]
  ) -> Int32 {
    NetworkLaunch.run(
      role, options: options, ui: TicTacToe.screenMode(ui, environment), ascii: ascii, environment: environment)
  }

  /// `join --lan GAME`: looks for the game on the LAN (`LANGames`, five seconds at most), then joins it, with the
  /// key it announces to check the host's against.
  static func run(
    lan name: String, options: NetworkOptions, ui: UIMode, ascii: Bool, environment: [String: String]
  ) -> Int32 {
    let ui = TicTacToe.screenMode(ui, environment)
    switch LANGames.find(name, timeout: 5) {
    case .failure(let end):
      writeError("tictactoe: \(end)\n")
      return ExitStatus.code(for: end)
    case .success(let game):
      guard let address = game.addresses.first, let port = game.port else { return ExitStatus.failure }
      let advertised = game.txt?.fingerprint.flatMap { Fingerprint(parsing: $0) }
      return NetworkLaunch.run(
        .join(Endpoint(host: address, port: port)), options: options, ui: ui, ascii: ascii, environment: environment,
        advertised: advertised, lanName: name)
    }
  }
}

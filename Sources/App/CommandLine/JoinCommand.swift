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
      return .joinInvite(invite, network, ui: screen.ui, ascii: screen.ascii)
    }
    guard words.count == 1, let endpoint = Endpoint(parsing: words[0]) else {
      throw UsageError(
        message: words.isEmpty
          ? "join needs an address (HOST, HOST:PORT or [IPv6]:PORT) or an invite"
          : "\"\(words.joined(separator: " "))\" is not an address: use HOST, HOST:PORT or [IPv6]:PORT")
    }
    try network.validate()
    return .join(endpoint, network, ui: screen.ui, ascii: screen.ascii)
  }
}

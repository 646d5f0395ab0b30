import GameCore
import NetworkFacts
import NetworkShell
import Security
import TerminalUI
import Transport

/// How the game draws itself.
public enum UIMode: String, Sendable, Equatable {
  /// Full-screen ncurses.
  case curses
  /// Line by line on standard input and output, for screen readers and scripts.
  case plain
}

/// A parsed command line.
public enum Invocation: Sendable, Equatable {
  case lobby(ui: UIMode, ascii: Bool)
  case play(PlayRequest, ui: UIMode, ascii: Bool)
  case host(HostRequest, NetworkOptions, ui: UIMode, ascii: Bool)
  /// `host --bot LEVEL`: a practice bot serving AI games to any number of joiners.
  case bot(HostRequest, level: AILevel, NetworkOptions)
  case join(Endpoint, NetworkOptions, ui: UIMode, ascii: Bool)
  /// Join with an invite: its addresses in order, its key pinned (in the options).
  case joinInvite(Invite, NetworkOptions, ui: UIMode, ascii: Bool)
  /// Watch the game of the host at an address, or at an invite's addresses with its key pinned (in the options);
  /// `game`: which of a practice bot's games (0: the host's one game, or a bot's list of them).
  case watch(Endpoint?, Invite?, NetworkOptions, ui: UIMode, ascii: Bool, game: UInt16 = 0)
  /// Print the invites of the games this user is hosting.
  case invite
  /// Check the files, the LAN, the addresses, the router (with `router`) and the firewall.
  case doctor(router: Bool)
  /// Join the game announced on the LAN under this name.
  case joinLAN(String, NetworkOptions, ui: UIMode, ascii: Bool)
  /// Print the games announced on the LAN.
  case list(wait: Double, json: Bool)
  case identity(IdentityCommand, name: String?)
  case peers(PeersCommand)
  case games(GamesCommand)
  /// Step through a saved game (its number in `games`) or an SGF file.
  case replay(String, ui: UIMode, ascii: Bool)
  /// Check a record's moves and signatures.
  case verify(String)
  /// Speak the Gomocup brain protocol on standard input and output.
  case brain
  /// Print the completion script for this shell.
  case completions(Shell)
  /// The help: of one command (`tictactoe host --help`), or all of it.
  case help(CommandLineGrammar.Command?)
  case version
}

/// A command line the game cannot make sense of; printed with the usage, exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}

extension Invocation {
  /// Runs what was asked: hands the invocation's values to the run of the command that parsed them.
  func run(environment: [String: String]) -> Int32 {
    switch self {
    case .lobby(let ui, let ascii):
      LobbyCommand.run(ui: ui, ascii: ascii, environment: environment)
    case .play(let request, let ui, let ascii):
      PlayCommand.run(request, ui: ui, ascii: ascii, environment: environment)
    case .host(let request, let options, let ui, let ascii):
      HostCommand.run(request, options: options, ui: ui, ascii: ascii, environment: environment)
    case .bot(let request, let level, let options):
      HostCommand.run(request, bot: level, options: options, environment: environment)
    case .join(let endpoint, let options, let ui, let ascii):
      JoinCommand.run(.join(endpoint), options: options, ui: ui, ascii: ascii, environment: environment)
    case .joinInvite(let invite, let options, let ui, let ascii):
      JoinCommand.run(.joinInvite(invite), options: options, ui: ui, ascii: ascii, environment: environment)
    case .joinLAN(let name, let options, let ui, let ascii):
      JoinCommand.run(lan: name, options: options, ui: ui, ascii: ascii, environment: environment)
    case .watch(let endpoint, let invite, let options, let ui, let ascii, let game):
      WatchCommand.run(endpoint, invite, options: options, ui: ui, ascii: ascii, game: game, environment: environment)
    case .invite:
      InviteCommand.run(environment: environment)
    case .doctor(let router):
      DoctorCommand.run(router: router, environment: environment)
    case .list(let wait, let json):
      ListCommand.run(wait: wait, json: json, environment: environment)
    case .identity(let command, let name):
      IdentityCommand.run(command, name: name, environment: environment)
    case .peers(let command):
      PeersCommand.run(command, environment: environment)
    case .games(let command):
      GamesCommand.run(command, environment: environment)
    case .replay(let target, let ui, let ascii):
      ReplayCommand.run(target, ui: ui, ascii: ascii, environment: environment)
    case .verify(let target):
      VerifyCommand.run(target, environment: environment)
    case .brain:
      BrainCommand.run()
    case .completions(let shell):
      CompletionsCommand.run(shell)
    case .help(let command):
      HelpCommand.run(command)
    case .version:
      HelpCommand.runVersion()
    }
  }
}

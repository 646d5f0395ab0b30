import GameCore
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

import GameCore

/// The words of the command line: which commands there are and which options belong to each. The parser checks
/// an option's place against this table, and the shell completions (`tictactoe completions SHELL`) are written
/// from it, so the two cannot disagree.
public enum CommandLineGrammar {
  /// A command, the first word; `lobby` is what no command means.
  public enum Command: String, CaseIterable, Sendable {
    case lobby, play, host, join, watch, invite, list, identity, peers, doctor, games, replay, verify, brain
    case completions, help

    /// What the command does, in a few words (shown by the shells that show descriptions).
    public var summary: String {
      switch self {
      case .lobby: "open the lobby"
      case .play: "start a local game at once"
      case .host: "host a network game over TLS"
      case .join: "join a host by address, invite or on the LAN"
      case .watch: "watch a game being played, by address or invite"
      case .invite: "print the invite of the game you are hosting"
      case .list: "list the games announced on the LAN"
      case .identity: "show, make or import your key; export your certificate"
      case .peers: "list, rename or forget the peers you know"
      case .doctor: "check what stands between you and a game"
      case .games: "list or delete your saved games"
      case .replay: "step through a saved game or an SGF file"
      case .verify: "check the moves and both signatures of a record"
      case .brain: "play as a Gomocup brain on standard input and output"
      case .completions: "print shell completions"
      case .help: "show the help of one command, or all of it"
      }
    }

    /// The words that may follow the command, the first positional argument (`identity new`, `peers forget`).
    public var subcommands: [String] {
      switch self {
      case .identity: ["show", "new", "import", "export"]
      case .peers: ["list", "rename", "forget"]
      case .games: ["list", "delete"]
      case .completions: Shell.allCases.map(\.rawValue)
      case .help: Command.allCases.filter { $0 != .lobby && $0 != .help }.map(\.rawValue) + ["all"]
      default: []
      }
    }
  }

  /// What an option takes after it.
  public enum Value: Sendable, Equatable {
    /// Nothing: a switch.
    case none
    /// One of these words.
    case word([String])
    /// A file name.
    case file
    /// Anything else typed by hand: a number, a name, an address.
    case text(String)
  }

  public struct Option: Sendable {
    public let name: String
    public let value: Value
    public let commands: [Command]
    public let summary: String
  }

  static let levels = ["easy", "normal", "perfect"]
  static let trustCommands: [Command] = [.host, .join, .watch]
  static let screenCommands: [Command] = [.lobby, .play, .host, .join, .watch, .replay]

  /// Every option but `--help` and `--version`, which stand anywhere.
  public static let options: [Option] = [
    Option(name: "--ui", value: .word(["curses", "plain"]), commands: screenCommands, summary: "how to draw the game"),
    Option(name: "--ascii", value: .none, commands: screenCommands, summary: "draw with ASCII only"),
    Option(name: "--ai", value: .word(levels), commands: [.play], summary: "play the computer at this level"),
    Option(name: "--hotseat", value: .none, commands: [.play], summary: "two players on this keyboard"),
    Option(
      name: "--engine", value: .text("COMMAND"), commands: [.play, .host],
      summary: "play an outside Gomocup engine run by this command (host with --bot)"),
    Option(
      name: "--engine-cap", value: .text("N"), commands: [.host],
      summary: "at most N engine processes (games) at once, for host --bot --engine"),
    Option(name: "--first", value: .word(["me", "them", "random"]), commands: [.play], summary: "who moves first"),
    Option(name: "--size", value: .text("N"), commands: [.play, .host], summary: "an N by N board, 3 to 15"),
    Option(name: "--k", value: .text("K"), commands: [.play, .host], summary: "K in a row wins"),
    Option(
      name: "--rule", value: .word(RuleVariant.allCases.map(\.name)), commands: [.play, .host],
      summary: "the rule of five in a row (freestyle, exact5 or renju)"),
    Option(name: "--bot", value: .word(levels), commands: [.host], summary: "host a practice bot at this level"),
    Option(
      name: "--clock", value: .text("C"), commands: [.play, .host],
      summary: "the time control of a local game, or offered to joiners"),
    Option(
      name: "--opening", value: .word(["standard", "swap2"]), commands: [.play, .host],
      summary: "how a game opens, as usual or with Swap2"),
    Option(name: "--port", value: .text("P"), commands: [.host], summary: "the port to host on"),
    Option(name: "--bind", value: .text("ADDR"), commands: [.host], summary: "host on this address only"),
    Option(
      name: "--watch-delay", value: .text("N"), commands: [.host],
      summary: "spectators see the game N moves late (its end at once)"),
    Option(
      name: "--keep-hosting", value: .none, commands: [.host],
      summary: "in plain mode, host the next opponent after a match"),
    Option(name: "--name", value: .text("NAME"), commands: [.host, .join, .watch, .identity], summary: "your name"),
    Option(name: "--grace", value: .text("S"), commands: [.host, .join], summary: "seconds kept for a reconnection"),
    Option(name: "--lan", value: .text("GAME"), commands: [.join], summary: "join the game announced as GAME"),
    Option(name: "--game", value: .text("N"), commands: [.watch], summary: "watch game N of a practice bot"),
    Option(name: "--wait", value: .text("SECONDS"), commands: [.list], summary: "how long to look for games"),
    Option(
      name: "--map-port", value: .none, commands: [.host],
      summary: "ask the router to open the port (UPnP, NAT-PMP, PCP)"),
    Option(name: "--no-map-port", value: .none, commands: [.host], summary: "never ask the router"),
    Option(
      name: "--relay", value: .text("HOST:PORT"), commands: [.host],
      summary: "also wait for joiners at this transit relay"),
    Option(name: "--router", value: .none, commands: [.doctor], summary: "also ask the router (changing nothing)"),
    Option(name: "--json", value: .none, commands: [.list, .games], summary: "print JSON"),
    Option(
      name: "--yes", value: .none, commands: [.identity, .games],
      summary: "replace the identity, or delete every game, without asking"),
    Option(name: "--accept-new", value: .none, commands: trustCommands, summary: "accept new peers without asking"),
    Option(name: "--pin", value: .file, commands: trustCommands, summary: "accept only this key or certificate"),
    Option(name: "--ca", value: .file, commands: trustCommands, summary: "accept peers certified by these CAs"),
    Option(
      name: "--peer-name", value: .text("NAME"), commands: trustCommands,
      summary: "the name the peer certificate must carry"),
    Option(name: "--allow-expired", value: .none, commands: trustCommands, summary: "accept expired certificates"),
    Option(
      name: "--no-verify-name", value: .none, commands: trustCommands, summary: "do not check the certificate name"),
    Option(name: "--insecure", value: .none, commands: trustCommands, summary: "accept any certificate"),
    Option(name: "--cert", value: .file, commands: trustCommands, summary: "present this certificate"),
    Option(name: "--key", value: .file, commands: trustCommands, summary: "the key of --cert"),
    Option(name: "--identity", value: .file, commands: trustCommands, summary: "present this PKCS#12 identity"),
    Option(
      name: "--password-file", value: .file, commands: [.host, .join, .watch, .identity],
      summary: "the password of the PKCS#12 file"),
  ]

  /// The options that stand anywhere and end the parsing.
  public static let everywhere: [Option] = [
    Option(name: "--help", value: .none, commands: Command.allCases, summary: "show the help"),
    Option(name: "--version", value: .none, commands: Command.allCases, summary: "show the version"),
  ]

  public static func option(named name: String) -> Option? {
    options.first { $0.name == name }
  }

  /// The options of one command, in the order of the table.
  public static func options(of command: Command) -> [Option] {
    options.filter { $0.commands.contains(command) }
  }
}

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

/// What `tictactoe play` was asked for; unset fields come from the saved settings.
public struct PlayRequest: Sendable, Equatable {
  public var opponent: Opponent?
  public var size: Int?
  public var k: Int?
  public var first: FirstPlayer?

  public init() {}

  /// The rules: `--size` alone picks k = min(size, 5); nothing given keeps the saved settings.
  /// What can be checked without the saved settings: a size given is 3–15, a k given is 3–15 and, with a
  /// size, no larger than it. The rest is checked against the saved settings when the game starts (with size 9
  /// saved, `--k 4` alone is fine).
  func checkAlone() throws(UsageError) {
    do throws(RulesError) {
      if let size { _ = try Rules(size: size, k: min(size, 3)) }
      if let k { _ = try Rules(size: max(size ?? 15, 3), k: k) }
    } catch {
      throw UsageError(message: error.description)
    }
  }

  public func rules(settings: Settings) throws(RulesError) -> Rules {
    let size = size ?? settings.size
    let k = k ?? (self.size == nil ? min(settings.k, size) : min(size, 5))
    return try Rules(size: size, k: k)
  }
}

/// What `tictactoe host` was asked for.
public struct HostRequest: Sendable, Equatable {
  public var port: UInt16 = Endpoint.defaultPort
  public var bind: String?
  public var size: Int?
  public var k: Int?
  /// Plain mode: after a match, wait for the next opponent instead of exiting (the full screen always does).
  public var keepHosting = false
}

/// `tictactoe identity ...`
public enum IdentityCommand: Sendable, Equatable {
  /// Print the fingerprint (first line, SHA256:...) and the read-aloud form.
  case show
  /// Make a new key and certificate, keeping the name; an existing identity is replaced only when
  /// `confirmed` (`--yes`) or the player says yes at the terminal.
  case new(confirmed: Bool)
  /// Use the identity in these PEM files, or this PKCS#12 file.
  case importPEM(certificate: String, key: String)
  case importPKCS12(file: String, passwordFile: String?)
  /// Print the certificate (PEM) on standard output.
  case exportCertificate
}

/// `tictactoe peers ...`
public enum PeersCommand: Sendable, Equatable {
  case list
  /// Give the peer named or with this fingerprint another name (its petname).
  case rename(String, to: String)
  case forget(String)
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

/// Parses the command line by hand (no outside packages): a command, then options in any order.
public enum CommandLineParser {
  public static let version = "tictactoe 0.2.0"

  public static let usage = """
    Usage:
      tictactoe [--ui curses|plain] [--ascii]
      tictactoe play [--ai LEVEL | --hotseat] [--size N] [--k K] [--first me|them|random]
                     [--ui curses|plain] [--ascii]
      tictactoe host [--port P] [--bind ADDR] [--map-port] [--name NAME] [--size N] [--k K] [--grace S]
                     [--keep-hosting] [TRUST] [--ui MODE]
      tictactoe host --bot LEVEL [--port P] [--bind ADDR] [--name NAME] [--size N] [--k K] [TRUST]
      tictactoe join HOST[:PORT] [--name NAME] [--grace S] [TRUST] [--ui MODE]
      tictactoe join INVITE [--name NAME] [--grace S] [--ui MODE]
      tictactoe join --lan GAME [--name NAME] [--grace S] [TRUST] [--ui MODE]
      tictactoe list [--wait SECONDS] [--json]
      tictactoe identity [show | new [--yes] | import CERT.pem KEY.pem | import FILE.p12 [--password-file F] | export]
      tictactoe invite
      tictactoe doctor [--router]
      tictactoe peers [list | rename NAME|FINGERPRINT NEWNAME | forget NAME|FINGERPRINT]
      tictactoe games [list] [--json] | games delete N...|all
      tictactoe replay FILE|N [--ui curses|plain] [--ascii]
      tictactoe verify FILE|N
      tictactoe completions bash|zsh|fish
      tictactoe --help | --version

    With no command, tictactoe opens the lobby: play the computer, two players on one keyboard, options.
    `play` starts a local game at once; leaving it quits.
    `host` waits for one opponent over TLS (IPv4 and IPv6); `join` connects to a host. HOST may be a name,
    an IPv4 address or an IPv6 address; write [v6addr]:port to give a port with an IPv6 address.
    `host` also shows an invite (tictactoe:KEY@ADDRESS/PORT,...+CHECK; `invite` prints it again): `join INVITE`
    tries its addresses with the host's key pinned, so nothing is asked and any other key is refused.
    `host --bot LEVEL` is a practice bot: the computer plays everyone who joins, many at once, until stopped.
    `games` lists the games you finished (kept as SGF in $XDG_DATA_HOME/tictactoe/games), newest first;
    `replay N` steps through game N of that list (or any GM[4] SGF file): ←/→, Home/End, q.
    `verify N` checks that its moves give its result and that both players signed it (network games).
    `doctor` checks the files, LAN discovery, the addresses, the router and the firewall, each with a hint.
    `completions SHELL` prints the completion script of bash, zsh or fish: source <(tictactoe completions bash).

    Options:
      --ai LEVEL        play the computer at LEVEL: easy, normal or perfect (default: the saved setting)
      --hotseat         two players take turns on this keyboard
      --size N          an N×N board, N from 3 to 15 (default: the saved setting, first 3)
      --k K             K in a row wins, from 3 to N (default: min(N, 5) with --size, else the saved setting)
      --first WHO       who moves first against the computer: me, them or random; the first player is X
      --bot LEVEL       host a practice bot playing at LEVEL (easy, normal or perfect) against any number of
                        joiners at once, until Ctrl-C or SIGTERM; new joiners are let in only with --accept-new
      --port P          host on port P (default 7177; 0 picks a free port)
      --bind ADDR       host on this address only (default: every address, IPv6 and IPv4)
      --map-port        ask the router to open the port for players on the internet (UPnP, NAT-PMP, PCP);
                        the mapping is removed when hosting stops (default: the map_port setting, else no)
      --no-map-port     never ask the router (the practice bot never asks unless told to)
      --router          `doctor` also asks the router which mapping protocols it speaks and its outside address
      --keep-hosting    with --ui plain, wait for the next opponent after each match instead of exiting
                        (the full-screen host always does, until you leave)
      --name NAME       your name for this game (default: the `name` setting, else the login name)
      --lan GAME        join the game announced on the local network under the name GAME
      --grace S         keep a game S seconds after the connection drops, for the joiner to reconnect
                        (default 120, from 5 to 3600); after that the game may be claimed
      --wait SECONDS    how long `list` looks for games (default 2)
      --json            `list` and `games` print JSON, one object per game
      --ui MODE         curses (full screen, the default) or plain (lines on stdin/stdout)
      --ascii           draw with ASCII only (also chosen when the locale is not UTF-8)
      -h, --help        show this help and exit
      --version         show the version and exit

    Trust (TRUST above; the default is trust on first use, like OpenSSH):
      --accept-new      accept peers never met before without asking (a changed key is still refused)
      --pin SHA256:...|CERT  accept only this key (a fingerprint, or the key of a PEM or DER certificate file); give it
                        again for a second key (any is accepted)
      --ca FILE         accept peers whose certificate chains to the CAs in FILE ("system": the system store)
      --peer-name NAME  with --ca: the name the peer's certificate must carry (default: the host typed)
      --allow-expired   accept expired certificates (shown on screen while in force)
      --no-verify-name  with --ca: do not check the certificate's name (shown on screen)
      --insecure        encrypt but accept ANY certificate: privacy from passive eavesdroppers only
      --cert FILE --key FILE           present this certificate and key (PEM)
      --identity FILE.p12 [--password-file F]   present the identity in this PKCS#12 file

    Environment:
      NO_COLOR          when set, draw without colours
      XDG_CONFIG_HOME   settings.conf lives in $XDG_CONFIG_HOME/tictactoe (default ~/.config)
      XDG_DATA_HOME     the identity, known_peers and games/ live in $XDG_DATA_HOME/tictactoe (default
                        ~/.local/share)
      XDG_STATE_HOME    the log lives in $XDG_STATE_HOME/tictactoe (default ~/.local/state)

    Exit status: 0 done, 1 error, 64 usage error, 65 bad file, 10-32 network failures (see the man page),
    130/143/129 ended by SIGINT/SIGTERM/SIGHUP.
    """

  private typealias Command = CommandLineGrammar.Command

  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    // --help and --version win wherever they stand.
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
      return .help(arguments.first.flatMap { Command(rawValue: $0) })
    }
    if arguments.contains("--version") { return .version }

    var rest = arguments[...]
    var command = Command.lobby
    if let first = rest.first, !first.hasPrefix("-") {
      guard let named = Command(rawValue: first), named != .lobby else {
        throw UsageError(message: "unknown command \"\(first)\"")
      }
      command = named
      rest = rest.dropFirst()
    }
    var ui = UIMode.curses
    var ascii = false
    var screenOption: String?
    var botLevel: AILevel?
    var request = PlayRequest()
    var host = HostRequest()
    var network = NetworkOptions()
    var positional: [String] = []
    var lanName: String?
    var wait = 2.0
    var json = false
    var yes = false
    var router = false

    func value(for option: String) throws(UsageError) -> String {
      guard let next = rest.first else { throw UsageError(message: "\(option) needs a value") }
      rest = rest.dropFirst()
      return next
    }
    func number(for option: String) throws(UsageError) -> Int {
      let text = try value(for: option)
      guard let number = Int(text) else { throw UsageError(message: "\(option) needs a number, not \"\(text)\"") }
      return number
    }
    // Where an option may stand is the grammar's table, which the shell completions are written from.
    func belongs(_ option: String) throws(UsageError) {
      let commands = CommandLineGrammar.option(named: option)?.commands ?? []
      guard commands.contains(command) else {
        let names = commands.map { $0 == .lobby ? "`tictactoe`" : "`tictactoe \($0.rawValue)`" }
          .joined(separator: " or ")
        throw UsageError(message: "\(option) belongs to \(names)")
      }
    }

    func handle(_ argument: String) throws(UsageError) {
      if CommandLineGrammar.option(named: argument) != nil { try belongs(argument) }
      switch argument {
      case "--ascii":
        ascii = true
        screenOption = argument
      case "--ui":
        screenOption = argument
        let text = try value(for: argument)
        guard let mode = UIMode(rawValue: text) else {
          throw UsageError(message: "--ui must be curses or plain, not \"\(text)\"")
        }
        ui = mode
      case "--ai":
        let text = try value(for: argument)
        guard let level = AILevel(rawValue: text) else {
          throw UsageError(message: "--ai must be easy, normal or perfect, not \"\(text)\"")
        }
        if request.opponent == .hotseat { throw UsageError(message: "--ai and --hotseat cannot be combined") }
        request.opponent = .computer(level)
      case "--bot":
        let text = try value(for: argument)
        guard let level = AILevel(rawValue: text) else {
          throw UsageError(message: "--bot must be easy, normal or perfect, not \"\(text)\"")
        }
        botLevel = level
      case "--hotseat":
        if case .computer = request.opponent { throw UsageError(message: "--ai and --hotseat cannot be combined") }
        request.opponent = .hotseat
      case "--size":
        request.size = try number(for: argument)
        host.size = request.size
      case "--k":
        request.k = try number(for: argument)
        host.k = request.k
      case "--first":
        let text = try value(for: argument)
        guard let first = FirstPlayer(rawValue: text) else {
          throw UsageError(message: "--first must be me, them or random, not \"\(text)\"")
        }
        request.first = first
      case "--port":
        let port = try number(for: argument)
        guard (0...65535).contains(port) else { throw UsageError(message: "--port must be from 0 to 65535") }
        host.port = UInt16(port)
      case "--bind":
        host.bind = try value(for: argument)
      case "--keep-hosting":
        host.keepHosting = true
      case "--name":
        let name = try value(for: argument)
        guard !name.isEmpty, name.utf8.count <= 64 else {
          throw UsageError(message: "--name must be 1 to 64 bytes long")
        }
        network.name = name
      case "--grace":
        let text = try value(for: argument)
        guard let seconds = Double(text), seconds >= 5, seconds <= 3600 else {
          throw UsageError(message: "--grace needs seconds from 5 to 3600, not \"\(text)\"")
        }
        network.gracePeriod = seconds
      case "--lan":
        lanName = try value(for: argument)
      case "--wait":
        let text = try value(for: argument)
        guard let seconds = Double(text), seconds > 0, seconds <= 60 else {
          throw UsageError(message: "--wait needs seconds from 0 to 60, not \"\(text)\"")
        }
        wait = seconds
      case "--json":
        json = true
      case "--yes":
        yes = true
      case "--accept-new":
        network.acceptNew = true
      case "--pin":
        let text = try value(for: argument)
        if let fingerprint = Fingerprint(parsing: text) {
          network.pins.append(PinnedKey(fingerprint))
        } else if let bytes = PosixFiles.read(text) {
          do {
            network.pins.append(try PinnedKey.fromCertificate(bytes, file: text))
          } catch {
            throw UsageError(message: "--pin \(text): \(error)")
          }
        } else {
          throw UsageError(
            message: "--pin needs a fingerprint like SHA256:… or a certificate file (PEM or DER), not \"\(text)\"")
        }
      case "--ca":
        network.caFile = try value(for: argument)
      case "--peer-name":
        network.peerName = try value(for: argument)
      case "--allow-expired":
        network.allowExpired = true
      case "--no-verify-name":
        network.verifyName = false
      case "--insecure":
        network.insecure = true
      case "--router":
        router = true
      case "--map-port", "--no-map-port":
        let wanted = argument == "--map-port"
        if let earlier = network.mapPort, earlier != wanted {
          throw UsageError(message: "--map-port and --no-map-port cannot be combined")
        }
        network.mapPort = wanted
      case "--cert":
        network.certificateFile = try value(for: argument)
      case "--key":
        network.keyFile = try value(for: argument)
      case "--identity":
        network.pkcs12File = try value(for: argument)
      case "--password-file":
        network.passwordFile = try value(for: argument)
      default:
        if argument.hasPrefix("-") && argument.count > 1 { throw UsageError(message: "unknown option \"\(argument)\"") }
        positional.append(argument)
      }
    }

    while let argument = rest.first {
      rest = rest.dropFirst()
      // Accept --option=value as well as --option value.
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        rest.insert(String(argument[argument.index(after: equals)...]), at: rest.startIndex)
        try handle(String(argument[..<equals]))
      } else {
        try handle(argument)
      }
    }

    func noPositional() throws(UsageError) {
      if let extra = positional.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
    }

    switch command {
    case .lobby:
      try noPositional()
      return .lobby(ui: ui, ascii: ascii)
    case .play:
      try noPositional()
      // Check the rules now so a bad size is a usage error, not a failure later.
      try request.checkAlone()
      return .play(request, ui: ui, ascii: ascii)
    case .host:
      try noPositional()
      try network.validate()
      try request.checkAlone()
      if let botLevel {
        if let screenOption {
          throw UsageError(message: "\(screenOption) does not apply to --bot: the bot has no screen, only status lines")
        }
        return .bot(host, level: botLevel, network)
      }
      return .host(host, network, ui: ui, ascii: ascii)
    case .list:
      try noPositional()
      return .list(wait: wait, json: json)
    case .join:
      if let lanName {
        try noPositional()
        try network.validate()
        return .joinLAN(lanName, network, ui: ui, ascii: ascii)
      }
      if positional.count == 1, Invite.isInvite(positional[0]) {
        let invite: Invite
        do {
          invite = try Invite.parse(positional[0])
        } catch {
          throw UsageError(message: "that invite cannot be used: \(error)")
        }
        guard network.pins.isEmpty, network.caFile == nil, !network.insecure else {
          throw UsageError(
            message: "an invite pins the host's key: it cannot be combined with --pin, --ca or --insecure")
        }
        network.pins = [PinnedKey(invite.key, source: "the invite")]
        try network.validate()
        return .joinInvite(invite, network, ui: ui, ascii: ascii)
      }
      guard positional.count == 1, let endpoint = Endpoint(parsing: positional[0]) else {
        throw UsageError(
          message: positional.isEmpty
            ? "join needs an address (HOST, HOST:PORT or [IPv6]:PORT) or an invite"
            : "\"\(positional.joined(separator: " "))\" is not an address: use HOST, HOST:PORT or [IPv6]:PORT")
      }
      try network.validate()
      return .join(endpoint, network, ui: ui, ascii: ascii)
    case .invite:
      try noPositional()
      return .invite
    case .doctor:
      try noPositional()
      return .doctor(router: router)
    case .identity:
      return .identity(
        try identityCommand(positional, passwordFile: network.passwordFile, yes: yes), name: network.name)
    case .completions:
      guard positional.count == 1, let shell = Shell(rawValue: positional[0]) else {
        let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError(message: "completions needs one shell: \(shells)")
      }
      return .completions(shell)
    case .games:
      return .games(try GamesCommand.parse(positional, json: json))
    case .replay:
      guard positional.count == 1 else { throw UsageError(message: "replay needs one FILE or game number") }
      return .replay(positional[0], ui: ui, ascii: ascii)
    case .verify:
      guard positional.count == 1 else { throw UsageError(message: "verify needs one FILE or game number") }
      return .verify(positional[0])
    case .peers:
      switch positional.first {
      case nil, "list":
        guard positional.count <= 1 else { throw UsageError(message: "peers list takes no arguments") }
        return .peers(.list)
      case "rename":
        guard positional.count == 3 else {
          throw UsageError(message: "peers rename needs NAME or FINGERPRINT, then the new name")
        }
        return .peers(.rename(positional[1], to: positional[2]))
      case "forget":
        guard positional.count == 2 else { throw UsageError(message: "peers forget needs one NAME or FINGERPRINT") }
        return .peers(.forget(positional[1]))
      default:
        throw UsageError(message: "peers knows list, rename and forget, not \"\(positional[0])\"")
      }
    }
  }

  private static func identityCommand(_ words: [String], passwordFile: String?, yes: Bool) throws(UsageError)
    -> IdentityCommand
  {
    switch words.first {
    case nil, "show":
      guard words.count <= 1 else { throw UsageError(message: "identity show takes no arguments") }
      return .show
    case "new":
      guard words.count == 1 else { throw UsageError(message: "identity new takes no arguments (only --yes)") }
      return .new(confirmed: yes)
    case "export":
      return .exportCertificate
    case "import":
      if words.count == 3 { return .importPEM(certificate: words[1], key: words[2]) }
      if words.count == 2 { return .importPKCS12(file: words[1], passwordFile: passwordFile) }
      throw UsageError(message: "identity import needs CERT.pem KEY.pem, or FILE.p12")
    default:
      throw UsageError(message: "identity knows show, new, import and export, not \"\(words[0])\"")
    }
  }
}

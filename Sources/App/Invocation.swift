import GameCore
import TerminalUI

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
  public func rules(settings: Settings) throws(RulesError) -> Rules {
    let size = size ?? settings.size
    let k = k ?? (self.size == nil ? min(settings.k, size) : min(size, 5))
    return try Rules(size: size, k: k)
  }
}

/// A parsed command line.
public enum Invocation: Sendable, Equatable {
  case lobby(ui: UIMode, ascii: Bool)
  case play(PlayRequest, ui: UIMode, ascii: Bool)
  case help
  case version
}

/// A command line the game cannot make sense of; printed with the usage, exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}

/// Parses the command line by hand (no outside packages): a subcommand, then options in any order.
public enum CommandLineParser {
  public static let version = "tictactoe 0.1.0"

  public static let usage = """
    Usage:
      tictactoe [--ui curses|plain] [--ascii]
      tictactoe play [--ai LEVEL | --hotseat] [--size N] [--k K] [--first me|them|random]
                     [--ui curses|plain] [--ascii]
      tictactoe --help | --version

    With no command, tictactoe opens the lobby: play the computer, two players on one keyboard, options.
    `play` starts a game at once; leaving it quits.

    Options:
      --ai LEVEL        play the computer at LEVEL: easy, normal or perfect (default: the saved setting)
      --hotseat         two players take turns on this keyboard
      --size N          an N×N board, N from 3 to 15 (default: the saved setting, first 3)
      --k K             K in a row wins, from 3 to N (default: min(N, 5) with --size, else the saved setting)
      --first WHO       who moves first against the computer: me, them or random; the first player is X
      --ui MODE         curses (full screen, the default) or plain (lines on stdin/stdout)
      --ascii           draw with ASCII only (also chosen when the locale is not UTF-8)
      -h, --help        show this help and exit
      --version         show the version and exit

    Environment:
      NO_COLOR          when set, draw without colours
      XDG_CONFIG_HOME   settings.conf lives in $XDG_CONFIG_HOME/tictactoe (default ~/.config)
      XDG_STATE_HOME    the log lives in $XDG_STATE_HOME/tictactoe (default ~/.local/state)

    Exit status: 0 done, 1 error, 64 usage error, 130/143/129 ended by SIGINT/SIGTERM/SIGHUP.
    """

  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var rest = arguments[...]
    var isPlay = false
    if rest.first == "play" {
      isPlay = true
      rest = rest.dropFirst()
    } else if let first = rest.first, !first.hasPrefix("-") {
      throw UsageError(message: "unknown command \"\(first)\"")
    }
    var ui = UIMode.curses
    var ascii = false
    var request = PlayRequest()

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
    func playOnly(_ option: String) throws(UsageError) {
      guard isPlay else { throw UsageError(message: "\(option) belongs to `tictactoe play`") }
    }

    // --help and --version win wherever they stand.
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
    if arguments.contains("--version") { return .version }

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

    func handle(_ argument: String) throws(UsageError) {
      switch argument {
      case "--ascii": ascii = true
      case "--ui":
        let text = try value(for: argument)
        guard let mode = UIMode(rawValue: text) else {
          throw UsageError(message: "--ui must be curses or plain, not \"\(text)\"")
        }
        ui = mode
      case "--ai":
        try playOnly(argument)
        let text = try value(for: argument)
        guard let level = AILevel(rawValue: text) else {
          throw UsageError(message: "--ai must be easy, normal or perfect, not \"\(text)\"")
        }
        if request.opponent == .hotseat { throw UsageError(message: "--ai and --hotseat cannot be combined") }
        request.opponent = .computer(level)
      case "--hotseat":
        try playOnly(argument)
        if case .computer = request.opponent { throw UsageError(message: "--ai and --hotseat cannot be combined") }
        request.opponent = .hotseat
      case "--size":
        try playOnly(argument)
        request.size = try number(for: argument)
      case "--k":
        try playOnly(argument)
        request.k = try number(for: argument)
      case "--first":
        try playOnly(argument)
        let text = try value(for: argument)
        guard let first = FirstPlayer(rawValue: text) else {
          throw UsageError(message: "--first must be me, them or random, not \"\(text)\"")
        }
        request.first = first
      default:
        throw UsageError(message: "unknown option \"\(argument)\"")
      }
    }

    if isPlay {
      // Check the rules now so a bad size is a usage error, not a failure later.
      do throws(RulesError) {
        _ = try request.rules(settings: Settings())
      } catch {
        throw UsageError(message: error.description)
      }
      return .play(request, ui: ui, ascii: ascii)
    }
    return .lobby(ui: ui, ascii: ascii)
  }
}

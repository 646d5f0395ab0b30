import CursesBackend
import EventLoop
import GameCore
import Glibc
import Security
import Session
import TerminalUI
import Transport
import UntrustedText

/// The program: reads the command line, loads settings, and runs the chosen front end.
public enum TicTacToe {
  public static func main(arguments: [String], environment: [String: String]) -> Int32 {
    unblockInheritedSignals()
    let invocation: Invocation
    do {
      invocation = try CommandLineParser.parse(arguments)
    } catch {
      // One line that names the problem (the whole help would scroll it away), and where the help is: the
      // command's own when one was given.
      let command = arguments.first.flatMap { CommandLineGrammar.Command(rawValue: $0) }.flatMap {
        $0 == .lobby ? nil : " \($0.rawValue)"
      }
      let help = command.map { "Try 'tictactoe\($0) --help' for its options." }
      writeError("tictactoe: \(error)\n\(help ?? "Try 'tictactoe --help' for the commands and their options.")\n")
      return 64
    }
    switch invocation {
    case .help(let command):
      writeAll(1, CommandHelp.text(for: command) + "\n")
      return 0
    case .version:
      writeAll(1, CommandLineParser.version + "\n")
      return 0
    case .completions(let shell):
      writeAll(1, Completions.script(for: shell))
      return 0
    case .lobby(let ui, let ascii):
      let ui = screenMode(ui, environment)
      if ui == .plain { return play(PlayRequest(), ui: ui, ascii: ascii, environment: environment) }
      return CursesLaunch.game(request: nil, ascii: ascii, environment: environment)
    case .play(let request, let ui, let ascii):
      return play(request, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .host(let request, let options, let ui, let ascii):
      return NetworkLaunch.run(
        .host(request), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .bot(let request, let level, let options):
      return BotCommand.run(request, level: level, options: options, environment: environment)
    case .join(let endpoint, let options, let ui, let ascii):
      return NetworkLaunch.run(
        .join(endpoint), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .joinInvite(let invite, let options, let ui, let ascii):
      return NetworkLaunch.run(
        .joinInvite(invite), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .invite:
      return RunningHosts.run(paths: Paths(environment: environment))
    case .doctor(let router):
      return Doctor.run(
        paths: Paths(environment: environment), profile: RunContext.profile(environment, name: nil), router: router)
    case .joinLAN(let name, let options, let ui, let ascii):
      let ui = screenMode(ui, environment)
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
    case .list(let wait, let json):
      return LANGames.list(wait: wait, json: json, profile: RunContext.profile(environment, name: nil))
    case .identity(let command, let name):
      // The name for a new identity comes from the settings unless given: say when they could not be read.
      if name == nil, let warning = RunContext.settingsWarning(environment) {
        writeError("tictactoe: warning: \(warning)\n")
      }
      return IdentityCommands.run(command, profile: RunContext.profile(environment, name: name))
    case .peers(let command):
      return IdentityCommands.run(command, profile: RunContext.profile(environment, name: nil))
    case .games(let command):
      return command.run(profile: RunContext.profile(environment, name: nil))
    case .replay(let target, let ui, let ascii):
      return ReplayCommand.run(target, ui: ui, ascii: ascii, environment: environment)
    case .verify(let target):
      return VerifyCommand.run(target, environment: environment)
    }
  }

  /// The full-screen UI where the terminal can show it; plain mode, with a note on stderr, on a terminal that
  /// cannot address the cursor (TERM=dumb) or whose TERM terminfo does not know.
  static func screenMode(_ ui: UIMode, _ environment: [String: String]) -> UIMode {
    guard ui == .curses, let problem = CursesTerminal.unusable(term: environment["TERM"]) else { return ui }
    writeError("tictactoe: \(VisibleText.escaping(problem)): playing line by line, as with --ui plain\n")
    return .plain
  }

  private static func play(_ request: PlayRequest, ui: UIMode, ascii: Bool, environment: [String: String]) -> Int32 {
    guard ui == .plain else { return CursesLaunch.game(request: request, ascii: ascii, environment: environment) }
    let context = RunContext(environment: environment)
    if let warning = context.warning { writeError("tictactoe: warning: \(warning)\n") }
    let rules: Rules
    do {
      rules = try request.rules(settings: context.settings)
    } catch {
      writeError("tictactoe: \(error)\n")
      return 64
    }
    let opponent = request.opponent ?? .computer(context.settings.aiLevel)
    let humanFirst: Bool
    switch request.first ?? context.settings.first {
    case .me: humanFirst = true
    case .them: humanFirst = false
    case .random: humanFirst = Bool.random()
    }
    let human: Mark = opponent == .hotseat || humanFirst ? .x : .o
    context.log.write("plain game: \(rules), \(opponent), human \(human)")
    let recorder = PlainDriver.Recorder(
      archive: context.archive, playerName: RunContext.profile(environment, name: nil).name)
    return PlainDriver.run(
      session: PlainSession(opponent: opponent, rules: rules, humanMark: human), log: context.log, recorder: recorder)
  }
}

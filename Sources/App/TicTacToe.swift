import CursesBackend
import Foundation
import GameCore
import TerminalUI

/// The program: reads the command line, loads settings, and runs the chosen front end.
public enum TicTacToe {
  public static func main(arguments: [String], environment: [String: String]) -> Int32 {
    let invocation: Invocation
    do {
      invocation = try CommandLineParser.parse(arguments)
    } catch {
      writeError("tictactoe: \(error)\n\n\(CommandLineParser.usage)\n")
      return 64
    }
    switch invocation {
    case .help:
      writeAll(1, CommandLineParser.usage + "\n")
      return 0
    case .version:
      writeAll(1, CommandLineParser.version + "\n")
      return 0
    case .lobby(let ui, let ascii):
      if ui == .plain { return play(PlayRequest(), ui: ui, ascii: ascii, environment: environment) }
      return runCurses(request: nil, ascii: ascii, environment: environment)
    case .play(let request, let ui, let ascii):
      return play(request, ui: ui, ascii: ascii, environment: environment)
    }
  }

  private struct Context {
    let paths: Paths
    let log: Log
    var settings: Settings
    var warning: String?
  }

  private static func context(_ environment: [String: String]) -> Context {
    let paths = Paths(environment: environment)
    let log = Log(path: paths.logFile)
    do {
      return Context(paths: paths, log: log, settings: try SettingsFile.load(from: paths.settingsFile))
    } catch {
      log.write("settings: \(error)")
      return Context(
        paths: paths, log: log, settings: Settings(), warning: "Settings not loaded: \(error); using the defaults.")
    }
  }

  private static func play(_ request: PlayRequest, ui: UIMode, ascii: Bool, environment: [String: String]) -> Int32 {
    guard ui == .plain else { return runCurses(request: request, ascii: ascii, environment: environment) }
    let context = context(environment)
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
    return PlainDriver.run(session: PlainSession(opponent: opponent, rules: rules, humanMark: human), log: context.log)
  }

  private static func runCurses(request: PlayRequest?, ascii: Bool, environment: [String: String]) -> Int32 {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      writeError("tictactoe: the full-screen game needs a terminal; for pipes and scripts use --ui plain\n")
      return 1
    }
    let context = context(environment)
    var settings = context.settings
    if let request {
      do {
        let rules = try request.rules(settings: settings)
        settings.size = rules.rows
        settings.k = rules.k
      } catch {
        writeError("tictactoe: \(error)\n")
        return 64
      }
      if let first = request.first { settings.first = first }
      if case .computer(let level) = request.opponent { settings.aiLevel = level }
    }
    var state = UIState(settings: settings, seed: UInt64.random(in: 0...UInt64.max))
    state.glyphs = Glyphs.choose(environment: environment, forceASCII: ascii)
    state.notice = context.warning
    var controller = UIController(state: state)
    var initial: [Effect] = []
    if let request { initial = controller.startDirect(opponent: request.opponent ?? .computer(settings.aiLevel)) }
    let signals = SignalPipe()
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    context.log.write("curses UI started (\(state.glyphs == .unicode ? "UTF-8" : "ASCII"), colour \(!noColor))")
    let terminal = CursesTerminal(useColor: !noColor)
    let driver = CursesDriver(
      terminal: terminal, controller: controller, signals: signals, log: context.log,
      onSaveSettings: { settings in
        do {
          try SettingsFile.save(settings, to: context.paths.settingsFile)
        } catch {
          context.log.write("settings not saved: \(error)")
        }
      })
    let status = driver.run(initial: initial)
    context.log.write("curses UI ended with status \(status)")
    return status
  }
}

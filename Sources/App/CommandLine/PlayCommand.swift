import EventLoop
import FrontEnds
import GameCore
import Gomocup
import OutsideEngines
import PlayerSettings
import TerminalUI

/// What `tictactoe play` was asked for; unset fields come from the saved settings.
public struct PlayRequest: Sendable, Equatable {
  public var opponent: Opponent?
  public var size: Int?
  public var k: Int?
  public var first: FirstPlayer?
  /// `--engine COMMAND`: an outside Gomocup brain as the opponent, its command split into words.
  public var engine: [String]?
  /// `--clock C`: the time control of this game against the computer or at one keyboard; nil: the `clock`
  /// setting.
  public var clock: TimeControl?
  /// `--rule R`: freestyle, exact5 or renju; nil: the `rule` setting (which holds only while k is 5).
  public var rule: RuleVariant?
  /// `--opening O`: how the game opens, as usual or with Swap2 (five in a row from 9×9; an engine is asked with
  /// SWAP2BOARD); nil: the `opening` setting, which holds only where Swap2 is played (not against an engine).
  public var opening: Opening?

  public init() {}

  /// The rules: `--size` alone picks k = min(size, 5); nothing given keeps the saved settings.
  /// What can be checked without the saved settings: a size given is 3–15, a k given is 3–15 and, with a
  /// size, no larger than it. The rest is checked against the saved settings when the game starts (with size 9
  /// saved, `--k 4` alone is fine).
  func checkAlone() throws(UsageError) {
    do throws(RulesError) {
      if let size { _ = try Rules(size: size, k: min(size, 3)) }
      if let k { _ = try Rules(size: max(size ?? 15, 3), k: k) }
      if let rule { _ = try Rules(size: size ?? 15, k: k ?? Rules.variantK, variant: rule) }
    } catch {
      throw UsageError(message: error.description)
    }
  }

  /// Why an engine cannot play with this size and k (either may be unknown yet), or nil: the brain protocol
  /// plays five in a row, so k must be 5 and the board at least 5×5.
  func engineRefusal(size: Int?, k: Int?) -> String? {
    if let k, k != 5 {
      return "an engine plays five in a row only (the brain protocol has no other k), not \(k): use --k 5"
    }
    if let size, size < 5 {
      return "an engine plays five in a row on boards from 5×5 to 15×15, not \(size)×\(size): use --size 5 or more"
    }
    return nil
  }

  /// Why an engine cannot play by `rules` (the rules of the game about to start), or nil.
  func engineRefusal(_ rules: Rules) -> String? {
    guard rules.k != 5 || rules.rows < 5 || rules.columns < 5 else { return nil }
    return "an engine plays five in a row on boards from 5×5 to 15×15, and the saved settings give \(rules): "
      + "add --size N (5 to 15), which plays five in a row"
  }

  /// Why the Swap2 asked for cannot be played by `rules` (the board too small, k not 5), or nil (nil too for the
  /// usual opening, and for the setting, which holds only where Swap2 is played).
  func swap2Refusal(_ rules: Rules) -> String? {
    guard opening == .swap2, !Swap2.supports(rules) else { return nil }
    return "\(Swap2Error.unsupportedRules(rules)): add --size N (9 to 15), which plays five in a row"
  }

  /// The opening of a game by `rules`: `--opening`, else the setting where Swap2 is played; an engine's game
  /// opens as usual unless `--opening swap2` asks (SWAP2BOARD, on either front end).
  func opening(_ rules: Rules, settings: Settings) -> Opening {
    if engine != nil { return opening ?? .standard }
    return opening ?? (Swap2.supports(rules) ? settings.opening : .standard)
  }

  /// A rule other than freestyle asked for here brings five in a row with it (on 15×15 when neither `--size`
  /// nor the settings give a board of at least 5×5); the saved rule holds only while k is 5.
  public func rules(settings: Settings) throws(RulesError) -> Rules {
    if let rule, rule != .freestyle {
      let size = size ?? (settings.size >= Rules.variantK ? settings.size : 15)
      return try Rules(size: size, k: k ?? Rules.variantK, variant: rule)
    }
    let size = size ?? settings.size
    let k = k ?? (self.size == nil ? min(settings.k, size) : min(size, 5))
    let variant = rule ?? (k == Rules.variantK ? settings.rule : .freestyle)
    return try Rules(size: size, k: k, variant: variant)
  }
}

/// `tictactoe play [--ai LEVEL | --hotseat] [--size N] [--k K] [--rule R] [--first WHO] [--clock C]`: a local game
/// at once.
enum PlayCommand: Command {
  static let name = CommandLineGrammar.Command.play

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let screen = try arguments.screen()
    var request = PlayRequest()
    if let level = try arguments.choice("--ai", as: AILevel.self) { request.opponent = .computer(level) }
    if arguments.has("--hotseat") {
      if request.opponent != nil { throw UsageError(message: "--ai and --hotseat cannot be combined") }
      request.opponent = .hotseat
    }
    if let command = arguments.value("--engine") {
      if request.opponent != nil {
        throw UsageError(message: "--engine plays an outside engine: it cannot be combined with --ai or --hotseat")
      }
      switch EngineCommandLine.words(command) {
      case .success(let words): request.engine = words
      case .failure(let error): throw UsageError(message: error.description)
      }
    }
    request.size = try arguments.number("--size")
    request.k = try arguments.number("--k")
    request.first = try arguments.choice("--first")
    request.clock = try arguments.clock()
    request.rule = try arguments.choice("--rule", as: RuleVariant.self)
    if request.engine != nil, request.clock != nil {
      throw UsageError(
        message: "--clock times a game against the computer or at one keyboard: an engine keeps its own time")
    }
    request.opening = try arguments.choice("--opening")
    // A size or k out of range is a usage error now; the rest is checked with the saved settings.
    try request.checkAlone()
    if request.engine != nil, let refusal = request.engineRefusal(size: request.size, k: request.k) {
      throw UsageError(message: refusal)
    }
    return .play(request, ui: screen.ui, ascii: screen.ascii)
  }

  /// A local game: on the full screen, or line by line (`PlainDriver`), its rules checked against the saved
  /// settings first (a usage error, status 64, when they do not fit).
  static func run(_ request: PlayRequest, ui: UIMode, ascii: Bool, environment: [String: String]) -> Int32 {
    guard TicTacToe.screenMode(ui, environment) == .plain else {
      return CursesLaunch.game(request: request, ascii: ascii, environment: environment)
    }
    let context = RunContext(environment: environment)
    if let warning = context.warning { writeError("tictactoe: warning: \(warning)\n") }
    let rules: Rules
    do {
      rules = try request.rules(settings: context.settings)
    } catch {
      writeError("tictactoe: \(error)\n")
      return 64
    }
    var request = request
    let engineFromSettings = request.opponent == nil && request.engine == nil
    if engineFromSettings {
      do {
        request.engine = try SettingsFile.engineToRun(context.settings, path: context.paths.settingsFile)
      } catch {
        writeError("tictactoe: \(error)\n")
        return 1
      }
    }
    if let refusal = request.swap2Refusal(rules) {
      writeError("tictactoe: \(refusal)\n")
      return 64
    }
    if request.engine != nil, let refusal = request.engineRefusal(rules) {
      writeError("tictactoe: \(refusal)\n")
      return 64
    }
    let opponent =
      request.engine.map { .engine(EngineSeat.shownName($0)) } ?? request.opponent
      ?? .computer(context.settings.aiLevel)
    let humanFirst: Bool
    switch request.first ?? context.settings.first {
    case .me: humanFirst = true
    case .them: humanFirst = false
    case .random: humanFirst = Bool.random()
    }
    let human: Mark = opponent == .hotseat || humanFirst ? .x : .o
    // An engine keeps its own time; the built-in computer and two players play on `--clock` or the setting.
    let clock = request.engine == nil ? request.clock ?? context.settings.clock : .none
    let opening = request.opening(rules, settings: context.settings)
    context.log.write("plain game: \(rules), \(opponent), human \(human), clock \(clock), opening \(opening)")
    let recorder = PlainDriver.Recorder(
      archive: context.archive, playerName: RunContext.profile(environment, name: nil).name)
    return PlainDriver(
      session: PlainSession(
        opponent: opponent, rules: rules, humanMark: human, clock: clock, now: Monotonic.now(),
        opening: opening),
      log: context.log, recorder: recorder,
      engine: request.engine, fallback: context.settings.aiLevel
    ).run()
  }
}

import CursesBackend
import EventLoop
import FrontEnds
import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import OutsideEngines
import PeerTrust
import PlayerFiles
import PlayerSettings
import Security
import TerminalUI
import Transport

/// The full-screen UI started: its controller and driver made from the run's context, for a local game, the
/// lobby, or a network match.
enum CursesLaunch {
  static func game(request: PlayRequest?, ascii: Bool, environment: [String: String]) -> Int32 {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      writeError("tictactoe: the full-screen game needs a terminal; for pipes and scripts use --ui plain\n")
      return 1
    }
    let context = RunContext(environment: environment)
    var settings = context.settings
    if let request {
      switch request.applied(to: settings) {
      case .success(let asked): settings = asked
      case .failure(let problem):
        writeError("tictactoe: \(problem)\n")
        return 64
      }
    }
    var controller = CursesLaunch.controller(
      settings: settings, ascii: ascii, environment: environment, context: context)
    var initial: [Effect] = []
    var opponent = request?.opponent ?? .computer(settings.aiLevel)
    // The engine: given (--engine), or named in settings.conf, which is checked again before it is run.
    var engineWords = request?.engine
    var engineProblem: String?
    if engineWords == nil, request?.opponent == nil {
      do {
        engineWords = try SettingsFile.engineToRun(
          settings, path: context.paths.settingsFile, evenUnused: request == nil)
      } catch {
        context.log.write("settings: \(error)")
        engineProblem = "the engine in settings.conf was not run: \(error)"
        if request != nil, settings.useEngine {
          writeError("tictactoe: \(error)\n")
          return 1
        }
      }
    }
    if request != nil, let words = engineWords {
      if let request, let refusal = request.engineRefusal(settings.rules) {
        writeError("tictactoe: \(refusal)\n")
        return 64
      }
      // Swap2 against the engine only when asked here, as in plain mode (`PlayRequest.opening`).
      controller.openEngineGames(with: request?.opening ?? .standard)
      opponent = .engine(EngineSeat.shownName(words))
    }
    if request != nil, engineWords == nil, case .engine = opponent { opponent = .computer(settings.aiLevel) }
    _ = controller.clockTick(now: Monotonic.now())  // the first game's clock starts now
    if request != nil { initial = controller.startDirect(opponent: opponent) }
    let driver = CursesLaunch.driver(controller: controller, environment: environment, context: context)
    if let words = engineWords { driver.engine = EngineSeat(words: words, loop: driver.loop, log: context.log) }
    driver.engineProblem = engineProblem
    let status = driver.run(initial: initial)
    for warning in driver.warningsToRepeat { writeError("tictactoe: \(warning)\n") }
    context.log.write("curses UI ended with status \(status)")
    return status
  }

  /// `tictactoe host` or `join` in the full-screen UI.
  static func network(
    match: any MatchShell, joining: [Endpoint], rejoin: (() -> (JoinerMatch, [Endpoint]))?, initial: [MatchEvent],
    ascii: Bool, environment: [String: String], context: RunContext
  ) -> Int32 {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      writeError("tictactoe: the full-screen game needs a terminal; for pipes and scripts use --ui plain\n")
      return 1
    }
    var controller = CursesLaunch.controller(
      settings: context.settings, ascii: ascii, environment: environment, context: context)
    controller.quitWhenLeaving()
    var net = NetGameState(isHost: match.role == .host, myName: match.profileName)
    net.warnings = match.warnings
    if case .joiner(let joiner) = match.side, joiner.watches { net.watching = NetGameState.Watching() }
    controller.showNetwork(net)
    let driver = CursesLaunch.driver(controller: controller, environment: environment, context: context)
    driver.adopt(match, joining: joining)
    if let rejoin { driver.allowRejoin(rejoin) }
    driver.present(
      initial.filter { if case .status(let text) = $0 { !text.hasPrefix("warning:") } else { true } }, match)
    let status = driver.run(initial: [])
    for warning in driver.warningsToRepeat { writeError("tictactoe: \(warning)\n") }
    context.log.write("curses network UI ended with status \(status)")
    return status
  }

  static func controller(
    settings: Settings, ascii: Bool, environment: [String: String], context: RunContext
  ) -> UIController {
    var state = UIState(settings: settings, seed: UInt64.random(in: 0...UInt64.max))
    state.glyphs = Glyphs.choose(environment: environment, forceASCII: ascii)
    state.notice = context.warning
    state.recentAddresses = RecentAddresses.load(context.paths)
    return UIController(state: state)
  }

  static func driver(controller: UIController, environment: [String: String], context: RunContext)
    -> CursesDriver
  {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    context.log.write(
      "curses UI started (\(controller.state.glyphs == .unicode ? "UTF-8" : "ASCII"), colour \(!noColor))")
    let terminal = CursesTerminal(useColor: !noColor)
    let driver = CursesDriver(
      terminal: terminal, controller: controller, loop: EventLoop(), log: context.log,
      onSaveSettings: { settings in
        context.archive.enabled = settings.records
        do {
          try SettingsFile.save(settings, to: context.paths.settingsFile)
          return nil
        } catch {
          context.log.write("settings not saved: \(error)")
          return "Options not saved (they apply until you quit): \(error)"
        }
      })
    driver.localRecords = LocalGameRecorder(
      archive: context.archive, playerName: RunContext.profile(environment, name: nil).name)
    context.archive.report = { [unowned driver] text in driver.showRecordProblem(text) }
    driver.onJoined = { addresses in RecentAddresses.save(addresses, context.paths, log: context.log) }
    driver.startNetwork = { address, advertised, settings in
      NetworkLaunch.fromLobby(
        address: address, advertised: advertised, settings: settings, environment: environment, context: context)
    }
    let lanProfile = RunContext.profile(environment, name: nil)
    driver.lanContext = {
      let known = (try? lanProfile.knownPeers()) ?? KnownPeers()
      let own = (try? IdentityStore(directory: lanProfile.identityDirectory).load())??.fingerprint.description
      return (known, own)
    }
    return driver
  }
}

extension PlayRequest {
  /// The settings of this run with what `play` asked for: the rules, the opening, who starts, the level, the
  /// clock (for this run only, as --size is: Options saves them only if the player saves the options); or why
  /// they cannot be played (a usage error).
  func applied(to saved: Settings) -> Result<Settings, UsageError> {
    var settings = saved
    do {
      let rules = try self.rules(settings: settings)
      settings.size = rules.rows
      settings.k = rules.k
      settings.rule = rules.variant
      if let refusal = swap2Refusal(rules) { return .failure(UsageError(message: refusal)) }
      // The engine's game opens as usual (`UIController.startOpening`).
      if let opening { settings.opening = opening }
    } catch {
      return .failure(UsageError(message: error.description))
    }
    if let first { settings.first = first }
    if case .computer(let level) = opponent { settings.aiLevel = level }
    if let clock { settings.clock = clock }
    return .success(settings)
  }
}

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
      return runCurses(request: nil, ascii: ascii, environment: environment)
    case .play(let request, let ui, let ascii):
      return play(request, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .host(let request, let options, let ui, let ascii):
      return network(
        .host(request), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .bot(let request, let level, let options):
      return runBot(request, level: level, options: options, environment: environment)
    case .join(let endpoint, let options, let ui, let ascii):
      return network(
        .join(endpoint), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .joinInvite(let invite, let options, let ui, let ascii):
      return network(
        .joinInvite(invite), options: options, ui: screenMode(ui, environment), ascii: ascii, environment: environment)
    case .invite:
      return RunningHosts.run(paths: Paths(environment: environment))
    case .doctor(let router):
      return Doctor.run(
        paths: Paths(environment: environment), profile: profile(environment, name: nil), router: router)
    case .joinLAN(let name, let options, let ui, let ascii):
      let ui = screenMode(ui, environment)
      switch LANGames.find(name, timeout: 5) {
      case .failure(let end):
        writeError("tictactoe: \(end)\n")
        return ExitStatus.code(for: end)
      case .success(let game):
        guard let address = game.addresses.first, let port = game.port else { return ExitStatus.failure }
        let advertised = game.txt?.fingerprint.flatMap { Fingerprint(parsing: $0) }
        return network(
          .join(Endpoint(host: address, port: port)), options: options, ui: ui, ascii: ascii, environment: environment,
          advertised: advertised, lanName: name)
      }
    case .list(let wait, let json):
      return LANGames.list(wait: wait, json: json, profile: profile(environment, name: nil))
    case .identity(let command, let name):
      // The name for a new identity comes from the settings unless given: say when they could not be read.
      if name == nil, let warning = settingsWarning(environment) { writeError("tictactoe: warning: \(warning)\n") }
      return IdentityCommands.run(command, profile: profile(environment, name: name))
    case .peers(let command):
      return IdentityCommands.run(command, profile: profile(environment, name: nil))
    case .games(let command):
      return command.run(profile: profile(environment, name: nil))
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

  /// Why the settings file could not be used, as a warning (nil when it loads or does not exist).
  static func settingsWarning(_ environment: [String: String]) -> String? {
    do {
      _ = try SettingsFile.load(from: Paths(environment: environment).settingsFile)
      return nil
    } catch {
      return "Settings not loaded: \(error); using the defaults."
    }
  }

  /// The player: the name given on the command line, else the `name` setting, else the login name.
  static func profile(_ environment: [String: String], name: String?) -> Profile {
    let paths = Paths(environment: environment)
    let saved = (try? SettingsFile.load(from: paths.settingsFile))?.name
    return Profile(paths: paths, name: name ?? saved ?? Profile.loginName(environment: environment))
  }

  enum NetworkRole {
    case host(HostRequest)
    case join(Endpoint)
    /// Join with an invite: its addresses in order, its key pinned by the options.
    case joinInvite(Invite)
  }

  private static func network(
    _ role: NetworkRole, options: NetworkOptions, ui: UIMode, ascii: Bool, environment: [String: String],
    advertised: Fingerprint? = nil, lanName: String? = nil
  ) -> Int32 {
    let context = context(environment)
    let profile = profile(environment, name: options.name)
    let identity: Security.Identity
    do {
      let (loaded, created) = try profile.identity(options: options)
      identity = loaded
      if created { writeError("tictactoe: made a new identity for \(profile.name): \(loaded.fingerprint)\n") }
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
    // Every connection is judged against the known peers: a file that does not load would turn every joiner
    // away (or fail the join) later, so it is reported now, before anyone connects.
    do {
      if let line = try profile.knownPeers().droppedTornLine {
        writeError("tictactoe: warning: \(profile.knownPeersPath):\(line): a line cut short was left out\n")
      }
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
    var rules = context.settings.rules
    if case .host(let request) = role {
      var play = PlayRequest()
      play.size = request.size
      play.k = request.k
      do {
        rules = try play.rules(settings: context.settings)
      } catch {
        writeError("tictactoe: \(error) (with the saved settings)\n")
        return ExitStatus.usage
      }
    }
    let clock = { Monotonic.now() }
    let isHost: Bool
    if case .host = role { isHost = true } else { isHost = false }
    let match = NetworkMatch(
      role: isHost ? .host : .joiner, profile: profile, identity: identity, options: options, rules: rules,
      log: context.log, clock: clock)
    match.archive = context.archive
    var initial: [MatchEvent] = options.warnings.map { .status("warning: \($0)") }
    if let warning = context.warning {
      if ui == .plain { writeError("tictactoe: warning: \(warning)\n") } else { initial.append(.status(warning)) }
    }
    var joining: [Endpoint] = []
    switch role {
    case .host(let request):
      do {
        try match.host(bind: request.bind, port: request.port)
      } catch {
        writeError("tictactoe: \(error)\n")
        return ExitStatus.code(for: .network(error))
      }
      // Only when asked (here or in the settings) is the router asked to open the port.
      match.mapsPort = options.mapPort ?? context.settings.mapPort ?? false
      match.offersPortMapping = ui == .curses && options.mapPort == nil && context.settings.mapPort == nil
      match.welcome = hostIntroduction(
        match: match, profile: profile, identity: identity, rules: rules, bind: request.bind)
      initial += match.welcome
      // The full-screen host hosts on after each match until the player leaves; plain mode when asked to.
      match.keepsHosting = ui == .curses || request.keepHosting
      initial += match.advertise()
    case .join(let endpoint):
      match.advertisedFingerprint = advertised
      match.lanGameName = lanName
      initial.append(.status("Connecting to \(endpoint)…"))
      joining = [endpoint]
    case .joinInvite(let invite):
      match.inviteKey = invite.key
      joining = invite.addresses.map { Endpoint(host: $0.host, port: $0.port) }
      initial.append(.status("Joining with the invite: the host's key must be \(invite.key)."))
      initial.append(.status("Connecting to \(joining[0])…"))
    }
    if ui == .curses {
      // A joiner can join the same host again after the match ends (`r`), with this command's options.
      let inviteKey = match.inviteKey
      let rejoin: (() -> (NetworkMatch, [Endpoint]))? =
        joining.isEmpty
        ? nil
        : {
          let again = NetworkMatch(
            role: .joiner, profile: profile, identity: identity, options: options, rules: rules, log: context.log,
            clock: clock)
          again.advertisedFingerprint = advertised
          again.lanGameName = lanName
          again.inviteKey = inviteKey
          again.archive = context.archive
          return (again, joining)
        }
      return runCursesNetwork(
        match: match, joining: joining, rejoin: rejoin, initial: initial, ascii: ascii, environment: environment,
        context: context)
    }
    return PlainNetworkDriver(match: match, log: context.log).run(initial: initial, joining: joining)
  }

  /// What the host's player is told first; with `bind`, only the address it listens on is offered.
  static func hostIntroduction(
    match: NetworkMatch, profile: Profile, identity: Security.Identity, rules: Rules, bind: String? = nil
  ) -> [MatchEvent] {
    let addresses = (bind.map { [$0] } ?? Sockets.localAddresses())
      .map { $0.contains(":") ? "[\($0)]:\(match.port)" : "\($0):\(match.port)" }
    // The invite: a friend who joins with it needs to check nothing. `tictactoe invite` prints it again.
    let invite = RunningHosts.invite(key: identity.fingerprint, port: match.port, bind: bind)
    if let invite { match.invitePath = RunningHosts.publish(invite, paths: profile.paths) }
    return [
      .status("Hosting \(rules) as \(profile.name) on port \(match.port)."),
      .status("Your key: \(identity.fingerprint)"),
      .status("Read aloud: \(identity.fingerprint.readAloud)"),
    ] + (invite.map { [.status("Invite: \($0)")] } ?? []) + [
      .status(
        addresses.isEmpty
          ? "Friends on this machine join with: tictactoe join localhost:\(match.port)"
          : "Friends join with: tictactoe join ADDRESS, ADDRESS one of \(addresses.joined(separator: ", "))")
    ]
      + (addresses.contains { $0.contains("%") }
        ? [
          .status(
            "An fe80:: address works on this network only; from another machine, put that machine's own network"
              + " interface after the %.")
        ] : [])
      + [.status("Waiting for an opponent…")]
  }

  struct Context {
    let paths: Paths
    let log: Log
    var settings: Settings
    var warning: String?
    /// Where this run's finished games are recorded.
    let archive: GameArchive

    init(paths: Paths, log: Log, settings: Settings, warning: String? = nil) {
      self.paths = paths
      self.log = log
      self.settings = settings
      self.warning = warning
      archive = GameArchive(paths: paths, enabled: settings.records, log: log)
    }
  }

  static func context(_ environment: [String: String]) -> Context {
    let paths = Paths(environment: environment)
    let log = Log(path: paths.logFile, maximumBytes: Log.cap)
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
    let recorder = PlainDriver.Recorder(archive: context.archive, playerName: profile(environment, name: nil).name)
    return PlainDriver.run(
      session: PlainSession(opponent: opponent, rules: rules, humanMark: human), log: context.log, recorder: recorder)
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
    var controller = makeController(settings: settings, ascii: ascii, environment: environment, context: context)
    var initial: [Effect] = []
    if let request { initial = controller.startDirect(opponent: request.opponent ?? .computer(settings.aiLevel)) }
    let driver = makeDriver(controller: controller, environment: environment, context: context)
    let status = driver.run(initial: initial)
    for warning in driver.warningsToRepeat { writeError("tictactoe: \(warning)\n") }
    context.log.write("curses UI ended with status \(status)")
    return status
  }

  private static func makeController(
    settings: Settings, ascii: Bool, environment: [String: String], context: Context
  ) -> UIController {
    var state = UIState(settings: settings, seed: UInt64.random(in: 0...UInt64.max))
    state.glyphs = Glyphs.choose(environment: environment, forceASCII: ascii)
    state.notice = context.warning
    state.recentAddresses = RecentAddresses.load(context.paths)
    return UIController(state: state)
  }

  private static func makeDriver(controller: UIController, environment: [String: String], context: Context)
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
    driver.localRecords = LocalGameRecorder(archive: context.archive, playerName: profile(environment, name: nil).name)
    context.archive.report = { [unowned driver] text in driver.showRecordProblem(text) }
    let settings = controller.state.settings
    driver.onJoined = { addresses in RecentAddresses.save(addresses, context.paths, log: context.log) }
    driver.startNetwork = { address, advertised in
      startFromLobby(
        address: address, advertised: advertised, settings: settings, environment: environment, context: context)
    }
    let lanProfile = profile(environment, name: nil)
    driver.lanContext = {
      let known = (try? lanProfile.knownPeers()) ?? KnownPeers()
      let own = (try? IdentityStore(directory: lanProfile.identityDirectory).load())??.fingerprint.description
      return (known, own)
    }
    return driver
  }

  /// Hosting or joining chosen in the lobby: default trust (trust on first use), the saved rules.
  private static func startFromLobby(
    address: String?, advertised: Fingerprint?, settings: Settings, environment: [String: String], context: Context
  ) -> Result<(NetworkMatch, [MatchEvent], [Endpoint]), MatchEnd> {
    var options = NetworkOptions()
    let profile = profile(environment, name: nil)
    var endpoints: [Endpoint] = []
    var invite: Invite?
    if let address {
      if Invite.isInvite(address) {
        do {
          invite = try Invite.parse(address)
        } catch {
          return .failure(.setup("That invite cannot be used: \(error)."))
        }
        options.pins = invite.map { [PinnedKey($0.key, source: "the invite")] } ?? []
        endpoints = invite?.addresses.map { Endpoint(host: $0.host, port: $0.port) } ?? []
      } else if let endpoint = Endpoint(parsing: address) {
        endpoints = [endpoint]
      } else {
        return .failure(
          .setup("\"\(VisibleText.escaping(address))\" is not an address (HOST, HOST:PORT or [IPv6]:PORT) or an invite")
        )
      }
    }
    do {
      let (identity, _) = try profile.identity(options: options)
      let match = NetworkMatch(
        role: address == nil ? .host : .joiner, profile: profile, identity: identity, options: options,
        rules: settings.rules, log: context.log, clock: { Monotonic.now() })
      match.archive = context.archive
      if address != nil {
        match.advertisedFingerprint = advertised
        match.inviteKey = invite?.key
        return .success((match, [], endpoints))
      }
      try match.host(bind: nil, port: Endpoint.defaultPort)
      match.welcome = hostIntroduction(match: match, profile: profile, identity: identity, rules: settings.rules)
      match.keepsHosting = true
      match.mapsPort = settings.mapPort ?? false
      match.offersPortMapping = settings.mapPort == nil
      return .success((match, match.welcome, []))
    } catch let error as MatchEnd {
      return .failure(error)
    } catch let error as NetworkError {
      return .failure(.network(error))
    } catch {
      return .failure(.setup("\(error)"))
    }
  }

  /// `tictactoe host` or `join` in the full-screen UI.
  static func runCursesNetwork(
    match: NetworkMatch, joining: [Endpoint], rejoin: (() -> (NetworkMatch, [Endpoint]))?, initial: [MatchEvent],
    ascii: Bool, environment: [String: String], context: Context
  ) -> Int32 {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      writeError("tictactoe: the full-screen game needs a terminal; for pipes and scripts use --ui plain\n")
      return 1
    }
    var controller = makeController(
      settings: context.settings, ascii: ascii, environment: environment, context: context)
    controller.quitWhenLeaving()
    var net = NetGameState(isHost: match.role == .host, myName: match.profileName)
    net.warnings = match.warnings
    controller.showNetwork(net)
    let driver = makeDriver(controller: controller, environment: environment, context: context)
    driver.adopt(match, joining: joining)
    if let rejoin { driver.allowRejoin(rejoin) }
    driver.present(
      initial.filter { if case .status(let text) = $0 { !text.hasPrefix("warning:") } else { true } }, match)
    let status = driver.run(initial: [])
    for warning in driver.warningsToRepeat { writeError("tictactoe: \(warning)\n") }
    context.log.write("curses network UI ended with status \(status)")
    return status
  }
}

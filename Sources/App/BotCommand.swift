import EventLoop
import FrontEnds
import GameCore
import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import PlayerFiles
import PracticeBot
import Security
import Transport
import UntrustedText

/// `tictactoe host --bot LEVEL` run: the bot on its loop, its rules from the saved settings.
enum BotCommand {
  /// `tictactoe host --bot LEVEL`: serves AI games until SIGINT or SIGTERM, printing a few status lines on
  /// standard output; SIGHUP reads the deny list and limits again. Exits 0 after saying goodbye to every peer.
  static func run(
    _ request: HostRequest, level: AILevel, options: NetworkOptions, environment: [String: String]
  ) -> Int32 {
    // Signals are caught from here on: one that comes while the openings are solved is handled once serving.
    let loop = EventLoop()
    loop.handleSignals { _ in }
    let context = RunContext(environment: environment)
    if let warning = context.warning { writeError("tictactoe: warning: \(warning)\n") }
    let profile = RunContext.profile(environment, name: options.name)
    let rules: Rules
    let opening: Opening
    do {
      rules = try request.play.rules(settings: context.settings)
      opening = try request.offeredOpening(
        rules, timeControl: request.clock ?? context.settings.clock, settings: context.settings)
    } catch {
      writeError("tictactoe: \(error) (with the saved settings)\n")
      return ExitStatus.usage
    }
    var play = PlayRequest()
    play.engine = request.engine
    if request.engine != nil, let refusal = play.engineRefusal(rules) {
      writeError("tictactoe: \(refusal)\n")
      return ExitStatus.usage
    }
    let start = Start(
      request: request, level: level, options: options, context: context,
      profile: profile, rules: rules, loop: loop)
    let bot: BotHost
    var mapping: PortMappingOnLoop?
    do {
      let (started, identity) = try start.makeBot()
      bot = started
      bot.opening = opening
      let descriptors = OpenFileLimit.raiseToHardLimit()
      let solving = bot.warmUp()
      if solving >= 0.1 {
        writeText(1, "Solved the opening positions in \(BotGameRecord.seconds(solving).dropLast(2)) s.\n")
      }
      try bot.listen(bind: request.bind, port: request.port ?? context.settings.port ?? Endpoint.defaultPort)
      start.printWelcome(bot, identity: identity, descriptors: descriptors)
      if let problem = bot.advertise() { writeText(1, problem + "\n") }
      // The bot asks the router only when told to (--map-port), never from the settings.
      if options.mapPort == true {
        mapping = start.mapPort(bot, identity: identity)
      }
    } catch let error as NetworkError {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.code(for: .network(error))
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
    bot.run { writeText(1, $0 + "\n") }
    mapping?.stopNow()  // the loop has ended: the router closes the port again (waiting at most a second)
    return ExitStatus.ok
  }

  /// What one run of the command was asked and read before the bot starts.
  private struct Start {
    let request: HostRequest
    let level: AILevel
    let options: NetworkOptions
    let context: RunContext
    let profile: Profile
    let rules: Rules
    let loop: EventLoop

    /// The bot, with the player's identity (made the first time) and where its games are collected.
    func makeBot() throws -> (BotHost, Security.Identity) {
      let (identity, created) = try profile.identity(options: options)
      if created { writeError("tictactoe: made a new identity for \(profile.name): \(identity.fingerprint)\n") }
      let limits = SourceLimits(settings: context.settings, now: Monotonic.now())
      let bot = try BotHost(
        level: level, rules: rules, profile: profile, identity: identity, options: options, log: context.log,
        loop: loop, limits: limits,
        engine: request.engine.map { ($0, request.engineCap ?? BotMoves.processors) })
      bot.door.proxyFrom = BotDoor.proxies(context.settings)
      bot.door.settingsSource = { [paths = context.paths] in try SettingsFile.load(from: paths.settingsFile) }
      bot.collection = BotCollection(paths: context.paths, enabled: context.settings.records, log: context.log)
      bot.timeControl = request.clock ?? context.settings.clock
      return (bot, identity)
    }

    /// The status lines once the bot listens: the warnings, where it serves, its key, who is let in and how many
    /// at once (`descriptors`: the open-file limit, when known), where the games are logged.
    func printWelcome(_ bot: BotHost, identity: Security.Identity, descriptors: UInt?) {
      for warning in options.warnings { writeText(1, "warning: \(warning)\n") }
      writeText(
        1,
        "Practice bot (\(bot.player)) serving \(rules)\(bot.timeControl.isTimed ? ", \(bot.timeControl.spoken)," : "")"
          + (bot.opening == .swap2 ? ", Swap2 opening," : "")
          + " as \(profile.name) on port \(bot.port)"
          + " (\(request.bind ?? "every address")).\n")
      writeText(1, "Key: \(identity.fingerprint)\n")
      let capacity = descriptors.map { " Up to about \($0 - 16) players at once (open-file limit \($0))." } ?? ""
      let trust =
        options.acceptNew
        ? "New players are let in and remembered (--accept-new)."
        : "Only players already known are let in; start with --accept-new to let in new ones."
      writeText(1, trust + capacity + "\n")
      if case .engine(let words, let cap) = bot.moves.player {
        writeText(
          1,
          "Engine: \(words.map { VisibleText.escaping($0) }.joined(separator: " ")), one process a game, at most \(cap) at once.\n"
        )
      }
      writeText(1, "Games are logged to \(context.log.place). Stop with Ctrl-C.\n")
    }

    /// The router asked to open the bot's port (started here); what it says is printed, with the invite from
    /// outside once the outside address is known.
    func mapPort(_ bot: BotHost, identity: Security.Identity) -> PortMappingOnLoop {
      let (key, port, bind) = (identity.fingerprint, bot.port, request.bind)
      let mapping = PortMappingOnLoop(loop: loop, port: port, paths: context.paths) { lines, external in
        for line in lines { writeText(1, line + "\n") }
        if let external, let outside = RunningHosts.invite(key: key, port: port, bind: bind, external: external) {
          writeText(1, "Invite: \(outside)\n")
        }
      }
      mapping.start()
      return mapping
    }
  }
}

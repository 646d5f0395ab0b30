import GameCore
import Gomocup
import MatchCoordination
import NetworkFacts
import NetworkShell
import PlayerSettings
import Transport

/// What `tictactoe host` was asked for.
public struct HostRequest: Sendable, Equatable {
  /// nil: the `port` setting, else 7177.
  public var port: UInt16?
  public var bind: String?
  public var size: Int?
  public var k: Int?
  /// Plain mode: after a match, wait for the next opponent instead of exiting (the full screen always does).
  public var keepHosting = false
  /// The time control offered to joiners (`--clock`); nil: the `clock` setting, else none.
  public var clock: TimeControl?
  /// `--rule R`: the rule of five in a row offered to joiners (protocol version 4); nil: the `rule` setting,
  /// which holds only while k is 5.
  public var rule: RuleVariant?
  /// `--relay HOST:PORT`: a transit relay to wait at beside the listeners (nil: the `relay` setting, if any).
  public var relay: Endpoint?
  /// `host --bot --engine COMMAND`: the outside engine that plays for the bot, its command split into words.
  public var engine: [String]?
  /// `--engine-cap N`: at most N engine processes at once (nil: one per processor).
  public var engineCap: Int?
  /// `--opening O`: how the games offered open (protocol version 4), as usual or with Swap2; nil: the `opening`
  /// setting, which holds only where Swap2 is played (five in a row from 9×9).
  public var opening: Opening?
  /// `--watch-delay N`: spectators see the game N moves late (nil: the `watch_delay` setting, else live).
  public var watchDelay: Int?

  /// The moves a watch delay may hold back (a game on 15×15 has at most 225).
  static let watchDelays = 0...225

  /// The rules asked for, as `play` takes them (checked against the saved settings when hosting starts).
  var play: PlayRequest {
    var play = PlayRequest()
    play.size = size
    play.k = k
    play.rule = rule
    play.opening = opening
    return play
  }

  /// The opening offered with `rules` and `timeControl`: `--opening`, else the setting where Swap2 is played; or
  /// why it cannot be (`--opening swap2` on a board Swap2 is not played on, or Swap2 with a clock, which network
  /// games do not play yet).
  func offeredOpening(_ rules: Rules, timeControl: TimeControl, settings: Settings) throws(UsageError) -> Opening {
    if let refusal = play.swap2Refusal(rules) { throw UsageError(message: refusal) }
    // An outside engine at the bot is asked only for moves: its games open as usual (the saved setting yields).
    if engine != nil {
      guard opening != .swap2 else {
        throw UsageError(message: "an outside engine at the bot plays the usual opening: leave out --opening swap2")
      }
      return .standard
    }
    let opening = play.opening(rules, settings: settings)
    guard opening == .swap2, timeControl.isTimed else { return opening }
    throw UsageError(
      message: "the swap2 opening is played without a clock over the network (the clock is \(timeControl)): host"
        + " with --clock none, or with --opening standard")
  }
}

/// `tictactoe host [...]`, and `host --bot LEVEL`, the practice bot, which has no screen.
enum HostCommand: Command {
  static let name = CommandLineGrammar.Command.host

  static func parse(_ arguments: CommandArguments) throws(UsageError) -> Invocation {
    try arguments.noWords()
    let screen = try arguments.screen()
    var request = HostRequest()
    if let port = try arguments.number("--port") {
      guard (0...65535).contains(port) else { throw UsageError(message: "--port must be from 0 to 65535") }
      request.port = UInt16(port)
    }
    request.bind = arguments.value("--bind")
    request.size = try arguments.number("--size")
    request.k = try arguments.number("--k")
    request.keepHosting = arguments.has("--keep-hosting")
    request.clock = try arguments.clock()
    request.rule = try arguments.choice("--rule", as: RuleVariant.self)
    request.opening = try arguments.choice("--opening")
    if let delay = try arguments.number("--watch-delay") {
      guard HostRequest.watchDelays.contains(delay) else {
        throw UsageError(
          message: "--watch-delay must be a number of moves from 0 to \(HostRequest.watchDelays.upperBound)")
      }
      request.watchDelay = delay
    }
    if let text = arguments.value("--relay") {
      guard let relay = RelayAddress.parse(text) else {
        throw UsageError(message: "--relay needs HOST:PORT (a transit relay's address and its port), not \"\(text)\"")
      }
      request.relay = relay
    }
    let network = try NetworkOptions(arguments)
    try network.validate()
    try request.play.checkAlone()
    guard arguments.has("--bot") else {
      if let option = arguments.last(of: ["--engine", "--engine-cap"]) {
        throw UsageError(message: "\(option) belongs to the practice bot: host --bot --engine COMMAND")
      }
      return .host(request, network, ui: screen.ui, ascii: screen.ascii)
    }
    let level = try botPlayer(arguments, &request)
    if request.relay != nil {
      throw UsageError(message: "--relay does not apply to --bot: the practice bot does not wait at relays")
    }
    if let option = arguments.last(of: ["--ui", "--ascii"]) {
      throw UsageError(message: "\(option) does not apply to --bot: the bot has no screen, only status lines")
    }
    return .bot(request, level: level, network)
  }

  /// The bot's level (`--bot LEVEL`), or the engine that plays for it (`--bot --engine COMMAND`, `--engine-cap`),
  /// which the request keeps; an engine's bot is nominally `perfect` (its level is never shown).
  private static func botPlayer(_ arguments: CommandArguments, _ request: inout HostRequest) throws(UsageError)
    -> AILevel
  {
    let level = try arguments.choice("--bot", as: AILevel.self)
    guard let command = arguments.value("--engine") else {
      if arguments.has("--engine-cap") {
        throw UsageError(message: "--engine-cap caps an engine's processes: add --engine COMMAND")
      }
      guard let level else {
        throw UsageError(
          message: "--bot needs a value: a level (easy, normal or perfect), or --engine COMMAND after it")
      }
      return level
    }
    if let level {
      throw UsageError(message: "--engine plays for the bot instead of a level: drop \"\(level)\" after --bot")
    }
    switch EngineCommandLine.words(command) {
    case .success(let words): request.engine = words
    case .failure(let error): throw UsageError(message: error.description)
    }
    if let cap = try arguments.number("--engine-cap") {
      guard (1...1024).contains(cap) else { throw UsageError(message: "--engine-cap must be from 1 to 1024") }
      request.engineCap = cap
    }
    var play = PlayRequest()
    play.engine = request.engine
    if let refusal = play.engineRefusal(size: request.size, k: request.k) { throw UsageError(message: refusal) }
    return .perfect
  }

  /// Hosts one opponent at a time (`NetworkLaunch`), on the full screen or in plain mode.
  static func run(
    _ request: HostRequest, options: NetworkOptions, ui: UIMode, ascii: Bool, environment: [String: String]
  ) -> Int32 {
    NetworkLaunch.run(
      .host(request), options: options, ui: TicTacToe.screenMode(ui, environment), ascii: ascii,
      environment: environment)
  }

  /// `host --bot LEVEL`: the practice bot (`BotCommand`).
  static func run(
    _ request: HostRequest, bot level: AILevel, options: NetworkOptions, environment: [String: String]
  ) -> Int32 {
    BotCommand.run(request, level: level, options: options, environment: environment)
  }
}

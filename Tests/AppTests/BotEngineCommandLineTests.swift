import GameCore
import PlayerSettings
import Testing

@testable import App
@testable import NetworkShell

/// `host --bot --engine COMMAND [--engine-cap N]`: the words read, and what is refused before anything runs.
@Suite struct BotEngineCommandLineTests {
  @Test func theEngineIsReadIntoTheRequest() throws {
    var request = HostRequest()
    request.port = 0
    request.size = 9
    request.engine = ["python3", "/tmp/a brain.py", "fast"]
    request.engineCap = 3
    #expect(
      try CommandLineParser.parse([
        "host", "--bot", "--engine", "python3 '/tmp/a brain.py' fast", "--port", "0", "--size", "9", "--engine-cap",
        "3",
      ]) == .bot(request, level: .perfect, NetworkOptions()))
    // The engine first, --bot last: the same.
    request.engineCap = nil
    #expect(
      try CommandLineParser.parse([
        "host", "--size", "9", "--engine=python3 '/tmp/a brain.py' fast", "--port=0", "--bot",
      ])
        == .bot(request, level: .perfect, NetworkOptions()))
  }

  @Test(arguments: [
    (["host", "--engine", "brain"], "--engine belongs to the practice bot: host --bot --engine COMMAND"),
    (["host", "--engine-cap", "2"], "--engine-cap belongs to the practice bot: host --bot --engine COMMAND"),
    (
      ["host", "--bot", "--port", "0"],
      "--bot needs a value: a level (easy, normal or perfect), or --engine COMMAND after it"
    ),
    (
      ["host", "--bot", "easy", "--engine", "brain"],
      "--engine plays for the bot instead of a level: drop \"easy\" after --bot"
    ),
    (
      ["host", "--bot", "perfect", "--engine-cap", "2"], "--engine-cap caps an engine's processes: add --engine COMMAND"
    ),
    (["host", "--bot", "--engine", "brain", "--engine-cap", "0"], "--engine-cap must be from 1 to 1024"),
    (["host", "--bot", "--engine", "brain", "--engine-cap", "x"], "--engine-cap needs a number, not \"x\""),
    (
      ["host", "--bot", "--engine", "brain", "--k", "4"],
      "an engine plays five in a row only (the brain protocol has no other k), not 4: use --k 5"
    ),
    (["host", "--bot", "--engine", "'brain"], "the engine command has a ' quote that is never closed"),
  ])
  func refusals(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
  }
}

/// An outside engine at the bot is asked only for moves: its games open as usual.
@Suite struct BotEngineOpeningTests {
  @Test func anEngineBotRefusesSwap2AskedForAndLetsTheSavedSettingYield() throws {
    let rules = try Rules(size: 15, k: 5)
    var settings = Settings()
    settings.opening = .swap2
    var request = HostRequest()
    request.engine = ["brain"]
    #expect(try request.offeredOpening(rules, timeControl: .none, settings: settings) == .standard)
    request.opening = .swap2
    #expect(
      throws: UsageError(message: "an outside engine at the bot plays the usual opening: leave out --opening swap2")
    ) { try request.offeredOpening(rules, timeControl: .none, settings: settings) }
    request.engine = nil
    #expect(try request.offeredOpening(rules, timeControl: .none, settings: settings) == .swap2)
  }
}

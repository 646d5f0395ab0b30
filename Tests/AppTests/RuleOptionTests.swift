import GameCore
import PlayerFiles
import PlayerSettings
import TerminalUI
import Testing

@testable import App

/// `play --rule` and the `rule` setting: five in a row's rule for a local game.
@Suite struct RuleOptionTests {
  @Test func ruleIsReadAndBringsFiveInARowWithIt() throws {
    guard case .play(let request, _, _) = try CommandLineParser.parse(["play", "--rule", "renju", "--hotseat"]) else {
      Issue.record("not a play command")
      return
    }
    #expect(request.rule == .renju)
    // Saved settings of 3×3: renju comes on 15×15, five in a row.
    #expect(try request.rules(settings: Settings()) == (try Rules(size: 15, k: 5, variant: .renju)))
    var nine = request
    nine.size = 9
    #expect(try nine.rules(settings: Settings()) == (try Rules(size: 9, k: 5, variant: .renju)))
    guard case .play(let exact, _, _) = try CommandLineParser.parse(["play", "--rule=exact5", "--size", "11"]) else {
      Issue.record("not a play command")
      return
    }
    #expect(try exact.rules(settings: Settings()).variant == .exactFive)
  }

  @Test func aRuleWithAnotherKOrAnUnknownRuleIsAUsageError() {
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["play", "--rule", "renju", "--k", "4"]) }
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["play", "--rule", "renju", "--size", "4"]) }
    do {
      _ = try CommandLineParser.parse(["play", "--rule", "caro"])
      Issue.record("caro was taken")
    } catch {
      #expect(error.message == "--rule must be freestyle, exact5 or renju, not \"caro\"")
    }
  }

  @Test func theSavedRuleHoldsWhileKIsFive() throws {
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.rule = .renju
    #expect(try PlayRequest().rules(settings: settings).variant == .renju)
    var four = PlayRequest()
    four.k = 4
    #expect(try four.rules(settings: settings).variant == .freestyle)
    var free = PlayRequest()
    free.rule = .freestyle
    #expect(try free.rules(settings: settings).variant == .freestyle)
    let text = SettingsFile.render(settings)
    #expect(text.contains("\nrule = renju\n"))
    #expect(try SettingsFile.parse(text, path: "s") == settings)
    #expect(!SettingsFile.render(Settings()).contains("rule ="))
    #expect(throws: FileError.self) { try SettingsFile.parse("rule = gomoku\n", path: "s") }
  }

  /// A host offers its rule (protocol version 4): `--rule` on the command line, else the saved rule while k is 5;
  /// the bot takes it too.
  @Test func aHostTakesItsRuleFromTheCommandLineOrTheSettings() throws {
    guard case .host(let request, _, _, _) = try CommandLineParser.parse(["host", "--rule", "renju"]) else {
      Issue.record("not a host")
      return
    }
    #expect(request.rule == .renju)
    #expect(try request.play.rules(settings: Settings()) == Rules(size: 15, k: 5, variant: .renju))
    guard case .bot(let bot, _, _) = try CommandLineParser.parse(["host", "--bot", "easy", "--rule", "exact5"]) else {
      Issue.record("not a bot")
      return
    }
    #expect(try bot.play.rules(settings: Settings()).variant == .exactFive)
    var settings = Settings()
    settings.size = 15
    settings.k = 5
    settings.rule = .renju
    #expect(try HostRequest().play.rules(settings: settings).variant == .renju)
    var free = HostRequest()
    free.rule = .freestyle
    #expect(try free.play.rules(settings: settings).variant == .freestyle)
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["host", "--rule", "renju", "--k", "4"]) }
  }
}

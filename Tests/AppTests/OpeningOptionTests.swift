import GameCore
import PlayerFiles
import PlayerSettings
import TerminalUI
import Testing

@testable import App

/// `play --opening` and the `opening` setting: Swap2 where it is played (five in a row from 9×9), with a clock
/// too, never against an engine.
@Suite struct OpeningOptionTests {
  private func request(_ words: [String]) throws -> PlayRequest? {
    guard case .play(let request, _, _) = try CommandLineParser.parse(["play"] + words) else { return nil }
    return request
  }

  @Test func theSettingIsSavedReadBackAndRefusedWhenUnknown() throws {
    var settings = Settings()
    settings.size = 9
    settings.k = 5
    settings.opening = .swap2
    let text = SettingsFile.render(settings)
    #expect(text.contains("\nopening = swap2\n"))
    #expect(try SettingsFile.parse(text, path: "s") == settings)
    #expect(!SettingsFile.render(Settings()).contains("opening ="))
    #expect(throws: FileError.self) { try SettingsFile.parse("opening = swap3\n", path: "s") }
  }

  @Test func theSettingHoldsOnlyWhereSwap2IsPlayedAndTheOptionWins() throws {
    var settings = Settings()
    settings.opening = .swap2
    let none = try #require(try request([]))
    #expect(none.opening == nil)
    #expect(none.opening(try Rules(size: 15, k: 5), settings: settings) == .swap2)
    #expect(none.opening(try Rules(size: 7, k: 5), settings: settings) == .standard, "7×7 has no Swap2")
    #expect(none.opening(try Rules(size: 15, k: 4), settings: settings) == .standard)
    let standard = try #require(try request(["--opening", "standard"]))
    #expect(standard.opening(try Rules(size: 15, k: 5), settings: settings) == .standard)
    var engine = none
    engine.engine = ["pbrain"]
    #expect(engine.opening(try Rules(size: 15, k: 5), settings: settings) == .standard)
  }

  @Test func swap2WithAClockOrAnEngineIsTaken() throws {
    let timed = try #require(try request(["--opening", "swap2", "--clock", "5+3", "--size", "15"]))
    #expect(timed.opening == .swap2 && timed.clock == .fischer(base: 300_000, increment: 3_000))
    #expect(timed.swap2Refusal(try Rules(size: 15, k: 5)) == nil)
    #expect(timed.swap2Refusal(try Rules(size: 7, k: 5))?.contains("add --size N (9 to 15)") == true)
    // Against an engine it is asked for on either front end (SWAP2BOARD), as it is not by the setting alone.
    let engine = try #require(try request(["--opening", "swap2", "--engine", "x", "--size", "15"]))
    #expect(engine.opening(try Rules(size: 15, k: 5), settings: Settings()) == .swap2)
    var applied = try #require(try? timed.applied(to: Settings()).get())
    #expect(applied.opening == .swap2 && applied.size == 15 && applied.clock.isTimed)
    applied = try #require(try? standardSettings().get())
    #expect(applied.opening == .standard)
  }

  private func standardSettings() throws -> Result<Settings, UsageError> {
    var saved = Settings()
    saved.opening = .swap2
    return try #require(try request(["--opening", "standard", "--size", "15"])).applied(to: saved)
  }
}

import Foundation
import TestSupport
import Testing

/// Issue 29, items 7 and 10, on the real binary: `verify` of a local game, `games delete all` asking first, the
/// peers' header, a mistyped command, and messages broken at words on an 80-column terminal.
@Suite(.serialized) struct PlayerFilesCommandTests {
  /// A home with one finished hot-seat game (X wins on the top row).
  private func homeWithAGame() throws -> [String: String] {
    var home = try Binary.sandbox().environment
    home["USER"] = "carol"
    let played = try Binary.run(["play", "--ui", "plain", "--hotseat"], input: "1\n4\n2\n5\n3\n", environment: home)
    #expect(played.status == 0, "\(played.stderr)")
    return home
  }

  @Test func verifyingALocalGameSaysThereIsNothingToSignAndSucceeds() throws {
    let home = try homeWithAGame()
    let verified = try Binary.run(["verify", "1"], environment: home)
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    #expect(verified.stdout.contains("signatures: none to check"), "\(verified.stdout)")
    #expect(!verified.stdout.contains("NOT"), "\(verified.stdout)")
    #expect(verified.stdout.hasSuffix("verified: the moves only; a local game has nothing to sign\n"))
    // At a terminal its long line goes on indented, between words.
    let terminal = try TmuxSession(
      command: "sh -c '\(Binary.path) verify 1; echo status=$?; sleep 60'", environment: home)
    let screen = try terminal.waitFor(text: "status=")
    let lines = screen.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex { $0.hasPrefix("signatures: none to check") }, "\(screen)")
    #expect(lines.allSatisfy { $0.count <= 80 } && lines[start + 1].hasPrefix("  "), "\(screen)")
    #expect(
      (lines[start] + " " + lines[start + 1]).split(separator: " ")
        == "signatures: none to check: a game played on one machine names no keys, so nothing was signed".split(
          separator: " "), "\(screen)")
    #expect(screen.contains("status=0"))
  }

  @Test func deletingEveryGameAsksAndWithoutATerminalNeedsYes() throws {
    let home = try homeWithAGame()
    let refused = try Binary.run(["games", "delete", "all"], environment: home)
    #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
    #expect(refused.stderr.contains("nothing was deleted") && refused.stderr.contains("--yes"), "\(refused.stderr)")
    #expect(try Binary.run(["games"], environment: home).stdout.contains("hot seat"), "the game is still there")
    let deleted = try Binary.run(["games", "delete", "all", "--yes"], environment: home)
    #expect(deleted.status == 0 && deleted.stdout == "Deleted 1 game record.\n", "\(deleted)")
    #expect(try Binary.run(["games"], environment: home).stdout == "No games saved yet.\n")
  }

  @Test func deletingEveryGameAtATerminalTakesOnlyYes() throws {
    let home = try homeWithAGame()
    let terminal = try TmuxSession(
      command: "sh -c '\(Binary.path) games delete all; echo status=$?; sleep 60'", environment: home)
    try terminal.waitFor(text: "[y/N]")
    try terminal.send("n", "Enter")
    let screen = try terminal.waitFor(text: "status=")
    #expect(
      screen.contains("Delete your 1 saved game? This cannot be undone.") && screen.contains("status=1"), "\(screen)")
    #expect(try Binary.run(["games"], environment: home).stdout.contains("hot seat"))
    let again = try TmuxSession(
      command: "sh -c '\(Binary.path) games delete all; echo status=$?; sleep 60'", environment: home)
    try again.waitFor(text: "[y/N]")
    try again.send("y", "Enter")
    let yes = try again.waitFor(text: "status=")
    #expect(yes.contains("Deleted 1 game record.") && yes.contains("status=0"), "\(yes)")
  }

  @Test func peersListsUnderAHeader() throws {
    let home = try Binary.sandbox().environment
    let directory = try #require(home["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let fingerprint = "SHA256:" + String(repeating: "A", count: 43)
    try "bob \(fingerprint) 2026-12-01\n".write(toFile: directory + "/known_peers", atomically: true, encoding: .utf8)
    chmod(directory + "/known_peers", 0o600)
    let listed = try Binary.run(["peers"], environment: home)
    let lines = listed.stdout.split(separator: "\n").map(String.init)
    #expect(listed.status == 0 && lines.count == 2, "\(listed)")
    #expect(lines.first == "NAME\tFINGERPRINT\tSINCE\tYOUR RECORD (WON–LOST)")
    #expect(lines.last?.hasPrefix("bob\t\(fingerprint)\tsince 2026-12-01") == true, "\(listed.stdout)")
  }

  @Test func aMistypedCommandGetsASuggestionAndStatus64() throws {
    let result = try Binary.run(["plya"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("tictactoe: unknown command \"plya\": did you mean play?\n"), "\(result.stderr)")
  }

  /// `doctor` at a terminal: a long finding goes on under its text, indented past the verdicts, words whole.
  @Test func doctorsLongFindingsWrapUnderTheirText() throws {
    let home = try Binary.sandbox()
    let config = try #require(home.environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "size = 99\n".write(toFile: config + "/settings.conf", atomically: true, encoding: .utf8)
    let terminal = try TmuxSession(
      command: "sh -c '\(Binary.path) doctor; echo status=$?; sleep 60'", environment: home.environment, width: 60)
    let screen = try terminal.waitFor(text: "status=")
    let lines = screen.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("PROBLEM settings:") }, "\(screen)")
    // After the path (a word longer than the line, which the terminal cuts), the finding goes on indented.
    let start = try #require(lines.firstIndex { $0.contains("size must be") }, "\(screen)")
    let rest = lines[start...].prefix { $0.hasPrefix("        ") && !$0.hasPrefix("         ") }
    #expect(rest.count == 2 && lines.allSatisfy { $0.count <= 60 }, "\(screen)")
    let said = rest.joined(separator: " ").split(separator: " ")
    #expect(
      said == ["line", "1:", "size", "must", "be", "a", "number", "from", "3", "to", "15,", "found", "\"99\""],
      "\(screen)")
  }

  /// At a terminal 80 columns wide a long message breaks between words, never inside one.
  @Test func aLongMessageAtATerminalBreaksBetweenWords() throws {
    let home = try Binary.sandbox().environment
    let terminal = try TmuxSession(
      command: "sh -c '\(Binary.path) help plya play; echo status=$?; sleep 60'", environment: home)
    let screen = try terminal.waitFor(text: "status=")
    let message =
      "tictactoe: help takes one command (play, host, join, watch, invite, list, identity, peers, doctor, games, "
      + "replay, verify, brain, completions, help, or all), not \"plya play\""
    let shown = screen.split(separator: "\n").prefix { !$0.hasPrefix("Try ") }
    #expect(shown.count >= 2 && shown.allSatisfy { $0.count <= 80 }, "\(screen)")
    #expect(
      shown.joined(separator: " ").split(separator: " ") == message.split(separator: " "),
      "a word was cut:\n\(screen)")
    #expect(screen.contains("status=64"))
  }
}

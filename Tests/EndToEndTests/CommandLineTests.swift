import Foundation
import Testing

@Suite struct CommandLineTests {
  @Test func helpGoesToStdoutAndExitsZero() throws {
    let result = try Binary.run(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage:"))
    #expect(result.stdout.contains("tictactoe play [--ai LEVEL | --hotseat]"))
    #expect(result.stderr.isEmpty)
  }

  @Test func versionPrintsTheVersion() throws {
    let result = try Binary.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("tictactoe "))
  }

  @Test(arguments: [
    ["play", "--size", "16"], ["play", "--ai", "godlike"], ["nonsense"], ["--size", "4"],
    ["play", "--k", "5", "--size", "4"], ["play", "--hotseat", "--ai", "easy"], ["play", "--size"],
    ["--ui", "html"],
  ])
  func usageErrorsExit64WithTheUsageOnStderr(arguments: [String]) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("tictactoe: "))
    #expect(result.stderr.contains("Usage:"))
    #expect(result.stdout.isEmpty)
  }

  @Test func theManPageDocumentsEveryOptionOfTheHelp() throws {
    let help = try Binary.run(["--help"]).stdout
    let manPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Assets/tictactoe.6").path
    let man = try String(contentsOfFile: manPath, encoding: .utf8)
    let options = Set(
      help.split(whereSeparator: { " ,|[]:.".contains($0) || $0.isNewline }).filter { $0.hasPrefix("--") })
    #expect(options.count >= 9)
    for option in options {
      // mdoc writes --ai as "Fl \-ai" (or "Fl -ai").
      let name = option.dropFirst(2)
      #expect(man.contains("Fl \\-\(name)") || man.contains("Fl -\(name)"), "man page lacks \(option)")
    }
    for level in ["easy", "normal", "perfect"] { #expect(man.contains(level)) }
  }

  @Test func theCursesUIRefusesAPipeWithAHint() throws {
    let result = try Binary.run(["play"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("--ui plain"))
  }
}

import Foundation
import Testing

@Suite struct CommandLineTests {
  @Test func helpGoesToStdoutAndExitsZero() throws {
    let result = try Binary.run(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage:"))
    #expect(result.stdout.contains("  play         start a local game at once"))
    // One 80×24 screen with the prompt below it.
    #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).count <= 24, "\(result.stdout)")
    #expect(result.stderr.isEmpty)
    let all = try Binary.run(["help", "all"])
    #expect(all.status == 0 && all.stdout.contains("tictactoe play [--ai LEVEL | --hotseat | --engine COMMAND]"))
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
  func usageErrorsExit64WithOneLineAndWhereTheHelpIs(arguments: [String]) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("tictactoe: ") == true)
    // Where the help is: the command's own when the command is known.
    let command = ["play", "host", "join", "list", "identity", "peers", "completions"].first { $0 == arguments[0] }
    let help =
      command.map { "Try 'tictactoe \($0) --help' for its options." }
      ?? "Try 'tictactoe --help' for the commands."
    #expect(lines.last.map(String.init) == help, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// Rules given on the command line are checked against the saved settings, not the defaults: with size 9
  /// saved, `--k 4` alone plays 9×9 with 4 in a row.
  @Test func rulesAreCheckedAgainstTheSavedSettings() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    let config = home.root + "/config/tictactoe"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "size = 9\nk = 5\nlevel = easy\nfirst = me\n".write(
      toFile: config + "/settings.conf", atomically: false, encoding: .utf8)
    let played = try Binary.run(["play", "--k", "4", "--ui", "plain"], environment: home.environment)
    // (9x9 without a UTF-8 locale, as here.)
    #expect(
      played.stdout.contains("9x9, 4 in a row") || played.stdout.contains("9×9, 4 in a row"),
      "\(played.stdout)\(played.stderr)")
    #expect(!played.stderr.contains("out of range"), "\(played.stderr)")
    let tooLong = try Binary.run(["play", "--k", "10", "--ui", "plain"], environment: home.environment)
    #expect(tooLong.status == 64 && tooLong.stderr.contains("10 in a row is out of range"), "\(tooLong.stderr)")
    // The same for the host: 9×9 with 4 in a row, said before anyone joins.
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--k", "4", "--ui", "plain"], environment: home.environment)
    #expect(
      host.waitFor("Hosting 9x9, 4 in a row") || host.output.contains("Hosting 9×9, 4 in a row"),
      "\(host.output)\(host.errors)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  /// `help` is a command (`help COMMAND` is that command's --help), and the help is 80 columns wide.
  @Test func helpIsACommandTooAndFitsEightyColumns() throws {
    let whole = try Binary.run(["help"])
    let dashed = try Binary.run(["--help"])
    #expect(whole.status == 0 && whole.stdout == dashed.stdout, "\(whole.stderr)")
    for command in ["play", "host", "join", "identity", "peers", "games", "help"] {
      let help = try Binary.run(["help", command])
      #expect(help.status == 0 && help.stderr.isEmpty, "\(command): \(help.stderr)")
      let option = try Binary.run([command, "--help"])
      #expect(help.stdout == option.stdout, "\(command)")
      #expect(help.stdout.hasPrefix("Usage:\n  tictactoe \(command)"), "\(help.stdout)")
    }
    for line in whole.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line.count): \(line)") }
    let unknown = try Binary.run(["help", "launch"])
    #expect(unknown.status == 64 && unknown.stderr.hasPrefix("tictactoe: help takes one command"), "\(unknown.stderr)")
  }

  /// What the binary prints for each command's help, by `COMMAND --help` and by `help COMMAND`, is the
  /// command's golden (Tests/HelpGoldens): the help command runs with the command it was given.
  @Test func everyCommandsHelpRunsAsItsGolden() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("HelpGoldens")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }
      .map { String($0.dropLast(4)) }
    #expect(names.count > 10)
    for name in names {
      let golden = try String(contentsOf: directory.appendingPathComponent(name + ".txt"), encoding: .utf8)
      let lines =
        switch name {
        case "tictactoe": [["--help"], ["help"]]
        case "all": [["help", "all"]]
        default: [[name, "--help"], ["help", name]]
        }
      for line in lines {
        let result = try Binary.run(line)
        #expect(result.status == 0 && result.stdout == golden, "\(line): \(result.stdout)\(result.stderr)")
      }
    }
  }

  /// A word a command does not take is refused, for every command, with status 64 and nothing run.
  @Test(arguments: [
    ["play", "foo"], ["host", "foo"], ["join", "127.0.0.1", "foo"], ["join", "--lan", "x", "foo"], ["list", "foo"],
    ["identity", "show", "foo"], ["identity", "new", "foo"], ["identity", "export", "foo"],
    ["identity", "import", "a", "b", "c"], ["invite", "foo"], ["doctor", "foo"], ["peers", "list", "foo"],
    ["peers", "forget", "a", "b"], ["peers", "rename", "a", "b", "c"], ["games", "foo", "bar"],
    ["games", "list", "foo"],
    ["replay", "a", "b"], ["verify", "a", "b"], ["completions", "bash", "zsh"], ["help", "play", "foo"],
    ["--ui", "plain", "foo"],
  ])
  func extraArgumentsAreRefused(arguments: [String]) throws {
    let home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let result = try Binary.run(arguments, environment: home.environment)
    #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
    #expect(result.stderr.hasPrefix("tictactoe: "), "\(arguments): \(result.stderr)")
  }

  @Test func theManPageDocumentsEveryOptionOfTheHelp() throws {
    let help = try Binary.run(["help", "all"]).stdout
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

  /// The man page's scripted example, run with its input. (Every example's command line is parsed in
  /// CommandLineGrammarTests.)
  @Test func theManPageExamplesRun() throws {
    let manPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Assets/tictactoe.6").path
    let man = try String(contentsOfFile: manPath, encoding: .utf8)
    let examples =
      try #require(man.components(separatedBy: ".Sh EXAMPLES\n").last)
      .components(separatedBy: "\n.Sh ").first ?? ""
    let commands = examples.split(separator: "\n").filter { $0.hasPrefix(".Dl ") }.map { String($0.dropFirst(4)) }
    #expect(commands.filter { $0.contains(" | tictactoe ") }.count == 1, "\(examples)")
    let home = try Binary.sandbox()
    for command in commands {
      // mdoc's \e is a backslash.
      let shell = command.replacingOccurrences(of: "\\e", with: "\\")
      guard shell.contains(" | tictactoe ") else { continue }
      let parts = shell.components(separatedBy: " | ")
      let input = try #require(parts.first?.split(separator: "'").dropFirst().first).replacingOccurrences(
        of: "\\n", with: "\n")
      let arguments = parts[1].split(separator: " ").dropFirst().map(String.init)
      let result = try Binary.run(arguments, input: input, environment: home.environment)
      #expect(result.status == 0, "\(shell): \(result.stderr)")
      #expect(result.stdout.contains("result: X wins"), "\(shell):\n\(result.stdout)")
    }
  }

  @Test func theCursesUIRefusesAPipeWithAHint() throws {
    let result = try Binary.run(["play"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("--ui plain"))
  }
}

import App
import Foundation
import Testing

/// The help players read, held to the golden files in Tests/HelpGoldens (the binary's output, read at 80
/// columns when written). When the help changes on purpose, write the goldens again:
/// `tictactoe --help > Tests/HelpGoldens/tictactoe.txt`, `tictactoe help all > Tests/HelpGoldens/all.txt`,
/// `tictactoe COMMAND --help > Tests/HelpGoldens/COMMAND.txt`.
@Suite struct HelpGoldenTests {
  typealias Command = CommandLineGrammar.Command

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("HelpGoldens")

  /// `tictactoe.txt` is `--help` (the overview), `all.txt` is `help all` (the whole help).
  static var goldens: [String] { ["tictactoe", "all"] + Command.allCases.filter { $0 != .lobby }.map(\.rawValue) }

  /// The help a golden holds: `all` is the whole help, `tictactoe` the overview, any other name its command's.
  static func help(_ name: String) -> String {
    CommandHelp.text(for: name == "all" ? .lobby : Command(rawValue: name))
  }

  @Test(arguments: goldens)
  func helpMatchesItsGolden(name: String) throws {
    let golden = try String(contentsOf: Self.directory.appendingPathComponent(name + ".txt"), encoding: .utf8)
    let help = Self.help(name) + "\n"
    #expect(help == golden, "\(name) --help changed:\n\(help)")
  }

  @Test(arguments: goldens)
  func noLineIsWiderThanEightyColumns(name: String) {
    for line in Self.help(name).split(separator: "\n") {
      #expect(line.count <= 80, "\(name): \(line.count) columns: \(line)")
    }
  }

  @Test func everyCommandHasAGolden() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".txt") }
    #expect(Set(files) == Set(Self.goldens.map { $0 + ".txt" }))
  }

  @Test func helpIsACommand() throws {
    #expect(try CommandLineParser.parse(["help"]) == .help(nil))
    #expect(try CommandLineParser.parse(["help", "host"]) == .help(.host))
    #expect(try CommandLineParser.parse(["help", "help"]) == .help(.help))
    for wrong in [["help", "lobby"], ["help", "launch"], ["help", "play", "host"]] {
      #expect(throws: UsageError.self, "\(wrong)") { try CommandLineParser.parse(wrong) }
    }
    #expect(Completions.script(for: .bash).contains("help) words='play host join"))
  }
}

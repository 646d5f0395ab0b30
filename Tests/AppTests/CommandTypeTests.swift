import Testing

@testable import App

/// Each command of the grammar has a type of its own that reads its words and runs it: these tests go through
/// every command of the table, so a command added to the grammar is held to them too.
@Suite struct CommandTypeTests {
  typealias Name = CommandLineGrammar.Command

  /// Words each command takes, the fewest that parse: the tests add to them.
  static let taken: [Name: [String]] = [
    .lobby: [], .play: [], .host: [], .join: ["example.test"], .watch: ["example.test"], .invite: [], .list: [],
    .identity: ["show"],
    .peers: ["list"], .doctor: [], .games: ["list"], .replay: ["game.sgf"], .verify: ["game.sgf"],
    .brain: [], .completions: ["bash"], .help: ["play"],
  ]

  static func parse(_ name: Name, _ words: [String]) throws(UsageError) -> Invocation {
    try CommandLineParser.command(named: name).parse(try CommandArguments(command: name, words[...]))
  }

  @Test("the parser hands each command to the type of that name")
  func everyCommandHasItsOwnType() {
    for name in Name.allCases {
      #expect(CommandLineParser.command(named: name).name == name, "\(name)")
    }
  }

  @Test("every command's type takes its own words, and refuses one more")
  func everyTypeRefusesAWordItDoesNotTake() throws {
    #expect(Set(Self.taken.keys) == Set(Name.allCases), "a command without words in `taken`")
    for (name, words) in Self.taken {
      let invocation = try Self.parse(name, words)
      let line = (name == .lobby ? [] : [name.rawValue]) + words
      #expect(try CommandLineParser.parse(line) == invocation, "\(line)")
      #expect(throws: UsageError.self, "\(name) took \(words + ["stray"])") {
        try Self.parse(name, words + ["stray"])
      }
    }
  }

  @Test("every command's --help, wherever it stands, and `help COMMAND` ask for that command's help")
  func everyCommandsHelpIsItsOwn() throws {
    for (name, words) in Self.taken where name != .lobby {
      #expect(try CommandLineParser.parse([name.rawValue, "--help"]) == .help(name))
      #expect(try CommandLineParser.parse([name.rawValue] + words + ["-h"]) == .help(name))
      #expect(try CommandLineParser.parse(["help", name.rawValue]) == .help(name))
    }
    #expect(try CommandLineParser.parse(["--ascii", "--help"]) == .help(nil))
  }
}

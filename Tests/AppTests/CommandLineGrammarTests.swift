import App
import Foundation
import Testing

/// The grammar table is what the parser checks an option's place against and what the completions are written
/// from: these tests hold the parser, the table and the help text to one another.
@Suite struct CommandLineGrammarTests {
  typealias Grammar = CommandLineGrammar

  /// The words before an option that put it under `command`, with a positional argument where one is needed.
  static func prefix(_ command: Grammar.Command) -> [String] {
    switch command {
    case .lobby: []
    case .join: ["join", "example.test"]
    case .completions: ["completions", "bash"]
    default: [command.rawValue]
    }
  }

  /// A value the parser accepts for the option, when it takes one.
  static func value(for option: Grammar.Option) -> [String] {
    switch option.value {
    case .none: []
    case .word(let words): [words[0]]
    case .file: ["/nonexistent/file"]
    case .text:
      switch option.name {
      case "--size": ["5"]
      case "--k": ["3"]
      case "--port": ["7177"]
      case "--grace": ["30"]
      case "--wait": ["1"]
      default: ["x"]
      }
    }
  }

  static func usageError(_ arguments: [String]) -> String? {
    do {
      _ = try CommandLineParser.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("every option is refused under the commands the table does not give it, naming those it gives")
  func optionsOutsideTheirCommandsAreRefused() {
    for option in Grammar.options {
      for command in Grammar.Command.allCases where !option.commands.contains(command) {
        let message = Self.usageError(Self.prefix(command) + [option.name] + Self.value(for: option))
        #expect(message?.hasPrefix("\(option.name) belongs to ") == true, "\(command) \(option.name): \(message ?? "")")
        for allowed in option.commands {
          let name = allowed == .lobby ? "`tictactoe`" : "`tictactoe \(allowed.rawValue)`"
          #expect(message?.contains(name) == true, "\(option.name) does not name \(name): \(message ?? "")")
        }
      }
    }
  }

  @Test("every option the table gives a command is not refused there for its place")
  func optionsInTheirCommandsAreTakenThere() {
    for option in Grammar.options {
      for command in option.commands {
        let message = Self.usageError(Self.prefix(command) + [option.name] + Self.value(for: option))
        #expect(message?.contains("belongs to `tictactoe") != true, "\(command) \(option.name): \(message ?? "")")
        #expect(message?.contains("unknown option") != true, "\(command) \(option.name): \(message ?? "")")
      }
    }
  }

  @Test("an option the table says takes a value asks for one; a switch does not")
  func valuesAsTheTableSays() {
    for option in Grammar.options {
      let command = option.commands.first { $0 != .join } ?? .join
      let message = Self.usageError(Self.prefix(command) + [option.name])
      if option.value == .none {
        #expect(message?.contains("needs a value") != true, "\(option.name): \(message ?? "")")
      } else {
        // `--bot` says what the value may be: a level, or --engine after it.
        #expect(message?.hasPrefix("\(option.name) needs a value") == true, "\(option.name): \(message ?? "")")
      }
    }
  }

  @Test("a word-valued option takes each of its words and refuses another")
  func wordValues() {
    for option in Grammar.options {
      guard case .word(let words) = option.value, let command = option.commands.first else { continue }
      for word in words {
        #expect(Self.usageError(Self.prefix(command) + [option.name, word]) == nil, "\(option.name) \(word)")
      }
      #expect(Self.usageError(Self.prefix(command) + [option.name, "nonsense"]) != nil, "\(option.name) nonsense")
    }
  }

  @Test("the help names every option of the table and every command, and no option the table lacks")
  func helpAndTableAgree() {
    let usage = CommandLineParser.usage
    for option in Grammar.options + Grammar.everywhere {
      #expect(usage.contains(option.name), "the help does not mention \(option.name)")
    }
    for command in Grammar.Command.allCases where command != .lobby {
      #expect(usage.contains("tictactoe \(command.rawValue)"), "the help does not show \(command)")
    }
    let known = Set((Grammar.options + Grammar.everywhere).map(\.name))
    let mentioned = usage.split(whereSeparator: { !$0.isLetter && $0 != "-" })
      .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init)
    for name in Set(mentioned) { #expect(known.contains(name), "the help mentions \(name), which the table lacks") }
  }

  @Test("summaries can be quoted in every shell's completion syntax")
  func summariesNeedNoEscapes() {
    let summaries = (Grammar.options + Grammar.everywhere).map(\.summary) + Grammar.Command.allCases.map(\.summary)
    for summary in summaries {
      #expect(!summary.contains { "'[]:\\\"$`".contains($0) }, "\(summary)")
      #expect(!summary.isEmpty)
    }
  }

  @Test("completions takes one shell")
  func completionsCommand() throws {
    for shell in Shell.allCases {
      #expect(try CommandLineParser.parse(["completions", shell.rawValue]) == .completions(shell))
    }
    #expect(Self.usageError(["completions"]) == "completions needs one shell: bash, zsh, fish")
    #expect(Self.usageError(["completions", "tcsh"]) == "completions needs one shell: bash, zsh, fish")
    #expect(Self.usageError(["completions", "bash", "zsh"]) == "completions needs one shell: bash, zsh, fish")
  }

  @Test("each script holds every command and option")
  func scriptsHoldTheWholeTable() {
    for shell in Shell.allCases {
      let script = Completions.script(for: shell)
      for command in Grammar.Command.allCases where command != .lobby {
        #expect(script.contains(command.rawValue), "\(shell): \(command)")
      }
      for option in Grammar.options {
        let name = shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
        #expect(script.contains(name), "\(shell): \(option.name)")
      }
    }
  }

  @Test("every command line in the man page's EXAMPLES parses")
  func manPageExamplesParse() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Assets/tictactoe.6").path
    let man = try String(contentsOfFile: path, encoding: .utf8)
    let examples = (man.components(separatedBy: ".Sh EXAMPLES\n").last ?? "").components(separatedBy: "\n.Sh ")[0]
    let lines = examples.split(separator: "\n").filter { $0.hasPrefix(".Dl ") }
    #expect(lines.count >= 3)
    for line in lines {
      let command = line.dropFirst(4).components(separatedBy: "| ").last ?? ""
      let words = command.split(separator: " ").map(String.init)
      #expect(words.first == "tictactoe", "\(line)")
      #expect(
        Self.usageError(Array(words.dropFirst())) == nil, "\(line): \(Self.usageError(Array(words.dropFirst())) ?? "")")
    }
  }

  @Test("each command's --help shows its usage and exactly its options, cut from the whole help")
  func perCommandHelp() throws {
    #expect(try CommandLineParser.parse(["host", "--help"]) == .help(.host))
    #expect(try CommandLineParser.parse(["--help"]) == .help(nil))
    #expect(try CommandLineParser.parse(["play", "--size", "x", "-h"]) == .help(.play))
    #expect(CommandHelp.text(for: .lobby) == CommandLineParser.usage)
    #expect(try CommandLineParser.parse(["help", "all"]) == .help(.lobby))
    for command in Grammar.Command.allCases where command != .lobby {
      let help = CommandHelp.text(for: command)
      #expect(help.hasPrefix("Usage:\n  tictactoe \(command.rawValue)"), "\(command):\n\(help)")
      let own = Set(Grammar.options(of: command).map(\.name))
      for option in Grammar.options {
        let shown =
          help.contains("  \(option.name) ") || help.contains(" \(option.name) FILE")
          || help.contains("[\(option.name) ")
        if own.contains(option.name) {
          #expect(help.contains(option.name), "\(command) --help lacks \(option.name)")
        } else {
          #expect(!shown, "\(command) --help shows \(option.name), which is not its option:\n\(help)")
        }
      }
      for line in help.split(separator: "\n") where line.hasPrefix("  tictactoe ") {
        #expect(line.hasPrefix("  tictactoe \(command.rawValue)"), "\(command): \(line)")
      }
    }
  }
}

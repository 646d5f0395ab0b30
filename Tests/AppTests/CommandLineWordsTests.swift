import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// Issue 29, items 7 and 10: what the command line says, and how it fits a terminal of 80 columns.
@Suite struct CommandLineWordsTests {
  typealias Command = CommandLineGrammar.Command

  @Test func aMistypedCommandGetsTheNearestOne() {
    #expect(throws: UsageError(message: "unknown command \"plya\": did you mean play?")) {
      try CommandLineParser.parse(["plya"])
    }
    let near = [
      "plya": Command.play, "hots": .host, "jion": .join, "idnetity": .identity, "gmaes": .games, "docter": .doctor,
    ]
    for (typed, meant) in near { #expect(CommandSuggestion.command(near: typed) == meant, "\(typed)") }
    // Nothing near, or two as near: no guess.
    for typed in ["launch", "xyz", "zzzzzzzz", "lobby"] {
      #expect(CommandSuggestion.command(near: typed) == nil, "\(typed)")
    }
    #expect(CommandSuggestion.distance(Array("plya"), Array("play")) == 1)
    #expect(CommandSuggestion.distance(Array("kitten"), Array("sitting")) == 3)
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["help", "plya"]) }
    do {
      _ = try CommandLineParser.parse(["help", "plya"])
    } catch {
      #expect(error.message.hasSuffix("(did you mean play?)"), "\(error.message)")
    }
  }

  @Test func theOverviewFitsOneScreenAndNamesEveryCommandFromTheGrammar() {
    let overview = CommandHelp.text(for: nil)
    let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 23, "\(lines.count) lines: the prompt must fit below on 24")
    #expect(lines.allSatisfy { $0.count <= 80 })
    for command in Command.allCases where command != .lobby {
      #expect(lines.contains { $0.hasPrefix("  \(command.rawValue) ") && $0.hasSuffix(command.summary) }, "\(command)")
    }
    #expect(overview.contains("tictactoe help COMMAND") && overview.contains("tictactoe help all"))
    #expect(overview.contains("man 6 tictactoe"))
    #expect(CommandHelp.text(for: .lobby) == CommandLineParser.usage)
  }

  @Test func longMessagesAreBrokenAtWordsWithinTheWidth() {
    let message =
      "tictactoe: help takes one command (play, host, join, invite, list, identity, peers, doctor, games, replay, "
      + "verify, brain, completions, help, or all), not \"plya play\"\nTry 'tictactoe --help'.\n"
    for width in [80, 50, 33] {
      let wrapped = MessageLines.wrapped(message, width: width)
      let lines = wrapped.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.allSatisfy { $0.count <= width }, "\(width):\n\(wrapped)")
      // Only spaces became line ends: the words are the same words.
      #expect(wrapped.split(whereSeparator: \.isWhitespace) == message.split(whereSeparator: \.isWhitespace))
      #expect(wrapped.hasSuffix("Try 'tictactoe --help'.\n"))
    }
    // A word longer than the line stays whole; a question keeps its trailing space; a table is left alone.
    let path = "/" + String(repeating: "a", count: 90)
    #expect(MessageLines.wrapped("cannot read \(path) now", width: 80) == "cannot read\n\(path)\nnow")
    let question = "Delete all 12 of your saved games? This cannot be undone and nobody can bring them back. [y/N] "
    #expect(MessageLines.wrapped(question).hasSuffix(" [y/N] ") && MessageLines.wrapped(question).contains("\n"))
    let table = "alice\t" + String(repeating: "x ", count: 50)
    #expect(MessageLines.wrapped(table) == table)
    #expect(
      MessageLines.wrapped("  indented " + String(repeating: "word ", count: 20), width: 40).hasPrefix("  indented"))
  }

  @Test func aListItemGoesOnUnderItsTextClearOfTheVerdicts() {
    let finding =
      "PROBLEM settings: /home/carol/.config/tictactoe/settings.conf line 1: size must be a number from 3 to 15, "
      + "found \"99\"\n"
    let wrapped = MessageLines.wrapped(finding, width: 60, hang: 8)
    let lines = wrapped.split(separator: "\n")
    #expect(lines.count == 3 && lines.allSatisfy { $0.count <= 60 }, "\(wrapped)")
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("        ") && !$0.hasPrefix("         ") }, "\(wrapped)")
    #expect(wrapped.split(whereSeparator: \.isWhitespace) == finding.split(whereSeparator: \.isWhitespace))
  }

  @Test func aReasonThatEndsInAQuestionIsNotFollowedByAFullStop() {
    let failure = SetupFailure.invite(.noCheck)
    #expect(failure.description.contains("copied whole? Ask the host"), "\(failure.description)")
    #expect(!failure.description.contains("?."))
    #expect(SetupFailure.invite(.notAnInvite).description.contains("tictactoe:. Ask"))
  }

  @Test func doctorCallsOnlyGlobalUnicastIPv6Global() {
    let findings = Doctor.addressFindings(["192.168.1.20", "fe80::1c2:3ff:fe44:5566%eth0", "fd00::5"])
    let ipv6 = findings.first { $0.topic == "IPv6" }
    #expect(ipv6?.verdict == .note && ipv6?.text.hasPrefix("no global IPv6 address") == true, "\(findings)")
    #expect(ipv6?.text.contains("fe80") == false)
    let addresses = findings.first { $0.topic == "addresses" }?.text ?? ""
    #expect(
      addresses.contains("fe80::1c2:3ff:fe44:5566%eth0 (link-local)") && addresses.contains("fd00::5 (unique local)"))
    let global = Doctor.addressFindings(["2001:db8::7", "FE80::1%wlan0"])
    #expect(
      global.contains {
        $0.topic == "IPv6" && $0.text == "global 2001:db8::7: inbound IPv6 may still be blocked by the router"
      })
    #expect(global.contains { $0.text.contains("FE80::1%wlan0 (link-local)") })
    #expect(Doctor.addressFindings([]).first?.verdict == .problem)
    #expect(Doctor.ipv6Scope("10.0.0.1") == nil && Doctor.ipv6Scope("febf::1") == "link-local")
    #expect(Doctor.ipv6Scope("fec0::1") == "other" && Doctor.ipv6Scope("3fff::1") == "global")
  }

  @Test func gamesDeleteSaysWhenTheNumbersShift() throws {
    #expect(GamesCommand.renumberingNote(deleted: [2], count: 2) == nil, "the last game: nothing after it")
    #expect(GamesCommand.renumberingNote(deleted: [1], count: 2) != nil)
    #expect(GamesCommand.renumberingNote(deleted: [2, 3], count: 3) == nil)
    #expect(GamesCommand.renumberingNote(deleted: [3, 2], count: 4) != nil)
    #expect(
      try CommandLineParser.parse(["games", "delete", "all", "--yes"]) == .games(.delete(["all"], confirmed: true)))
    #expect(try CommandLineParser.parse(["games", "delete", "all"]) == .games(.delete(["all"], confirmed: false)))
    #expect(throws: UsageError(message: "--yes goes with `tictactoe games delete all`")) {
      try CommandLineParser.parse(["games", "--yes"])
    }
  }

  @Test func identityExportsHelpSaysCertificateAsItsOutputIs() {
    let help = CommandHelp.text(for: .identity)
    #expect(help.contains("export your certificate"), "\(help)")
    #expect(!help.contains("export your key"))
  }
}

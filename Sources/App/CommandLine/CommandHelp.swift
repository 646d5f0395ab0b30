/// `tictactoe COMMAND --help`: the part of the whole help that concerns one command, cut from the same text
/// (so the two never say different things): its usage lines, and the options the grammar gives it, with the
/// trust options for `host` and `join`.
public enum CommandHelp {
  typealias Command = CommandLineGrammar.Command

  /// The help for `command`; for none, the overview (`tictactoe --help`), one screen of 80×24; for `.lobby`
  /// (`tictactoe help all`), the whole help.
  public static func text(for command: CommandLineGrammar.Command?) -> String {
    guard let command else { return overview }
    guard command != .lobby else { return CommandLineParser.usage }
    let sections = Self.sections(CommandLineParser.usage)
    let usage = entries(sections["Usage:"] ?? []).filter { entry in
      let words = entry.first?.split(separator: " ") ?? []
      return words.count > 1 && words[0] == "tictactoe" && words[1] == command.rawValue
    }
    let names = Set(CommandLineGrammar.options(of: command).map(\.name))
    func chosen(_ lines: [String]) -> [String] {
      entries(lines).filter { entry in
        guard let head = entry.first else { return false }
        // By the first option it names: "--identity FILE.p12 [--password-file F]" is --identity's entry.
        return optionNames(head).first.map { names.contains($0) } ?? false
      }.flatMap { $0 }
    }
    let options = chosen(sections["Options:"] ?? [])
    let trust = chosen(sections.first { $0.key.hasPrefix("Trust") }?.value ?? [])
    var lines = ["Usage:"] + usage.flatMap { $0 }
    lines += ["", command.summary.prefix(1).uppercased() + command.summary.dropFirst() + "."]
    if !options.isEmpty { lines += ["", "Options:"] + options }
    if !trust.isEmpty {
      lines += ["", "Trust (TRUST above; the default is trust on first use, like OpenSSH):"] + trust
    }
    lines += ["", "Every command: tictactoe help; the whole manual: man 6 tictactoe."]
    return lines.joined(separator: "\n")
  }

  /// `tictactoe --help`: every command with its summary from the grammar, and where to read more; it fits a
  /// terminal of 80 by 24 with the shell's prompt below it.
  public static var overview: String {
    let commands = Command.allCases.filter { $0 != .lobby }
    let width = (commands.map(\.rawValue.count).max() ?? 0) + 2
    let rows = commands.map {
      "  " + $0.rawValue + String(repeating: " ", count: width - $0.rawValue.count) + $0.summary
    }
    return
      (["Usage: tictactoe [COMMAND] [OPTIONS]", ""]
      + ["With no command, tictactoe opens the lobby (--ui curses|plain, --ascii).", "", "Commands:"] + rows
      + [
        "",
        "One command's options: tictactoe help COMMAND (or COMMAND --help); --version.",
        "All of it (settings, files, exit statuses): tictactoe help all, man 6 tictactoe.",
      ]).joined(separator: "\n")
  }

  /// The help's sections: a line ending in ":" at the left margin starts one, a blank line ends it.
  static func sections(_ text: String) -> [String: [String]] {
    var result: [String: [String]] = [:]
    var current: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.isEmpty {
        current = nil
      } else if !line.hasPrefix(" "), line.hasSuffix(":") {
        current = line
        result[line] = []
      } else if let section = current {
        result[section, default: []].append(line)
      }
    }
    return result
  }

  /// Lines grouped into entries: an entry starts at a line indented by two spaces, and the lines indented
  /// further that follow it belong to it.
  static func entries(_ lines: [String]) -> [[String]] {
    var result: [[String]] = []
    for line in lines {
      let indent = line.prefix { $0 == " " }.count
      if indent <= 2 || result.isEmpty { result.append([line]) } else { result[result.count - 1].append(line) }
    }
    return result
  }

  /// The options an entry's first line names before its description (two spaces or more end the names):
  /// "  --cert FILE --key FILE   present…" names --cert and --key.
  static func optionNames(_ line: String) -> [String] {
    let trimmed = Array(line.drop { $0 == " " })
    let end = trimmed.indices.first { $0 + 1 < trimmed.count && trimmed[$0] == " " && trimmed[$0 + 1] == " " }
    let head = String(trimmed[..<(end ?? trimmed.count)])
    return head.split(whereSeparator: { " ,|[]".contains($0) }).filter { $0.hasPrefix("-") }.map(String.init)
  }
}

/// A shell `tictactoe completions` writes a script for.
public enum Shell: String, CaseIterable, Sendable {
  case bash, zsh, fish
}

/// Shell completion scripts, written from the command-line grammar: the commands, each command's options, the
/// words an option takes (`--ui curses|plain`), file names where an option takes a file, and the words after
/// `identity`, `peers` and `completions`. Nothing is run at completion time: the script holds the whole table.
public enum Completions {
  public static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh: zsh()
    case .fish: fish()
    }
  }

  typealias Grammar = CommandLineGrammar
  typealias Command = CommandLineGrammar.Command

  /// The commands a player types (the lobby is what none means).
  static var commands: [Command] { Command.allCases.filter { $0 != .lobby } }

  /// A shell word in single quotes ('\'' for a quote inside).
  static func quoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
  }

  // MARK: bash

  /// A completion function for bash alone (no bash-completion helpers needed): `complete -F _tictactoe`.
  static func bash() -> String {
    func names(_ options: [Grammar.Option]) -> String {
      (options + Grammar.everywhere).map(\.name).joined(separator: " ")
    }
    var lines = [
      "# bash completion for tictactoe, written by `tictactoe completions bash`.",
      "_tictactoe() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev='' command=lobby words=''",
      "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}",
      "  # bash splits --option=value at the '=': complete the value of the option before it.",
      "  if [[ $cur == = ]]; then",
      "    cur=''",
      "  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then",
      "    prev=${COMP_WORDS[COMP_CWORD - 2]}",
      "  fi",
      "  ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[1]} != -* ]] && command=${COMP_WORDS[1]}",
      "  case $prev in",
    ]
    lines += bashOptionValues()
    lines += [
      "  esac",
      "  if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then",
      "    words=\(quoted(commands.map(\.rawValue).joined(separator: " ")))",
      "  elif [[ $cur == -* ]]; then",
      "    case $command in",
    ]
    for command in Command.allCases {
      lines.append("      \(command.rawValue)) words=\(quoted(names(Grammar.options(of: command)))) ;;")
    }
    lines += [
      "    esac",
      "  elif ((COMP_CWORD == 2)); then",
      "    case $command in",
    ]
    for command in Command.allCases where !command.subcommands.isEmpty {
      lines.append("      \(command.rawValue)) words=\(quoted(command.subcommands.joined(separator: " "))) ;;")
    }
    lines += [
      "    esac",
      "  elif [[ $command == identity && ${COMP_WORDS[2]} == import ]]; then",
      "    compopt -o filenames 2>/dev/null",
      "    COMPREPLY=($(compgen -f -- \"$cur\"))",
      "    return",
      "  fi",
      "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
      "}",
      "complete -F _tictactoe tictactoe",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The bash `case` arms that complete an option's value: its words, a file name, or nothing for free text.
  private static func bashOptionValues() -> [String] {
    var lines: [String] = []
    for option in Grammar.options {
      switch option.value {
      case .none: continue
      case .word(let values):
        lines.append(
          "    \(option.name)) COMPREPLY=($(compgen -W \(quoted(values.joined(separator: " "))) -- \"$cur\")); return ;;"
        )
      case .file:
        lines.append(
          "    \(option.name)) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
      case .text:
        lines.append("    \(option.name)) COMPREPLY=(); return ;;")
      }
    }
    return lines
  }

  // MARK: zsh

  /// A `#compdef` function: installed in $fpath it is autoloaded; sourced, it registers itself.
  static func zsh() -> String {
    func spec(_ option: Grammar.Option) -> String {
      let head = option.name == "--pin" ? "*\(option.name)" : option.name
      let ends = option.name == "--help" || option.name == "--version" ? "(- *)" : ""
      let value =
        switch option.value {
        case .none: ""
        case .word(let values): ":\(option.name.dropFirst(2)):(\(values.joined(separator: " ")))"
        case .file: ":file:_files"
        case .text(let what): ":\(what): "
        }
      return quoted("\(ends)\(head)[\(option.summary)]\(value)")
    }
    var lines = [
      "#compdef tictactoe",
      "# zsh completion for tictactoe, written by `tictactoe completions zsh`.",
      "_tictactoe() {",
      "  local -a commands",
      "  commands=(",
    ]
    lines += commands.map { "    " + quoted("\($0.rawValue):\($0.summary)") }
    lines += [
      "  )",
      "  if ((CURRENT == 2)) && [[ $words[CURRENT] != -* ]]; then",
      "    _describe -t commands 'tictactoe command' commands",
      "    return",
      "  fi",
      "  local command=lobby",
      "  if [[ $words[2] != -* ]]; then",
      "    command=$words[2]",
      "    shift words",
      "    ((CURRENT--))",
      "  fi",
      "  case $command in",
    ]
    for command in Command.allCases {
      var specs = (Grammar.options(of: command) + Grammar.everywhere).map(spec)
      if !command.subcommands.isEmpty {
        specs.append(
          quoted("1:\(command == .completions ? "shell" : "command"):(\(command.subcommands.joined(separator: " ")))"))
      }
      if command == .identity { specs.append(quoted("*:file:_files")) }
      if command == .join { specs.append(quoted("1:host:_hosts")) }
      lines.append("    \(command.rawValue))")
      lines.append("      _arguments -s \\")
      lines += specs.dropLast().map { "        \($0) \\" }
      lines.append("        \(specs.last!)")
      lines.append("      ;;")
    }
    lines += [
      "  esac",
      "}",
      "if [[ $funcstack[1] == _tictactoe ]]; then",
      "  _tictactoe \"$@\"",
      "else",
      "  compdef _tictactoe tictactoe",
      "fi",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: fish

  static func fish() -> String {
    var lines = [
      "# fish completion for tictactoe, written by `tictactoe completions fish`.",
      "complete -c tictactoe -f",
      "complete -c tictactoe -s h -l help -d 'show the help'",
      "complete -c tictactoe -l version -d 'show the version'",
    ]
    for command in commands {
      lines.append(
        "complete -c tictactoe -n __fish_use_subcommand -a \(command.rawValue) -d \(quoted(command.summary))")
    }
    for command in Command.allCases {
      let condition =
        command == .lobby ? "__fish_use_subcommand" : quoted("__fish_seen_subcommand_from \(command.rawValue)")
      for option in Grammar.options(of: command) {
        var line = "complete -c tictactoe -n \(condition) -l \(option.name.dropFirst(2))"
        switch option.value {
        case .none: break
        case .word(let values): line += " -x -a \(quoted(values.joined(separator: " ")))"
        case .file: line += " -r -F"
        case .text: line += " -x"
        }
        lines.append(line + " -d \(quoted(option.summary))")
      }
      if !command.subcommands.isEmpty {
        let words = command.subcommands.joined(separator: " ")
        let after = quoted(
          "__fish_seen_subcommand_from \(command.rawValue); and not __fish_seen_subcommand_from \(words)")
        lines.append("complete -c tictactoe -n \(after) -a \(quoted(words))")
      }
    }
    lines.append("complete -c tictactoe -n " + quoted("__fish_seen_subcommand_from import") + " -F")
    return lines.joined(separator: "\n") + "\n"
  }
}

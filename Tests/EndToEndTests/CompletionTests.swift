import Foundation
import TestSupport
import Testing

/// The shell completions the binary writes, run by the real shells: bash's function called as bash calls it,
/// and zsh and fish completing at a prompt in tmux, as a player presses Tab.
@Suite struct CompletionTests {
  /// The script `tictactoe completions SHELL` prints, in a file named as the shell looks for it.
  static func script(_ shell: String, named name: String) throws -> (directory: String, file: String) {
    let result = try Binary.run(["completions", shell])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let directory = try TestDirectory.make("completions")
    let file = directory + "/" + name
    try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    return (directory, file)
  }

  static func shell(_ name: String) throws -> String {
    let path = "/usr/bin/" + name
    try Requirement.require(access(path, X_OK) == 0, "\(name) (scripts/setup.sh installs it)")
    return path
  }

  /// What bash's function offers for the words typed so far, the last being the one completed: bash runs the
  /// function the script registered with `complete -F`, with COMP_WORDS and COMP_CWORD set as bash sets them.
  static func bashOffers(_ file: String, _ words: [String]) throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(file)'
      function=$(complete -p tictactoe | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
      COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
      "$function" tictactoe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let output = try Tool.run(try shell("bash"), ["--norc", "--noprofile", "-c", program])
    return output.split(separator: "\n").map(String.init)
  }

  @Test("bash: commands, each command's options, an option's words, subcommands and file names")
  func bashCompletes() throws {
    let (directory, file) = try Self.script("bash", named: "tictactoe")
    #expect(try Self.bashOffers(file, ["tictactoe", "h"]) == ["host", "help"])
    #expect(try Self.bashOffers(file, ["tictactoe", "help", "ho"]) == ["host"])
    #expect(
      try Self.bashOffers(file, ["tictactoe", ""])
        == [
          "play", "host", "join", "watch", "invite", "list", "identity", "peers", "doctor", "games", "replay",
          "verify", "brain", "completions", "help",
        ])
    #expect(try Self.bashOffers(file, ["tictactoe", "play", "--ui", ""]) == ["curses", "plain"])
    #expect(try Self.bashOffers(file, ["tictactoe", "play", "--ui", "=", "p"]) == ["plain"])
    #expect(try Self.bashOffers(file, ["tictactoe", "host", "--bot", "pe"]) == ["perfect"])
    #expect(try Self.bashOffers(file, ["tictactoe", "join", "h.example", "--acc"]) == ["--accept-new"])
    #expect(try Self.bashOffers(file, ["tictactoe", "play", "--p"]).isEmpty, "--port is host's")
    #expect(try Self.bashOffers(file, ["tictactoe", "play", "--en"]) == ["--engine"])
    #expect(try Self.bashOffers(file, ["tictactoe", "identity", "n"]) == ["new"])
    #expect(try Self.bashOffers(file, ["tictactoe", "completions", "f"]) == ["fish"])
    #expect(try Self.bashOffers(file, ["tictactoe", "host", "--size", ""]).isEmpty, "a number has no words")
    #expect(try Self.bashOffers(file, ["tictactoe", "host", "--pin", directory + "/tic"]) == [file])
    #expect(try Self.bashOffers(file, ["tictactoe", "identity", "import", directory + "/t"]) == [file])
  }

  /// Types `line` and Tab at an interactive shell in tmux, and waits for the screen to show `expected`.
  static func tab(_ tmux: TmuxSession, _ line: String, shows expected: [String]) throws {
    try tmux.send("C-u")
    try tmux.send("-l", line)
    try tmux.send("Tab")
    try tmux.waitFor("completion of \"\(line)\" to show \(expected)") { screen in
      expected.allSatisfy { screen.contains($0) }
    }
  }

  /// For a shell at a prompt: the directory holding the built binary (to put on PATH), and a sandboxed
  /// environment whose HOME is `home` (no rc files of the machine's).
  static func prompt(home: String) throws -> (binary: String, environment: [String: String]) {
    var sandbox = try Binary.sandbox()
    sandbox.environment["HOME"] = home
    return (URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path, sandbox.environment)
  }

  @Test("zsh: the script autoloaded from $fpath completes at the prompt")
  func zshCompletes() throws {
    let zsh = try Self.shell("zsh")
    let (directory, _) = try Self.script("zsh", named: "_tictactoe")
    let (binary, environment) = try Self.prompt(home: directory)
    let tmux = try TmuxSession(command: "\(zsh) -f", environment: environment)
    try tmux.send("-l", "PS1='zsh> '; path=(\(binary) $path); fpath=(\(directory) $fpath); autoload -U compinit; ")
    try tmux.send("-l", "compinit -u -D; clear")
    try tmux.send("Enter")
    try tmux.waitFor(text: "zsh>")
    try Self.tab(tmux, "tictactoe ho", shows: ["zsh> tictactoe host"])
    try Self.tab(tmux, "tictactoe he", shows: ["zsh> tictactoe help"])
    try Self.tab(tmux, "tictactoe play --fi", shows: ["zsh> tictactoe play --first"])
    try Self.tab(tmux, "tictactoe host --bot ", shows: ["easy", "normal", "perfect"])
    try Self.tab(tmux, "tictactoe peers f", shows: ["zsh> tictactoe peers forget"])
  }

  @Test("fish: the sourced script completes at the prompt")
  func fishCompletes() throws {
    let fish = try Self.shell("fish")
    let (directory, file) = try Self.script("fish", named: "tictactoe.fish")
    let (binary, environment) = try Self.prompt(home: directory)
    let tmux = try TmuxSession(
      command:
        "\(fish) --no-config -C \"function fish_prompt; echo 'fish> '; end; set PATH \(binary) \\$PATH; source \(file)\"",
      environment: environment)
    try tmux.waitFor(text: "fish>")
    try Self.tab(tmux, "tictactoe ho", shows: ["fish> tictactoe host"])
    try Self.tab(tmux, "tictactoe help ve", shows: ["fish> tictactoe help verify"])
    try Self.tab(tmux, "tictactoe play --ui ", shows: ["curses", "plain"])
    try Self.tab(tmux, "tictactoe completions z", shows: ["fish> tictactoe completions zsh"])
  }
}

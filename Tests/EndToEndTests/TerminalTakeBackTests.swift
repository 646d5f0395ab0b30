import Foundation
import Testing

/// The real binary in tmux at 80×24: keys a terminal sends as sequences, and the terminal taken back after the
/// program was stopped and continued under a shell.
@Suite(.serialized) struct TerminalTakeBackTests {
  /// Where the cursor's bracket is on the screen: its row and column, or nil when there is none.
  private static func cursor(_ screen: String) -> [Int]? {
    for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let bracket = line.firstIndex(of: "[") { return [row, line.distance(from: line.startIndex, to: bracket)] }
    }
    return nil
  }

  /// kill -STOP, then fg at the shell (which meanwhile set the terminal back to its own cooked, echoing mode):
  /// the program takes the terminal back and draws the screen again, and keys work one at a time.
  @Test func afterAStopAndFgTheScreenIsRedrawnAndKeysWorkAtOnce() throws {
    let environment = try Binary.sandbox().environment
    let tmux = try TmuxSession(command: "bash --norc --noprofile -i", environment: environment)
    try tmux.waitFor("the shell's prompt") { $0.contains("$") || $0.contains("#") }
    try tmux.send("\(Binary.path) play --size 9 --k 5", "Enter")
    try tmux.waitFor(text: "Your turn (X)")
    let pane = try #require(tmux.panePID)
    let child = try Tool.run("pgrep", ["-P", "\(pane)"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let pid = try #require(Int32(child), "the program's pid under the shell: \(child)")
    defer { kill(pid, SIGKILL) }
    kill(pid, SIGSTOP)
    try tmux.waitFor(text: "Stopped")
    try tmux.send("fg", "Enter")
    let redrawn = try tmux.waitFor("the game drawn again, with nothing of the shell's") {
      $0.contains("Your turn (X)") && !$0.contains("Stopped") && !$0.contains("fg")
    }
    let before = try #require(Self.cursor(redrawn), "\(redrawn)")
    // One key, no Enter: the cursor moves (in the shell's cooked mode the l would wait for a line, echoed).
    try tmux.send("l")
    try tmux.waitFor("the cursor one column right") { Self.cursor($0) == [before[0], before[1] + 3] }
  }

  /// Under a TERM that does not match the terminal, Home and End arrive as Esc and letters; Alt+key as Esc and
  /// the key. None of them is the Esc that leaves; a lone Esc asks first.
  @Test func keySequencesAreNotEscAndEscAsksFirst() throws {
    var environment = try Binary.sandbox().environment
    environment["LANG"] = "C.UTF-8"
    // tmux sends Home as ESC [ 1 ~; xterm's terminfo says ESC O H: curses does not know the sequence.
    let tmux = try TmuxSession(
      command: "sh -c 'TERM=xterm-256color \(Binary.path) play --size 9 --k 5; echo EXIT=$?; sleep 30'",
      environment: environment)
    try tmux.waitFor(text: "Your turn (X)")
    try tmux.send("Enter")
    let answered = try tmux.waitFor("the computer's answer") {
      $0.contains("The computer plays") && $0.contains("Your turn")
    }
    let before = try #require(Self.cursor(answered), "\(answered)")
    for key in ["Home", "End", "M-x", "M-q", "F12"] { try tmux.send(key) }
    try tmux.send("l")  // a key after them, to know they were all read
    let screen = try tmux.waitFor("the cursor one column right") { Self.cursor($0) == [before[0], before[1] + 3] }
    #expect(!screen.contains("Leave this game?") && !screen.contains("EXIT="), "\(screen)")
    try tmux.send("Escape")
    try tmux.waitFor(text: "Leave this game?")
    try tmux.send("y")
    try tmux.waitFor(text: "EXIT=0")
  }

  /// The lobby's join names the player as `tictactoe join` does (the login name here), from the first screen
  /// on, also when the address is refused: never "you".
  @Test func theLobbysJoinNamesThePlayerAsTheCommandLineDoes() throws {
    var environment = try Binary.sandbox().environment
    environment["USER"] = "carol"
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: environment)
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("Down", "Down", "Down", "Enter")
    try tmux.waitFor(text: "Join")
    try tmux.send("C-u", "127.0.0.1:99999", "Enter")
    let screen = try tmux.waitFor(text: "is not an address")
    #expect(screen.contains("Joined as carol") && !screen.contains("Joined as you"), "\(screen)")
  }
}

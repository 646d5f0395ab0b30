import Foundation
import Testing

/// The real binary in tmux: what a player sees and types.
@Suite(.serialized) struct CursesTests {
  private func start(_ arguments: String, width: Int = 80, height: Int = 24, extra: [String: String] = [:]) throws
    -> TmuxSession
  {
    var environment = try Binary.sandbox().environment
    environment.merge(extra) { $1 }
    return try TmuxSession(
      command: "sh -c '\(Binary.path) \(arguments); echo EXIT=$?; sleep 30'", environment: environment,
      width: width, height: height)
  }

  @Test(arguments: ["easy", "normal", "perfect"])
  func aWholeGameAgainstTheComputerThenQuit(level: String) throws {
    let tmux = try start("play --ai \(level)")
    try tmux.waitFor(text: "Your turn (X)")
    var screen = ""
    for digit in 1...9 {
      try tmux.send("\(digit)")
      screen = try tmux.waitFor("the computer's answer") {
        $0.contains("Your turn") || $0.contains("taken") || $0.contains("wins") || $0.contains("Draw.")
          || $0.contains("You win!")
      }
      if screen.contains("wins") || screen.contains("Draw.") || screen.contains("You win!") { break }
    }
    #expect(screen.contains("The computer wins.") || screen.contains("Draw.") || screen.contains("You win!"))
    if level == "perfect" { #expect(!screen.contains("You win!"), "the perfect computer lost:\n\(screen)") }
    #expect(screen.contains("n new game"))
    // The score counts the finished game.
    #expect(screen.contains("Computer 1") || screen.contains("draws 1") || screen.contains("You 1"))
    try tmux.send("q")
    let after = try tmux.waitFor(text: "EXIT=0")
    #expect(!after.contains("┌───"), "the terminal was not restored:\n\(after)")
  }

  @Test func aWholeHotseatGame() throws {
    let tmux = try start("play --hotseat")
    for digit in ["1", "4", "2", "5"] {
      try tmux.waitFor(text: "to move")
      try tmux.send(digit)
    }
    try tmux.send("3")
    let screen = try tmux.waitFor(text: "X wins!")
    #expect(screen.contains("X 1 · O 0 · draws 0"))
    #expect(screen.contains("│ X │ X │ X │"))
    try tmux.send("n")
    try tmux.waitFor(text: "X to move")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
  }

  @Test func resizingShowsTheSizeNeededAndRecovers() throws {
    let tmux = try start("play --hotseat")
    try tmux.waitFor(text: "X to move")
    try tmux.send("5")
    try tmux.waitFor(text: "O to move")
    try tmux.resize(width: 24, height: 8)
    try tmux.waitFor(text: "need 30×9")
    try tmux.resize(width: 80, height: 24)
    let screen = try tmux.waitFor(text: "O to move")
    #expect(screen.contains("│   │[X]│   │"))
  }

  @Test func lobbyToAHotseatGameAndHelp() throws {
    let tmux = try start("")
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("Down", "Enter")
    try tmux.waitFor(text: "Two players take turns")
    try tmux.send("?")
    try tmux.waitFor(text: "Press any key to close.")
    try tmux.send("x")
    try tmux.waitFor("the help to close") { !$0.contains("Press any key") }
    try tmux.send("Escape")
    try tmux.waitFor(text: "Play the computer")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
  }

  @Test func asciiAndMonochromeOnRequest() throws {
    let tmux = try start("play --hotseat --ascii", extra: ["NO_COLOR": "1"])
    let screen = try tmux.waitFor(text: "X to move")
    #expect(screen.contains("+---+---+---+"))
    #expect(!screen.contains("┌"))
    let colours = try tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-e"])
    // Under NO_COLOR no foreground colour escape (ESC [ 3x m) is drawn; bold and reverse remain.
    #expect(!colours.contains("\u{1B}[36m") && !colours.contains("\u{1B}[35m"))
  }

  @Test(arguments: [("TERM", 143), ("HUP", 129)])
  func signalsRestoreTheTerminal(signal: String, status: Int) throws {
    let tmux = try start("play --hotseat")
    try tmux.waitFor(text: "X to move")
    let shell = try #require(tmux.panePID)
    let child = try #require(childPID(of: shell))
    try Tool.run("kill", ["-\(signal)", "\(child)"])
    let screen = try tmux.waitFor(text: "EXIT=\(status)")
    #expect(!screen.contains("X to move"))
  }

  @Test func idleUsesNoCPU() throws {
    // The lobby browses the LAN; other suites announce and withdraw games all the time on this machine's
    // daemon, which is real work. Measure the lobby with no daemon to reach (it then retries every 3 s).
    let tmux = try start("", extra: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/ttt-idle"])
    try tmux.waitFor(text: "Play the computer")
    let shell = try #require(tmux.panePID)
    let child = try #require(childPID(of: shell))
    let before = try cpuTicks(child)
    // Measure an interval (not waiting for an event): an idle game blocked in poll() uses no CPU time.
    Thread.sleep(forTimeInterval: 2)
    let after = try cpuTicks(child)
    #expect(after - before <= 2, "idle game used \(after - before) ticks in 2 s")
  }

  @Test func aNetworkMatchBetweenTwoFullScreenPlayers() throws {
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let port = 20000 + Int.random(in: 0..<20000)
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port \(port); echo EXIT=$?; sleep 30'", environment: alice)
    try host.waitFor(text: "Waiting for an opponent")
    let joiner = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob)
    try joiner.waitFor(text: "The host alice is new to you. Trust it?")
    try joiner.send("y")
    try host.waitFor(text: "bob wants to join — accept?")
    try host.send("y")
    let hostScreen = try host.waitFor(text: "Game 1: you play")
    let hostFirst = hostScreen.contains("you play X")
    let (first, second) = hostFirst ? (host, joiner) : (joiner, host)
    try first.waitFor(text: "Your turn (X)")
    try first.send("5")
    // The mover's own board shows its move at once (playing reports nothing but the move sent).
    let moved = try first.waitFor(text: "Waiting for")
    #expect(moved.contains("│   │[X]│   │") || moved.contains("│   │ X │   │"))
    try second.waitFor(text: "Your turn (O)")
    let seen = try second.screen()
    #expect(seen.contains("│   │[X]│   │") || seen.contains("│   │ X │   │"))
    try second.send("c", "g", "g", "Enter")
    try first.waitFor(text: ": gg")
    try first.send("R")
    try second.waitFor(text: "resigned: you win!")
    try joiner.send("q")
    try joiner.waitFor(text: "EXIT=0")
    try host.waitFor(text: "Your opponent left: bob left")
    try host.send("x")
    try host.waitFor(text: "EXIT=30")
  }

  private func childPID(of parent: Int32) -> Int32? {
    let path = "/proc/\(parent)/task/\(parent)/children"
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: " ").first.flatMap { Int32($0) }
  }

  /// utime + stime from /proc/PID/stat, in clock ticks.
  private func cpuTicks(_ pid: Int32) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
  }
}

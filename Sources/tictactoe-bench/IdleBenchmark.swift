#if canImport(Glibc)
  import Glibc
#endif

/// What the real game costs while nobody touches it, in tmux sessions of the benchmark's own (80×24), against
/// programs that sleep in the same setting: CPU share and wakeups over a window, and resident memory.
///
/// First window: the lobby (`tictactoe`, browsing the LAN) beside `cat`, the C ncursesw baseline drawing the
/// lobby's text and a Swift program linking Foundation. Second window: two real players over loopback
/// (`tictactoe host` and `tictactoe join`, full-screen) in a game, the one waiting for the other's move
/// measured, beside a new `cat`.
enum IdleBenchmark {
  struct Result {
    var lobby: IdleCost
    var lobbyBaseline: IdleCost
    var waiting: IdleCost
    var waitingBaseline: IdleCost
    var lobbyBytes: Int
    var cursesBaselineBytes: Int
    /// The larger of the host's and the joiner's resident memory during their game.
    var gameBytes: Int
    var foundationBaselineBytes: Int
    var seconds: Double
  }

  /// Lets programs that just started finish drawing and settle before a window opens.
  static let settleSeconds = 1.0

  static func run(seconds: Double) throws -> Result {
    let game = try Programs.path("tictactoe")
    let curses = try Programs.path("tictactoe-bench-curses")
    let foundation = try Programs.path("tictactoe-bench-foundation")

    // Window 1: the lobby.
    let tmux = Tmux()
    let home = try PlayerHome("lobby")
    let lobby = try tmux.start("lobby", [game], environment: home.environment)
    let screen = try tmux.waitFor("lobby", "the lobby") { !$0.allSatisfy(\.isWhitespace) }
    let idle = try tmux.start("cat", ["cat"], environment: home.environment)
    let cursesPID = try tmux.start("curses", [curses] + LobbyText.lines(screen), environment: home.environment)
    let foundationPID = try tmux.start("foundation", [foundation], environment: home.environment)
    try tmux.waitFor("foundation", "the Foundation baseline") { $0.contains("ready") }
    let lobbyWindow = try window(seconds: seconds, [lobby, idle, cursesPID, foundationPID])

    // Window 2: a networked game, one player waiting for the other's move.
    let hostHome = try PlayerHome("idlehost")
    let joinHome = try PlayerHome("idlejoin")
    let port = try Loopback.freePort()
    let host = try tmux.start(
      "host", [game, "host", "--port", "\(port)", "--accept-new", "--name", "idlehost"],
      environment: hostHome.environment)
    try tmux.waitFor("host", "the host to listen") { $0.contains("\(port)") }
    let joiner = try tmux.start(
      "join", [game, "join", "127.0.0.1:\(port)", "--accept-new", "--name", "idlejoin"],
      environment: joinHome.environment)
    let waitingSession = try whoWaits(tmux)
    let waitingPID = waitingSession == "host" ? host : joiner
    let idle2 = try tmux.start("cat2", ["cat"], environment: home.environment)
    let gameWindow = try window(seconds: seconds, [waitingPID, idle2, host, joiner])

    return Result(
      lobby: cost(lobbyWindow, 0), lobbyBaseline: cost(lobbyWindow, 1), waiting: cost(gameWindow, 0),
      waitingBaseline: cost(gameWindow, 1), lobbyBytes: lobbyWindow.end[0].residentBytes,
      cursesBaselineBytes: lobbyWindow.end[2].residentBytes,
      gameBytes: max(gameWindow.end[2].residentBytes, gameWindow.end[3].residentBytes),
      foundationBaselineBytes: lobbyWindow.end[3].residentBytes, seconds: seconds)
  }

  /// Samples of each process at the start and the end of one window.
  struct Window {
    var start: [ProcessSample]
    var end: [ProcessSample]
    var seconds: Double
  }

  private static func cost(_ window: Window, _ index: Int) -> IdleCost {
    let cost = IdleCost(from: window.start[index], to: window.end[index], seconds: window.seconds)
    if cost.threadsLost > 0 {
      printError("note: \(cost.threadsLost) thread(s) ended during the idle window; their share is not counted")
    }
    return cost
  }

  /// Waits for the programs to settle, then samples them, sleeps `seconds`, and samples them again.
  private static func window(seconds: Double, _ pids: [pid_t]) throws -> Window {
    usleep(UInt32(settleSeconds * 1e6))
    let start = try pids.map { try ProcessSample.read(pid: $0) }
    let began = Clock.seconds()
    var remaining = seconds
    while remaining > 0 {
      usleep(UInt32(min(remaining, 1) * 1e6))
      remaining = seconds - (Clock.seconds() - began)
    }
    let end = try pids.map { try ProcessSample.read(pid: $0) }
    return Window(start: start, end: end, seconds: Clock.seconds() - began)
  }

  /// Waits until the game has started on both screens; the session ("host" or "join") whose player waits
  /// for the other's move.
  private static func whoWaits(_ tmux: Tmux) throws -> String {
    let deadline = Clock.seconds() + 20
    while Clock.seconds() < deadline {
      let host = try tmux.screen("host")
      let join = try tmux.screen("join")
      if host.contains("Your turn") && join.contains("Waiting for") { return "join" }
      if join.contains("Your turn") && host.contains("Waiting for") { return "host" }
      usleep(20_000)
    }
    throw BenchError(
      "the networked game did not start within 20 s; host screen:\n\(try tmux.screen("host"))\njoin screen:\n"
        + (try tmux.screen("join")))
  }
}

/// The lobby's text as captured from tmux, for the baselines that draw the same frame.
enum LobbyText {
  /// The screen's lines, trailing blanks removed (a baseline draws each on its row).
  static func lines(_ screen: String) -> [String] {
    var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      String(line.reversed().drop { $0 == " " }.reversed())
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// The last word on the screen: drawn last (curses writes rows top to bottom), so once it has been written
  /// the whole frame has.
  static func lastWord(_ screen: String) -> String? {
    lines(screen).last?.split(separator: " ").last.map(String.init)
  }
}

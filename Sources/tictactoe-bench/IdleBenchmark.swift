#if canImport(Glibc)
  import Glibc
#endif

/// What the real game costs while nobody touches it, in tmux sessions of the benchmark's own (80×24), against
/// programs that sleep in the same setting: CPU share and wakeups over a window, and resident memory.
///
/// First window: the lobby (`tictactoe`, browsing the LAN) beside `cat`, the C ncursesw baseline drawing the
/// lobby's text and a Swift program linking Foundation. Second window: two real players over loopback
/// (`tictactoe host` and `tictactoe join`, full-screen) in a game, the host waiting for the joiner's move
/// (if the coin gave the host the first move, it plays it first), beside a new `cat`. The host is the one
/// measured because it also holds the listening socket and the LAN advertisement. Third window: the same in a
/// game with a clock (`host --clock 10+0`), each side past its first move, the host waiting for the joiner's
/// move while the joiner's clock runs on its screen (its face changes once a second).
///
/// Both the lobby (browsing) and the host (advertising) hold avahi clients, which wake for every signal
/// avahi-daemon sends on the system bus, for whichever program (`AvahiSignalWatch`). So each window is
/// repeated (at most `attempts` times) until one passes with no such signal, and the quietest is kept;
/// `signals` says how many it saw.
enum IdleBenchmark {
  struct Result {
    var lobby: IdleCost
    var lobbyBaseline: IdleCost
    var waiting: IdleCost
    var waitingBaseline: IdleCost
    /// The host waiting in a timed game, the joiner's clock running.
    var timed: IdleCost
    var timedBaseline: IdleCost
    var lobbyBytes: Int
    var cursesBaselineBytes: Int
    /// The larger of the host's and the joiner's resident memory during their game.
    var gameBytes: Int
    var foundationBaselineBytes: Int
    var seconds: Double
    /// avahi-daemon's signals during the kept windows (lobby, game, timed game); nil when they could not be
    /// counted.
    var signals: (lobby: Int?, game: Int?, timed: Int?)
  }

  /// Lets programs that just started finish drawing and settle before a window opens.
  static let settleSeconds = 1.0
  static let attempts = 3

  static func run(seconds: Double, retryWhenBusy: Bool) throws -> Result {
    let game = try Programs.path("tictactoe")
    let curses = try CursesBaseline.path()
    let foundation = try Programs.path("tictactoe-bench-foundation")
    let watch = try AvahiSignalWatch()
    let attempts = retryWhenBusy ? Self.attempts : 1

    // Window 1: the lobby.
    let tmux = Tmux()
    let home = try PlayerHome("lobby")
    let lobby = try tmux.start("lobby", [game], environment: home.environment)
    let screen = try tmux.waitFor("lobby", "the lobby") { !$0.allSatisfy(\.isWhitespace) }
    let idle = try tmux.start("cat", ["cat"], environment: home.environment)
    let cursesPID = try tmux.start("curses", [curses] + LobbyText.lines(screen), environment: home.environment)
    let foundationPID = try tmux.start("foundation", [foundation], environment: home.environment)
    try tmux.waitFor("foundation", "the Foundation baseline") { $0.contains("ready") }
    let lobbyWindow = try quietWindow(
      "lobby", seconds: seconds, [lobby, idle, cursesPID, foundationPID], watch: watch, attempts: attempts)

    // Window 2: a networked game, one player waiting for the other's move. The lobby goes first: it would
    // resolve the new host, and its queries wake every avahi client.
    try tmux.stop("lobby")
    let hostHome = try PlayerHome("idlehost")
    let joinHome = try PlayerHome("idlejoin")
    let host = try tmux.start(
      "host", [game, "host", "--port", "0", "--accept-new", "--name", "idlehost"], environment: hostHome.environment)
    let port = try tmux.hostingPort("host", "the host to listen")
    let joiner = try tmux.start(
      "join", [game, "join", "127.0.0.1:\(port)", "--accept-new", "--name", "idlejoin"],
      environment: joinHome.environment)
    if try whoWaits(tmux) == "join" {
      try tmux.send("host", "Enter")
      try tmux.waitFor("host", "the host's move to be played") { $0.contains("Waiting for") }
    }
    let idle2 = try tmux.start("cat2", ["cat"], environment: home.environment)
    let gameWindow = try quietWindow(
      "networked game", seconds: seconds, [host, idle2, host, joiner], watch: watch, attempts: attempts)
    try tmux.stop("host")
    try tmux.stop("join")
    try tmux.stop("cat2")

    let timedWindow = try timedGame(tmux, game: game, seconds: seconds, watch: watch, attempts: attempts)
    return Result(
      lobby: cost(lobbyWindow, 0), lobbyBaseline: cost(lobbyWindow, 1), waiting: cost(gameWindow, 0),
      waitingBaseline: cost(gameWindow, 1), timed: cost(timedWindow, 0), timedBaseline: cost(timedWindow, 1),
      lobbyBytes: lobbyWindow.end[0].residentBytes,
      cursesBaselineBytes: lobbyWindow.end[2].residentBytes,
      gameBytes: max(gameWindow.end[2].residentBytes, gameWindow.end[3].residentBytes),
      foundationBaselineBytes: lobbyWindow.end[3].residentBytes, seconds: lobbyWindow.seconds,
      signals: (lobbyWindow.signals, gameWindow.signals, timedWindow.signals))
  }

  /// Window 3: a game with a 10-minute clock, three moves in (each side's clock has started), the host waiting
  /// while the joiner's clock runs.
  private static func timedGame(_ tmux: Tmux, game: String, seconds: Double, watch: AvahiSignalWatch, attempts: Int)
    throws -> Window
  {
    let hostHome = try PlayerHome("timedhost")
    let joinHome = try PlayerHome("timedjoin")
    let host = try tmux.start(
      "thost", [game, "host", "--port", "0", "--accept-new", "--name", "timedhost", "--clock", "10+0"],
      environment: hostHome.environment)
    let port = try tmux.hostingPort("thost", "the timed host to listen")
    let joiner = try tmux.start(
      "tjoin", [game, "join", "127.0.0.1:\(port)", "--accept-new", "--name", "timedjoin"],
      environment: joinHome.environment)
    try tmux.waitFor("tjoin", "the host's terms") { $0.contains("Play on these terms?") }
    try tmux.send("tjoin", "y")
    // X, O, X, and O once more when the host is O: then the joiner is to move with its clock running.
    var mover = try whoWaits(tmux, host: "thost", join: "tjoin") == "tjoin" ? "thost" : "tjoin"
    let plies = mover == "thost" ? 3 : 4
    for ply in 0..<plies {
      try tmux.send(mover, ["5", "1", "9", "3"][ply])  // cells of the 3×3 board, by number
      let other = mover == "thost" ? "tjoin" : "thost"
      try tmux.waitFor(other, "move \(ply + 1) to arrive") { $0.contains("Your turn") }
      mover = other
    }
    try tmux.waitFor("thost", "the joiner's clock to run") { $0.contains("▸") }
    let idle = try tmux.start("cat3", ["cat"], environment: hostHome.environment)
    return try quietWindow(
      "timed game", seconds: seconds, [host, idle, host, joiner], watch: watch, attempts: attempts)
  }

  /// Samples of each process at the start and the end of one window.
  struct Window {
    var start: [ProcessSample]
    var end: [ProcessSample]
    var seconds: Double
    /// avahi-daemon's signals during the window (nil: unknown).
    var signals: Int?
  }

  private static func cost(_ window: Window, _ index: Int) -> IdleCost {
    let cost = IdleCost(from: window.start[index], to: window.end[index], seconds: window.seconds)
    if cost.threadsLost > 0 {
      printError("note: \(cost.threadsLost) thread(s) ended during the idle window; their share is not counted")
    }
    return cost
  }

  /// Windows of `seconds` over `pids` until one has no avahi signal (at most `attempts`); the quietest.
  private static func quietWindow(
    _ what: String, seconds: Double, _ pids: [pid_t], watch: AvahiSignalWatch, attempts: Int
  ) throws -> Window {
    var best: Window?
    for attempt in 1...attempts {
      usleep(UInt32(settleSeconds * 1e6))
      _ = watch.signals()
      var window = try self.window(seconds: seconds, pids)
      window.signals = watch.signals()
      if best == nil || (window.signals ?? 0) < (best?.signals ?? 0) { best = window }
      guard let signals = window.signals, signals > 0 else { break }
      if attempt < attempts {
        printError("\(signals) avahi signal(s) on the system bus during the \(what) window: measuring again")
      }
    }
    guard let best else { throw BenchError("no idle window was measured") }
    return best
  }

  /// Samples the programs, sleeps `seconds`, and samples them again.
  private static func window(seconds: Double, _ pids: [pid_t]) throws -> Window {
    let start = try pids.map { try ProcessSample.read(pid: $0) }
    let began = Clock.seconds()
    var remaining = seconds
    while remaining > 0 {
      usleep(UInt32(min(remaining, 1) * 1e6))
      remaining = seconds - (Clock.seconds() - began)
    }
    let end = try pids.map { try ProcessSample.read(pid: $0) }
    return Window(start: start, end: end, seconds: Clock.seconds() - began, signals: nil)
  }

  /// Waits until the game has started on both screens; the session ("host" or "join") whose player waits
  /// for the other's move.
  static func whoWaits(_ tmux: Tmux, host hostSession: String = "host", join joinSession: String = "join") throws
    -> String
  {
    let deadline = Clock.seconds() + 20
    while Clock.seconds() < deadline {
      let host = try tmux.screen(hostSession)
      let join = try tmux.screen(joinSession)
      if host.contains("Your turn") && join.contains("Waiting for") { return joinSession }
      if join.contains("Your turn") && host.contains("Waiting for") { return hostSession }
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

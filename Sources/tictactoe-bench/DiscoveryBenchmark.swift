#if canImport(Glibc)
  import Glibc
#endif

/// Time from starting a real host (`tictactoe host`, which advertises its game by DNS-SD) until the game's
/// name appears in the lobby of another real `tictactoe` (in a pseudo-terminal, browsing), against
/// `avahi-browse` watching for the same advertisement at the same time. Each round uses a new name, so
/// nothing is cached. Then the withdrawal: from SIGTERM to the host until avahi-browse reports the game gone,
/// against the same for `avahi-publish` advertising a service of the same type. Needs an avahi-daemon
/// (scripts/avahi-test-daemon.sh starts one confined to loopback).
enum DiscoveryBenchmark {
  struct Result {
    var project = Samples()
    var baseline = Samples()
    var withdrawn = Samples()
    var withdrawnBaseline = Samples()
  }

  static func run(rounds: Int) throws -> Result {
    let game = try Programs.path("tictactoe")
    let lobbyHome = try PlayerHome("browser")
    let terminal = try PseudoTerminal(width: 100, height: 40)
    let lobby = try ChildProcess(
      game, [], environment: lobbyHome.environment, stdin: .descriptor(terminal.terminal),
      stdout: .descriptor(terminal.terminal), stderr: .descriptor(terminal.terminal))
    defer { lobby.stop() }
    guard terminal.readUntil(timeout: 10, { !$0.isEmpty }) != nil else {
      throw BenchError("the browsing lobby drew nothing within 10 s")
    }
    let browsePipe = try Pipe()
    let browse = try ChildProcess(
      "avahi-browse", ["--parsable", "--no-db-lookup", "_tictactoe._tcp"], environment: lobbyHome.environment,
      stdout: .descriptor(browsePipe.writer), stderr: .descriptor(browsePipe.writer))
    browsePipe.closeWriter()
    defer { browse.stop() }
    // Both browsers are up and idle before the first host starts.
    usleep(1_000_000)
    terminal.drain()
    _ = browsePipe.read(waitingAtMost: 0)
    if browse.hasExited {
      throw BenchError("avahi-browse stopped at once: is an avahi-daemon running? (scripts/avahi-test-daemon.sh)")
    }

    var result = Result()
    for round in 0..<rounds {
      let name = "bench\(getpid())r\(round)"
      let (inLobby, inBrowse, withdrawn) = try measure(
        name: name, game: game, terminal: terminal, browse: browsePipe)
      result.project.append(inLobby)
      result.baseline.append(inBrowse)
      result.withdrawn.append(withdrawn)
      result.withdrawnBaseline.append(
        try publisherWithdrawal(name: name + "p", home: lobbyHome, terminal: terminal, browse: browsePipe))
    }
    return result
  }

  /// Starts `avahi-publish` advertising `name`, waits until avahi-browse lists it, then stops it: nanoseconds
  /// from its SIGTERM until avahi-browse reports it gone.
  private static func publisherWithdrawal(
    name: String, home: PlayerHome, terminal: PseudoTerminal, browse: Pipe
  ) throws -> Double {
    let publisher = try ChildProcess(
      "avahi-publish", ["-s", name, "_tictactoe._tcp", "40999"], environment: home.environment)
    defer { publisher.stop() }
    _ = try browseLine("+", name: name, terminal: terminal, browse: browse)
    let start = Clock.now()
    kill(publisher.pid, SIGTERM)
    return Double(try browseLine("-", name: name, terminal: terminal, browse: browse) - start)
  }

  /// Reads avahi-browse's output until a line `mark;...;name;...` (`+` listed, `-` gone); when it was read.
  /// The lobby's terminal is drained meanwhile, so its output never blocks it.
  private static func browseLine(_ mark: String, name: String, terminal: PseudoTerminal, browse: Pipe) throws
    -> UInt64
  {
    var text: [UInt8] = []
    let deadline = Clock.seconds() + 15
    while Clock.seconds() < deadline {
      terminal.drain()
      guard let chunk = browse.read(waitingAtMost: 0.05) else { break }
      let now = Clock.now()
      text += chunk
      let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
      if lines.contains(where: { $0.hasPrefix(mark + ";") && $0.contains(";\(name);") }) { return now }
    }
    throw BenchError("avahi-browse did not report \(name) \(mark == "+" ? "listed" : "gone") within 15 s")
  }

  /// One round: starts a host called `name` and waits until both browsers show it, then stops it and waits until
  /// avahi-browse reports it gone; nanoseconds for each.
  private static func measure(name: String, game: String, terminal: PseudoTerminal, browse: Pipe) throws -> (
    Double, Double, Double
  ) {
    let hostHome = try PlayerHome("adhost")
    let input = try Pipe(forChildInput: true)  // held open: a plain-mode host quits when its input ends
    let start = Clock.now()
    let host = try ChildProcess(
      game, ["host", "--port", "0", "--ui", "plain", "--name", name], environment: hostHome.environment,
      stdin: .descriptor(input.reader))
    defer { host.stop() }
    let wanted = Array(name.utf8)
    var lobbyText: [UInt8] = []
    var browseText: [UInt8] = []
    var lobbyTime: UInt64?
    var browseTime: UInt64?
    let deadline = Clock.seconds() + 15
    while lobbyTime == nil || browseTime == nil {
      guard Clock.seconds() < deadline else {
        throw BenchError(
          "the game \(name) did not appear within 15 s (lobby: \(lobbyTime != nil), avahi-browse: \(browseTime != nil))"
        )
      }
      var fds = [
        pollfd(fd: terminal.master, events: Int16(POLLIN), revents: 0),
        pollfd(fd: browse.reader, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&fds, 2, 100)
      let now = Clock.now()
      if fds[0].revents != 0, let chunk = Descriptor.read(terminal.master, waitingAtMost: 0) {
        lobbyText += chunk
        if lobbyTime == nil && lobbyText.contains(wanted) { lobbyTime = now }
      }
      if fds[1].revents != 0, let chunk = browse.read(waitingAtMost: 0) {
        browseText += chunk
        let lines = String(decoding: browseText, as: UTF8.self).split(separator: "\n")
        if browseTime == nil && lines.contains(where: { $0.hasPrefix("+;") && $0.contains(";\(name);") }) {
          browseTime = now
        }
      }
    }
    let stopped = Clock.now()
    kill(host.pid, SIGTERM)
    let gone = try browseLine("-", name: name, terminal: terminal, browse: browse)
    // Let the withdrawal reach the lobby too before the next round.
    let settled = Clock.seconds() + 1
    while Clock.seconds() < settled {
      terminal.drain()
      _ = browse.read(waitingAtMost: 0.05)
    }
    return (
      Double((lobbyTime ?? start) - start), Double((browseTime ?? start) - start), Double(gone - stopped)
    )
  }
}

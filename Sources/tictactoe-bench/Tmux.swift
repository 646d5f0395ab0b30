#if canImport(Glibc)
  import Glibc
#endif

/// A tmux server of the benchmark's own (its own `-L` socket, no configuration file), holding programs in
/// sessions of a fixed size, the way a player's terminal holds the game. The server is killed when dropped, and
/// the socket it leaves behind removed.
final class Tmux {
  let socket = "ttt-bench-\(getpid())-\(Clock.now() % 1_000_000)"

  deinit {
    _ = try? run(["kill-server"])
    let directory = ChildProcess.currentEnvironment()["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(directory)/tmux-\(getuid())/\(socket)")
  }

  /// Starts `arguments` (a program and its arguments) in a new session named `name`; returns its PID.
  @discardableResult
  func start(
    _ name: String, _ arguments: [String], environment: [String: String], width: Int = 80, height: Int = 24
  ) throws -> pid_t {
    let settings = environment.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
    let command = "exec " + arguments.map(Self.quote).joined(separator: " ")
    try run(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"] + settings + [command])
    let text = try run(["display-message", "-p", "-t", name, "#{pane_pid}"])
    guard let pid = pid_t(text.filter { !$0.isWhitespace }) else {
      throw BenchError("tmux did not say which process runs in session \(name) (\"\(text)\")")
    }
    return pid
  }

  /// Types `keys` (tmux key names such as Enter or Down) into a session.
  func send(_ name: String, _ keys: String...) throws { try run(["send-keys", "-t", name] + keys) }

  /// Ends a session (its program gets SIGHUP, as when a terminal closes).
  func stop(_ name: String) throws { try run(["kill-session", "-t", name]) }

  /// The text on the session's screen.
  func screen(_ name: String) throws -> String { try run(["capture-pane", "-p", "-t", name]) }

  /// The port a host started with `--port 0` says it listens on ("Hosting … on port N."), read from `text` (its
  /// output, or its screen): a port found free beforehand could be taken before the host binds it.
  static func hostingPort(in text: String) -> UInt16? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard let at = words.firstIndex(of: "port"), at + 1 < words.count else { return nil }
    return UInt16(words[at + 1].prefix(while: \.isNumber))
  }

  /// Waits until a host started with `--port 0` in session `name` shows its port; the port.
  func hostingPort(_ name: String, _ what: String) throws -> UInt16 {
    let screen = try waitFor(name, what) { $0.contains(" on port ") && Tmux.hostingPort(in: $0) != nil }
    guard let port = Tmux.hostingPort(in: screen) else { throw BenchError("no port on the screen of \(name)") }
    return port
  }

  /// Waits at most `timeout` seconds until the screen satisfies `condition`; returns that screen.
  @discardableResult
  func waitFor(_ name: String, _ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
    let deadline = Clock.seconds() + timeout
    var last = ""
    while Clock.seconds() < deadline {
      last = try screen(name)
      if condition(last) { return last }
      usleep(20_000)
    }
    throw BenchError(
      "timed out after \(timeout) s waiting for \(what) in tmux session \(name); the screen was:\n\(last)")
  }

  @discardableResult
  private func run(_ arguments: [String]) throws -> String {
    try ChildProcess.output("tmux", ["-L", socket, "-f", "/dev/null"] + arguments)
  }

  /// `text` as one word for sh.
  static func quote(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}

import Foundation
import TestSupport
import Testing

/// Finds the built `tictactoe` binary beside the test bundle (or at $TICTACTOE_BIN) and runs it.
enum Binary {
  static var path: String {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BIN"] { return path }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle, bundle.deletingLastPathComponent()] {
      let path = candidate.appendingPathComponent("tictactoe").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return bundle.appendingPathComponent("tictactoe").path
  }

  /// A private home for one test (TestSupport's SandboxHome: removed with the test process's directory).
  static func sandbox() throws -> (root: String, environment: [String: String]) {
    try SandboxHome.make()
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs the binary with `input` on stdin; gives up (and kills it) after `timeout` seconds.
  static func run(
    _ arguments: [String], input: String = "", environment: [String: String]? = nil, timeout: Double = 60
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = try environment ?? sandbox().environment
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    let collectedOut = Collector(stdout.fileHandleForReading)
    let collectedErr = Collector(stderr.fileHandleForReading)
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      Issue.record("tictactoe \(arguments) did not finish within \(timeout) s")
      finished.wait()
    }
    return Result(status: process.terminationStatus, stdout: collectedOut.text(), stderr: collectedErr.text())
  }
}

extension Binary {
  /// `tictactoe list ARGUMENTS` run again (each run listens for 1.5 s) until `found` holds for its result or
  /// `timeout` seconds have passed; the last result. One listening window decides nothing on a loaded machine:
  /// the bound is only there so that a game that never shows up fails the test.
  static func list(
    _ arguments: [String], environment: [String: String], timeout: Double = 30, until found: (Result) -> Bool
  ) throws -> Result {
    let deadline = Date().addingTimeInterval(timeout)
    var result = try run(["list", "--wait", "1.5"] + arguments, environment: environment)
    while !found(result) && Date() < deadline {
      result = try run(["list", "--wait", "1.5"] + arguments, environment: environment)
    }
    return result
  }
}

/// Reads a pipe to its end on a background thread.
final class Collector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func text() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

/// A tmux server of the test's own (its own socket), with one window running a command.
final class TmuxSession {
  let socket = "ttt-\(UUID().uuidString.prefix(8))"
  let name = "T"

  init(command: String, environment: [String: String], width: Int = 80, height: Int = 24) throws {
    let exports = environment.filter {
      [
        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "HOME", "LANG", "NO_COLOR", "AVAHI_COMPAT_NOWARN", "USER",
        "DBUS_SYSTEM_BUS_ADDRESS",
      ]
      .contains($0.key)
    }
    .map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
    // The server this starts keeps whatever descriptors the client had: give it none of ours to hold open.
    try Tool.run(
      "tmux",
      [
        "-L", socket, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", "env \(exports) \(command)",
      ],
      capture: false)
  }

  deinit {
    _ = try? tmux(["kill-server"])
    // The server leaves its socket behind.
    let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(directory)/tmux-\(getuid())/\(socket)")
  }

  @discardableResult
  func tmux(_ arguments: [String]) throws -> String { try Tool.run("tmux", ["-L", socket] + arguments) }

  func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

  func screen() throws -> String { try tmux(["capture-pane", "-t", name, "-p"]) }

  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
  }

  var panePID: Int32? {
    Int32(
      (try? tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
        ?? "")
  }

  /// Waits (bounded) until the screen satisfies `condition`; returns the last screen either way.
  @discardableResult
  func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if condition(last) { return last }
      usleep(50_000)
    }
    Issue.record("timed out waiting for \(what); screen was:\n\(last)")
    return last
  }

  @discardableResult
  func waitFor(text: String, timeout: Double = 20) throws -> String {
    try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
  }
}

/// Starts child processes with posix_spawn: only standard input, output and error open, an empty signal mask
/// and every signal at its default action. (The test process blocks some signals, and a child would inherit
/// that: it could then not be stopped with SIGTERM. Foundation's Process misses exits when tests run on
/// several threads and leaks pipes into daemons such as tmux's server.)
enum Spawn {
  /// Where a child's standard input comes from.
  enum Input {
    case null
    /// Duplicated from this descriptor (the read end of a pipe the test writes to).
    case descriptor(Int32)
  }

  static func start(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Input = .null,
    output: String?, errors: String?
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch input {
    case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if let errors, errors == output {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    // Close everything else the test process has open, so no daemon the child starts inherits it.
    for fd in 3..<256 { posix_spawn_file_actions_addclose(&actions, Int32(fd)) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let result: Int32
    if let envp {
      result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    } else {
      result = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
    }
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT) }
    return pid
  }
}

/// Runs a helper program to completion, its output through a temporary file.
enum Tool {
  @discardableResult
  static func run(_ name: String, _ arguments: [String], capture: Bool = true) throws -> String {
    let output = TestDirectory.path("tool")
    defer { unlink(output) }
    let pid: pid_t
    do {
      pid = try Spawn.start(name, arguments, output: capture ? output : nil, errors: nil)
    } catch {
      Issue.record("cannot start \(name): \(error)")
      return ""
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return capture ? ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "") : ""
  }
}

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

  /// Runs the binary with `input` on stdin; gives up (and stops it) after `timeout` seconds.
  static func run(
    _ arguments: [String], input: String = "", environment: [String: String]? = nil, timeout: Double = 60
  ) throws -> Result {
    let base = TestDirectory.path("run")
    defer {
      unlink(base + ".out")
      unlink(base + ".err")
    }
    let child = try ChildProcess(
      path, arguments, environment: try environment ?? sandbox().environment, input: .writer,
      output: .file(base + ".out"), errors: .file(base + ".err"))
    child.send(input)
    child.closeInput()
    if child.wait(timeout: timeout) == nil {
      child.stop()
      Issue.record("tictactoe \(arguments) did not finish within \(timeout) s")
    }
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    return Result(status: child.exitStatus ?? -1, stdout: read(base + ".out"), stderr: read(base + ".err"))
  }
}

extension Binary {
  /// Writes `text` as the settings.conf of the home in `environment`, private as the program requires (0600 in a
  /// 0700 directory).
  static func writeSettings(_ text: String, environment: [String: String]) throws {
    let configuration = try #require(environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(
      atPath: configuration, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try text.write(toFile: configuration + "/settings.conf", atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration + "/settings.conf")
  }

  /// `tictactoe list ARGUMENTS` run again (each run listens for 1.5 s) until `found` holds for its result or
  /// `timeout` seconds have passed; the last result. One listening window decides nothing on a loaded machine:
  /// the bound is only there so that a game that never shows up fails the test.
  /// The games a `list --json` result shows.
  static func games(_ result: Result) -> [[String: Any]] {
    (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]] ?? []
  }

  /// Whether `result` (of `list --json`) shows `name` resolved to `port`: a game is listed as soon as it is
  /// browsed, before its address, port and TXT record are known.
  static func shows(_ name: String, on port: Int, in result: Result) -> Bool {
    games(result).contains { $0["name"] as? String == name && $0["port"] as? Int == port }
  }

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
  ///
  /// A capture can fall in the middle of one redraw (tmux reads the terminal's output in pieces, more so on a
  /// loaded machine), showing the new status beside the old board. So once a screen satisfies `condition`, it is
  /// captured again every 25 ms until two captures in a row are the same (the redraw finished; at most 0.5 s),
  /// and that settled screen, if it still satisfies `condition`, is the one returned for the caller's further
  /// checks. (If it no longer does, what was waited for was shown only for a moment, and the first capture is
  /// returned.) One capture 25 ms later was not always enough under load (CI, 2026-12-04).
  @discardableResult
  func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if condition(last) {
        let settled = try settledScreen(after: last)
        return condition(settled) ? settled : last
      }
      usleep(50_000)
    }
    Issue.record("timed out waiting for \(what); screen was:\n\(last)")
    return last
  }

  /// The screen once two captures 25 ms apart agree, starting from `first` (the latest capture after 0.5 s).
  private func settledScreen(after first: String) throws -> String {
    var previous = first
    for _ in 0..<20 {
      usleep(25_000)
      let again = try screen()
      if again == previous { return again }
      previous = again
    }
    return previous
  }

  @discardableResult
  func waitFor(text: String, timeout: Double = 20) throws -> String {
    try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
  }
}

/// Runs a helper program to completion (TestSupport's ChildProcess) and returns its standard output.
enum Tool {
  @discardableResult
  static func run(_ name: String, _ arguments: [String], capture: Bool = true) throws -> String {
    do {
      if !capture {
        // Nothing to read: the tmux server such a command starts keeps whatever it was given.
        let child = try ChildProcess(name, arguments)
        if child.wait(timeout: 60) == nil { Issue.record("\(name) \(arguments) did not finish within 60 s") }
        return ""
      }
      return try ChildProcess.run(name, arguments, errors: .null).output
    } catch {
      Issue.record("cannot start \(name): \(error)")
      return ""
    }
  }
}

import Glibc
import TestSupport
import Testing

/// Runs a suite against a real avahi-daemon: `scripts/avahi-test-daemon.sh start` before it (if that fails, the
/// suite is skipped with the reason, or fails under CI) and `stop` after it, which ends only what `start`
/// started; its directory is removed afterwards.
///
/// Needs: dbus-daemon and avahi-daemon installed (scripts/setup.sh), and root unless a system bus and an
/// avahi-daemon already run. scripts/test.sh runs these tests as a part of their own (as root in a private
/// network namespace), so that the test that stops the daemon disturbs no other test.
struct AvahiTestDaemon: SuiteTrait, TestScoping {
  /// Where the script keeps its config, log and PID files for these tests.
  static let directory = "/tmp/tictactoe-discovery-tests-avahi"

  /// The script, found from this file's path (Tests/DiscoveryTests/ → scripts/).
  static let script: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return (parts + ["scripts", "avahi-test-daemon.sh"]).joined(separator: "/")
  }()

  /// True when the running avahi-daemon is the one the script started (so tests may stop and restart it, and
  /// it serves only `lo`).
  static var startedByScript: Bool {
    access(directory + "/avahi.pid", F_OK) == 0
  }

  /// Runs the script with `arguments`; its exit status and output.
  static func run(_ arguments: [String]) -> (status: Int32?, output: String) {
    do {
      return try ChildProcess.run(script, arguments, timeout: 30)
    } catch {
      return (nil, "\(error)")
    }
  }

  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let (status, output) = Self.run(["start", Self.directory])
    print(output, terminator: "")
    guard status == 0 else {
      try Requirement.unmet("an avahi-daemon: `\(Self.script) start` failed: \(output)")
    }
    defer {
      print(Self.run(["stop", Self.directory]).output, terminator: "")
      _ = Self.run(["remove", Self.directory])
    }
    try await function()
  }
}

import Foundation

/// Where the tests keep their temporary files: one directory per test process under the system's temporary
/// directory, removed when the process exits, so a run leaves nothing behind however a test ends (short of a
/// crash of the test process itself).
public enum TestDirectory {
  /// This process's directory, made on first use (and its removal at exit registered then).
  public static let root: String = {
    let path = NSTemporaryDirectory() + "tictactoe-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit {
      try? FileManager.default.removeItem(atPath: TestDirectory.root)
    }
    return path
  }()

  /// A path inside `root` no other test uses (nothing is created there): for a file or a directory.
  public static func path(_ prefix: String) -> String {
    root + "/\(prefix)-\(UUID().uuidString)"
  }

  /// A new empty directory inside `root`.
  public static func make(_ prefix: String) throws -> String {
    let path = path(prefix)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

/// A player's private home for one test: the XDG directories and HOME under a fresh directory in
/// `TestDirectory`, the UTF-8 locale, and Avahi's compatibility banner silenced. The one sandbox the suites
/// share; what a suite adds (a user name, no D-Bus) it adds to `environment`.
public enum SandboxHome {
  public static func make() throws -> (root: String, environment: [String: String]) {
    let root = try TestDirectory.make("home")
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = root + "/config"
    environment["XDG_DATA_HOME"] = root + "/data"
    environment["XDG_STATE_HOME"] = root + "/state"
    environment["HOME"] = root
    environment["LANG"] = "C.UTF-8"
    environment["AVAHI_COMPAT_NOWARN"] = "1"
    // The test runner may set NO_COLOR for itself; a test that wants it sets it explicitly.
    environment.removeValue(forKey: "NO_COLOR")
    return (root, environment)
  }
}

import Glibc
import Testing

/// What a test needs from the machine (root, tmux, an avahi-daemon, network namespaces) and what happens when
/// it is missing: on a developer's machine the test is skipped with the reason; under CI (`CI=true`) it fails,
/// naming what was missing, because a green CI run must mean that every test ran.
public enum Requirement {
  /// Whether this run is CI's: the environment variable CI is "true" (as .ci/run and most CI systems set it).
  public static var isCI: Bool {
    guard let value = getenv("CI") else { return false }
    return String(cString: value) == "true"
  }

  /// Stops the current test because `missing` (what the test needs, in words: "root, for network namespaces")
  /// is not there: a skip outside CI, a failure under CI. Never returns.
  public static func unmet(_ missing: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
    if isCI {
      Issue.record(Comment(rawValue: "cannot run under CI: missing \(missing)"), sourceLocation: sourceLocation)
      throw Unmet(missing: missing)
    }
    try Test.cancel(Comment(rawValue: "skipped: missing \(missing)"), sourceLocation: sourceLocation)
  }

  /// Calls `unmet(missing)` unless `condition` holds.
  public static func require(
    _ condition: Bool, _ missing: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if !condition { try unmet(missing(), sourceLocation: sourceLocation) }
  }

  /// Thrown under CI after the failure is recorded, to end the test.
  public struct Unmet: Error, CustomStringConvertible {
    public var missing: String
    public var description: String { "missing \(missing)" }
  }
}

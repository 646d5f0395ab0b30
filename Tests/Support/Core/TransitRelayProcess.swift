import Foundation
import Testing

/// Debian's transit relay (magic-wormhole-transit-relay) run for one test on 127.0.0.1 only, at a port it
/// chose itself (`tcp:0`, read back from its log line `Transit starting on N`). Stopped by its PID when dropped.
public final class TransitRelayProcess {
  /// The relay's program in PATH, if the package is installed.
  public static let program: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/twist3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  public static let missing =
    "Debian's transit relay (no twist3 in PATH: apt-get install magic-wormhole-transit-relay, as scripts/setup.sh does)"

  public let process: ChildProcess
  /// The port it listens on, on 127.0.0.1.
  public let port: UInt16

  struct StartFailure: Error, CustomStringConvertible {
    let description: String
  }

  /// Starts a relay; without the package the test is skipped (a failure under CI: `Requirement`).
  public init() throws {
    try Requirement.require(Self.program != nil, Self.missing)
    process = try ChildProcess(
      Self.program ?? "twist3", ["transitrelay", "--port=tcp:0:interface=127.0.0.1"], output: .capture,
      errors: .withOutput)
    var found: UInt16?
    _ = process.waitForOutput(timeout: 20) { text in
      found = text.firstMatch(of: /Transit starting on (\d+)/).flatMap { UInt16($0.1) }
      return found != nil
    }
    guard let found else {
      process.stop()
      throw StartFailure(description: "the relay did not start within 20 s: \(process.text)")
    }
    port = found
  }

  /// What the relay logged (JSON lines).
  public var log: String { process.text }

  /// Waits (at most `timeout` seconds) until the relay has logged `text`; whether it did.
  public func logged(_ text: String, timeout: Double = 10) -> Bool {
    process.waitForOutput(timeout: timeout) { $0.contains(text) }
  }

  public func stop() { process.stop() }

  deinit { process.stop() }
}

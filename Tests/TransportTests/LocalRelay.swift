import Foundation
import TestSupport
import Testing
import Transport

/// Debian's transit relay (magic-wormhole-transit-relay) run for one test on 127.0.0.1 only, at a port it
/// chose itself (`tcp:0`, read back from its log line `Transit starting on N`). Stopped by its PID when dropped.
final class LocalRelay {
  /// The relay's program in PATH, if the package is installed.
  static let program: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/twist3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static let missing =
    "Debian's transit relay (no twist3 in PATH: apt-get install magic-wormhole-transit-relay, as scripts/setup.sh does)"

  let process: ChildProcess
  let endpoint: Endpoint

  struct StartFailure: Error, CustomStringConvertible {
    let description: String
  }

  /// Starts a relay; without the package the test is skipped (a failure under CI: `Requirement`).
  init() throws {
    try Requirement.require(Self.program != nil, Self.missing)
    process = try ChildProcess(
      Self.program ?? "twist3", ["transitrelay", "--port=tcp:0:interface=127.0.0.1"], output: .capture,
      errors: .withOutput)
    var port: UInt16?
    _ = process.waitForOutput(timeout: 20) { text in
      port = text.firstMatch(of: /Transit starting on (\d+)/).flatMap { UInt16($0.1) }
      return port != nil
    }
    guard let port else {
      process.stop()
      throw StartFailure(description: "the relay did not start within 20 s: \(process.text)")
    }
    endpoint = Endpoint(host: "127.0.0.1", port: port)
  }

  /// What the relay logged (JSON lines).
  var log: String { process.text }

  func stop() { process.stop() }

  deinit { process.stop() }
}

import NetworkFacts
import TestSupport
import Transport

/// Debian's transit relay on 127.0.0.1 for one test (`TransitRelayProcess`), at its `Endpoint`.
final class LocalRelay {
  let relay: TransitRelayProcess
  let endpoint: Endpoint

  /// Starts a relay; without the package the test is skipped (a failure under CI: `Requirement`).
  init() throws {
    relay = try TransitRelayProcess()
    endpoint = Endpoint(host: "127.0.0.1", port: relay.port)
  }

  /// What the relay logged (JSON lines).
  var log: String { relay.log }

  func stop() { relay.stop() }
}

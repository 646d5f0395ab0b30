import PlayerSettings
import TestSupport
import Testing

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// The lobby's "Host a network game" sets up its host as `tictactoe host` does (`NetworkLaunch.startHosting`,
/// shared): who may watch and how late by the settings (it let nobody watch), the per-address limits, the
/// port mapping's offer, hosting on after each opponent. Its announcement on the LAN is checked end to end
/// (`LobbyHostDiscoveryTests`).
@Suite(.serialized) struct LobbyHostTests {
  private static func lobbyHost(_ change: (inout Settings) -> Void) throws -> HostMatch {
    let environment = try SandboxHome.make().environment
    var settings = Settings()
    settings.port = 0  // one the system picks
    change(&settings)
    let result = NetworkLaunch.fromLobby(
      address: nil, advertised: nil, settings: settings, environment: environment,
      context: RunContext(environment: environment))
    guard case .success(let (match, _, joining)) = result else {
      throw LobbyHostFailed(description: "\(result)")
    }
    #expect(joining.isEmpty)
    return try #require(match as? HostMatch)
  }

  struct LobbyHostFailed: Error, CustomStringConvertible { let description: String }

  @Test func spectatorsAndTheirDelayComeFromTheSettings() throws {
    let plain = try Self.lobbyHost { _ in }
    #expect(plain.spectatorPolicy == .anyone && plain.watchDelay == 0)
    #expect(plain.keepsHosting && plain.sourceLimits != nil && plain.offersPortMapping && !plain.mapsPort)
    let known = try Self.lobbyHost {
      $0.spectators = "known"
      $0.watchDelay = 3
      $0.mapPort = false
    }
    #expect(known.spectatorPolicy == .known && known.watchDelay == 3 && !known.offersPortMapping)
    let none = try Self.lobbyHost { $0.spectators = "none" }
    #expect(none.spectatorPolicy == SpectatorPolicy.none)
  }
}

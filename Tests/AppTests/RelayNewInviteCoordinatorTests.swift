import Security
import Testing
import TransitRelay
import Transport

@testable import App
@testable import MatchCoordination

/// A new invite while hosting at a relay, in the pure host coordinator: the wait with the old token is closed at
/// once and the next wait says the new token; not while a joiner is in a match (its way back after a drop is
/// the token it has).
@Suite struct RelayNewInviteCoordinatorTests {
  static let newToken = RelayToken(bytes: Array(repeating: 9, count: 32))!

  /// The tokens the host's waits at the relay were made with, in order.
  static func waitTokens(_ commands: [MatchCommand]) -> [RelayToken] {
    commands.compactMap { if case .connectRelay(_, let route, _) = $0 { route.token } else { nil } }
  }

  @Test func aNewInviteClosesTheOldWaitAtOnceAndWaitsWithTheNewToken() throws {
    var pair = MatchPair()
    pair.host.relayWait = HostRelayWait(route: try RelayCoordinatorTests.route())
    pair.hostDid(pair.host.waitAtRelay(now: pair.now))
    let old = try #require(RelayCoordinatorTests.relayConnects(pair.hostCommands).first?.0)
    pair.hostDid(pair.host.reachedRelay(old, now: pair.now))
    #expect(pair.host.mayRenewRelayToken)

    pair.hostDid(pair.host.renewRelayToken(Self.newToken, now: pair.now))
    #expect(pair.closedByHost.contains(old), "the old token is no longer waited on")
    #expect(Self.waitTokens(pair.hostCommands) == [RelayCoordinatorTests.token, Self.newToken])
    #expect(pair.host.relayWait?.route.token == Self.newToken)
    let new = try #require(RelayCoordinatorTests.relayConnects(pair.hostCommands).last?.0)
    #expect(new != old && pair.host.relayWait?.waiting == new)
    // The old wait, glued after all (bytes already on their way), is not taken as a joiner.
    pair.hostDid(pair.host.glued(old, now: pair.now))
    #expect(RelayCoordinatorTests.relayConnects(pair.hostCommands).count == 2)
    #expect(pair.host.connections[new]?.phase == .connecting)
  }

  @Test func aNewInviteIsNotMadeDuringAMatchNorWithoutARelay() throws {
    var pair = MatchPair()
    #expect(!pair.host.mayRenewRelayToken, "no relay: nothing to renew")
    #expect(pair.host.renewRelayToken(Self.newToken, now: pair.now).isEmpty)
    pair.host.relayWait = HostRelayWait(route: try RelayCoordinatorTests.route())
    pair.hostDid(pair.host.waitAtRelay(now: pair.now))
    pair.connect()
    #expect(pair.started(pair.hostEvents) == 1)
    #expect(!pair.host.mayRenewRelayToken, "a match is on")
    let before = pair.hostCommands.count
    pair.hostDid(pair.host.renewRelayToken(Self.newToken, now: pair.now))
    #expect(pair.hostCommands.count == before && pair.host.relayWait?.route.token == RelayCoordinatorTests.token)
  }
}

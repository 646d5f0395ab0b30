import Testing

@testable import MatchCoordination
@testable import NetworkShell

/// A new invite asked for where there is none to make, on the real shells in memory: a host that waits at no
/// relay and a joiner (which has no invite of its own to renew) are both told so, in the same words, and the
/// view offers neither one.
@Suite(.serialized) struct InMemoryNewInviteTests {
  @Test func aHostWithoutARelayAndAJoinerAreToldThereIsNoNewInvite() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    for player in [host, joiner] {
      #expect(!player.match.view.mayMakeNewInvite, "\(player.name)")
      #expect(
        player.match.side.newInvite() == [.status("No new invite: you are not waiting at a relay.")], "\(player.name)")
    }
  }
}

import Foundation
import Security
import TestSupport
import Testing

/// A host waiting at Debian's relay on loopback asks for a new invite (plain mode's `new invite`): the old
/// token is no longer waited on, so a joiner with an invite sent before finds nobody at the relay (status 42),
/// while one with the new invite, which `tictactoe invite` now prints, plays through the relay.
@Suite(.serialized) struct RelayNewInviteTests {
  typealias Home = NetworkTests.Home

  @Test func anOldInviteFindsNobodyAtTheRelayAndTheNewOnePlays() throws {
    let relay = try TransitRelayProcess()
    let tap = try FaultProxy.start(target: relay.port)
    let alice = try Home("alice")
    let paths = RelayGameTests()
    let (host, old) = try paths.host(alice, relay: tap.port)
    #expect(tap.waitFor { $0.accepted == 1 }, "the host waits at the relay")

    host.send("new invite")
    #expect(host.waitFor("New invite: "), "\(host.output)\(host.errors)")
    let line = try #require(host.output.split(separator: "\n").first { $0.hasPrefix("New invite: ") })
    let new = try Invite.parse(String(line.dropFirst("New invite: ".count)))
    #expect(new.key == old.key && new.addresses == old.addresses, "only the token changes: \(old) \(new)")
    #expect(new.relay?.token != old.relay?.token && new.relay?.port == tap.port, "\(new)")
    #expect(host.output.contains("Invites sent before no longer come in through the relay"), "\(host.output)")
    let printed = try Binary.run(["invite"], environment: alice.environment)
    #expect(printed.stdout == new.description + "\n", "tictactoe invite prints the new one: \(printed)")
    #expect(tap.waitFor { $0.accepted == 2 }, "a new wait at the relay: \(tap.counters)")

    // Both joiners cannot reach the host's own address: only the relay is left to them.
    let late = try Player(
      ["join", try paths.unreachable(old, direct: paths.closedPort()), "--ui", "plain"],
      environment: try Home("carol").environment)
    let bob = try Player(
      ["join", try paths.unreachable(new, direct: paths.closedPort()), "--ui", "plain"],
      environment: try Home("bob").environment)
    #expect(bob.waitFor("game 1:"), "\(bob.output)\(bob.errors)")
    #expect(bob.output.contains("through the relay 127.0.0.1:\(tap.port)"), "\(bob.output)")
    Player.playOut(host, bob)
    #expect(bob.output.contains("result: "), "\(bob.output)")
    bob.send("quit")
    #expect(bob.exitStatus() == 0, "\(bob.errors)")

    #expect(late.exitStatus(timeout: 30) == 42, "\(late.output)\(late.errors)")
    #expect(late.output.contains("Trying the relay"), "\(late.output)")
    #expect(!late.output.contains("game 1:"), "\(late.output)")
    host.signal(SIGTERM)
    _ = host.exitStatus()
  }

  /// The full-screen host: `i` asks first; a stray key and then `n` leave the invite as it was; `i` and `y`
  /// make the new one, which the screen shows and `tictactoe invite` prints (the same key and addresses).
  @Test func onTheFullScreenIAsksFirstAndYMakesTheNewInvite() throws {
    let relay = try TransitRelayProcess()
    let home = try Binary.sandbox().environment
    let (host, _) = try TmuxSession.aliceHosts(" --bind 127.0.0.1 --relay 127.0.0.1:\(relay.port)", home: home)
    let first = try Binary.run(["invite"], environment: home).stdout
    #expect(first.contains(",relay:127.0.0.1/\(relay.port)/"), "\(first)")
    try host.waitFor(text: "i new invite")
    try host.send("i")
    try host.waitFor(text: "Make a new invite?")
    try host.send("x")
    try host.send("5")
    try host.send("n")
    try host.waitFor("the question to go") { !$0.contains("Make a new invite?") }
    #expect(try Binary.run(["invite"], environment: home).stdout == first, "a stray key or n changed nothing")
    try host.send("i")
    try host.waitFor(text: "Make a new invite?")
    try host.send("y")
    let screen = try host.waitFor(text: "New invite:")
    #expect(screen.contains("Invites sent before no longer come in through the relay"), "\(screen)")
    let second = try Binary.run(["invite"], environment: home).stdout
    let direct = try #require(first.split(separator: ",relay:").first)
    #expect(second != first && second.hasPrefix(direct + ",relay:127.0.0.1/\(relay.port)/"), "\(first)\(second)")
  }
}

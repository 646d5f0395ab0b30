import MatchCoordination
import Testing
import WireProtocol

@testable import App

/// A joiner no honest program would be, against the real host shell in memory: one that finishes TLS and then
/// says nothing, or says it in frames that break the protocol. The host lets each go and serves the next.
@Suite(.serialized) struct InMemoryHostileTests {
  /// After TLS a joiner that sends nothing at all is let go at the silence limit (10 s), not before.
  @Test func aJoinerSilentAfterTLSIsLetGoAtTheSilenceLimit() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let peer = try HandPeer(to: host, in: table)
    #expect(table.run(peer) { peer.messages.contains { if case .hello = $0 { true } else { false } } })
    table.advance(by: 8)
    peer.pump()
    #expect(!peer.isEnded)
    table.advance(by: 3)
    #expect(table.run(peer, seconds: 2) { peer.isEnded })
    #expect(host.question == nil && host.match.finished == nil)
    let joiner = try table.join(host)
    try table.meet(host, joiner)
  }

  /// A joiner that keeps the connection alive with heartbeats but never says hello is given a minute after TLS
  /// (sshd's LoginGraceTime), then let go.
  @Test func aJoinerThatNeverSaysHelloIsLetGoAfterAMinute() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let peer = try HandPeer(to: host, in: table)
    #expect(table.run(peer) { peer.isSecured })
    try table.pass(55, while: peer, says: .heartbeat)
    peer.pump()
    #expect(!peer.isEnded)
    table.advance(by: 4)
    try peer.write(Message.heartbeat.bytes)
    table.settle(0.1)
    peer.pump()
    #expect(!peer.isEnded)
    table.advance(by: 3)
    #expect(table.run(peer, seconds: 2) { peer.isEnded })
    #expect(host.question == nil && host.match.finished == nil)
  }

  /// A joiner that says its player is deciding (PROTOCOL.md rule 13) is waited for past the minute, until it has
  /// been silent `decidingSilence` seconds.
  @Test func aDecidingJoinerIsWaitedForUntilItFallsSilent() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let peer = try HandPeer(to: host, in: table)
    #expect(table.run(peer) { peer.isSecured })
    try table.pass(55, while: peer, says: .deciding)
    table.advance(by: 8)  // 63 s after TLS: past the plain minute
    peer.pump()
    #expect(!peer.isEnded)
    table.advance(by: PendingHandshakes.decidingSilence)
    #expect(table.run(peer, seconds: 2) { peer.isEnded })
  }

  /// Frames that break the protocol before hello: each connection is closed (with `error` where the frame
  /// could be read), nobody is asked about it, and the host goes on.
  @Test(
    arguments: [
      ("a frame of length 0", [0x00, 0x00]),
      ("a frame longer than 4096", [0x10, 0x01, 0x01]),
      (
        "a hello whose name is not UTF-8",
        [0x00, 0x0b, 0x01, 0x01, 0x00, 0x02, 0x00, 0x03, 0x02, 0x00, 0x02, 0xc3, 0x28]
      ),
      ("a hello with a repeated tag", [0x00, 0x0b, 0x01, 0x01, 0x00, 0x02, 0x00, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03]),
    ] as [(String, [UInt8])])
  func hostileFramesBeforeHelloCostTheHostNothing(_ what: String, _ bytes: [UInt8]) throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let peer = try HandPeer(to: host, in: table)
    #expect(table.run(peer) { peer.isSecured }, "\(what)")
    try peer.write(bytes)
    #expect(table.run(peer, seconds: 3) { peer.isEnded }, "\(what): the host kept the connection")
    #expect(host.question == nil && host.match.finished == nil, "\(what)")
    let joiner = try table.join(host)
    try table.meet(host, joiner)
  }
}

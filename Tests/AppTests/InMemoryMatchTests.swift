import EventLoop
import GameCore
import Glibc
import PeerTrust
import Session
import TestSupport
import Testing
import Transport

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// The real host and joiner shells (`HostMatch` and `JoinerMatch` on `MatchOnLoop`, real TLS, the real
/// coordinators) against each other in one process, over `MemoryNetwork`: what end-to-end tests check of the
/// match, in seconds and with no process spawned and no IPv4 or IPv6 socket.
@Suite(.serialized) struct InMemoryMatchTests {
  /// Both players asked about each other's key on first meeting; both accept; a move crosses.
  @Test func trustIsAskedAcceptedAndAMoveCrosses() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    #expect(table.run { joiner.question != nil })
    let asked = try #require(joiner.question)
    #expect(asked.role == .joiner && asked.fingerprint == host.identity.fingerprint)
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.question != nil })
    #expect(host.question?.fingerprint == joiner.identity.fingerprint)
    #expect(host.question?.peerName.description == "bob")
    host.take(host.match.answer(accept: true))
    #expect(table.run { host.myMark != nil && joiner.myMark != nil })
    let (first, second) = host.myMark == .x ? (host, joiner) : (joiner, host)
    first.take(try first.match.play(Position(row: 1, column: 1)))
    #expect(table.run { second.peerMoves == [Position(row: 1, column: 1)] })
    #expect(host.end == nil && joiner.end == nil)
    // Every descriptor either match holds (the listener, both ends of the game) is a Unix-domain socket, and the
    // loop watches each.
    let descriptors = host.match.descriptors + joiner.match.descriptors
    #expect(descriptors.count >= 3)
    #expect(descriptors.allSatisfy { InMemoryMatch.domain(of: $0) == AF_UNIX })
    #expect(descriptors.allSatisfy { table.loop.isWatching($0) })
  }

  /// A move and its answer cost the loop no epoll_ctl: each connection registered itself once, and a move that
  /// goes out in one write leaves what its connection is watched for as it was.
  @Test func aMoveCostsTheLoopNoDescriptorChange() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    table.settle(0.1)
    let (first, second) = host.myMark == .x ? (host, joiner) : (joiner, host)
    let before = table.loop.descriptorChanges
    first.take(try first.match.play(Position(row: 1, column: 1)))
    #expect(table.run { second.peerMoves == [Position(row: 1, column: 1)] })
    second.take(try second.match.play(Position(row: 0, column: 0)))
    #expect(table.run { first.peerMoves == [Position(row: 0, column: 0)] })
    #expect(table.loop.descriptorChanges == before, "a move added or changed a registration")
    table.run { table.loop.workInFlight == 0 }  // the journal's writes, done before the test ends
  }

  /// A host that refuses the joiner's key: the joiner is told so by name and the host keeps hosting.
  @Test func aRefusedJoinerIsToldAndTheHostGoesOn() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    #expect(table.run { joiner.question != nil })
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.question != nil })
    host.take(host.match.answer(accept: false))
    #expect(table.run { joiner.end != nil })
    #expect(joiner.end?.description == "The host declined to play with you.")
    #expect(host.match.finished == nil)
    let next = try table.join(host, name: "carol", address: "127.0.0.3")
    #expect(table.run { next.question != nil })
    next.take(next.match.answer(accept: true))
    #expect(table.run { host.question?.peerName.description == "carol" })
    #expect(next.end == nil)
  }

  /// A joiner that pinned the host's key is not asked about it; the host still is about the joiner.
  @Test func aPinnedHostIsNotAsked() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    var options = NetworkOptions()
    options.pins = [PinnedKey(host.identity.fingerprint)]
    let joiner = try table.join(host, options: options)
    #expect(table.run { host.question != nil })
    #expect(joiner.question == nil)
  }

  /// A pin the host's key does not match: the joiner goes before saying hello, and the host is asked nothing.
  @Test func aHostThatDoesNotMatchThePinIsLeft() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let other = try table.host(name: "mallory")
    var options = NetworkOptions()
    options.pins = [PinnedKey(other.identity.fingerprint)]
    let joiner = try table.join(host, options: options)
    #expect(table.run { joiner.end != nil })
    #expect(joiner.end?.description.hasPrefix("The other player's key is not the one you pinned.") == true)
    table.settle()
    #expect(host.question == nil && joiner.question == nil)
  }

  /// An invite names the host's key (and pins it, as `join INVITE` does): the joiner is not asked, and keeps the
  /// key with the address it joined, so a host there with another key later is refused.
  @Test func anInviteVouchesForTheHostsKey() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    var options = NetworkOptions()
    options.pins = [PinnedKey(host.identity.fingerprint, source: "the invite")]
    let joiner = try MemoryPlayer(
      .joiner, name: "bob", options: options, network: table.memory.network, loop: table.loop, time: table.time)
    joiner.joinerMatch.inviteKey = host.identity.fingerprint
    try table.add(joiner, joining: host)
    try table.meet(host, joiner)
    #expect(joiner.question == nil)
    #expect(table.run { (try? joiner.profile.knownPeers().lookup(fingerprint: host.identity.fingerprint)) != nil })
    let kept = try joiner.profile.knownPeers().lookup(fingerprint: host.identity.fingerprint)
    #expect(kept?.addresses == ["127.0.0.1:\(host.hostMatch.port)"])
  }

  /// A host met before at this address comes back with another key: the joiner refuses it (KEY CHANGED),
  /// without asking.
  @Test func aKnownHostWithAnotherKeyIsRefused() throws {
    let table = InMemoryMatch()
    let home = try SandboxHome.make().environment
    var first: MemoryPlayer? = try table.host()
    let port = try #require(first?.hostMatch.port)
    let joiner = try table.join(try #require(first), home: home)
    try table.meet(try #require(first), joiner)
    joiner.take(joiner.match.quit())
    table.settle()
    table.remove(try #require(first))
    first = nil
    let impostor = try table.host(name: "alice", port: port)
    let again = try table.join(impostor, home: home)
    #expect(table.run { again.end != nil })
    #expect(again.end?.description.hasPrefix("WARNING: alice's key has changed.") == true)
    #expect(again.end?.description.contains("presented: \(impostor.identity.fingerprint)") == true)
    #expect(again.question == nil && impostor.question == nil)
  }

  /// While a game is on, a second joiner is told the host is busy; the game goes on.
  @Test func aSecondJoinerFindsTheHostBusy() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    let late = try table.join(host, name: "carol", address: "127.0.0.2")
    #expect(table.run { late.end != nil || late.question != nil })
    if late.question != nil { late.take(late.match.answer(accept: true)) }
    #expect(table.run { late.end != nil })
    #expect(late.end?.description == "The host is busy: alice is already playing; try again later")
    #expect(late.end.map(ExitStatus.code(for:)) == 27)
    #expect(host.end == nil && joiner.end == nil)
  }

  /// A joiner that quits says goodbye: the host learns the joiner left, at once.
  @Test func aJoinerThatQuitsSaysGoodbye() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    joiner.take(joiner.match.quit())
    #expect(table.run(seconds: 2) { host.end != nil })
    #expect(host.end?.description == "Your opponent left the game.")
  }

  /// Bytes that are not TLS: the host closes that connection and the next joiner is served as ever.
  @Test func bytesThatAreNotTLSCostTheHostNothing() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let fd = try table.rawConnection(to: host)
    defer { close(fd) }
    _ = Array("GET / HTTP/1.0\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    #expect(table.run { InMemoryMatch.closedByPeer(fd) })
    let joiner = try table.join(host)
    try table.meet(host, joiner)
  }

  /// A connection that says nothing is let go at the handshake deadline, not before.
  @Test func aSilentConnectionIsDroppedAtTheDeadline() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let fd = try table.rawConnection(to: host)
    defer { close(fd) }
    table.settle()
    #expect(!InMemoryMatch.closedByPeer(fd))
    table.advance(by: PendingHandshakes.handshakeTimeout - 1)
    #expect(!InMemoryMatch.closedByPeer(fd))
    table.advance(by: 2)
    #expect(table.run(seconds: 2) { InMemoryMatch.closedByPeer(fd) })
  }

  /// The connection drops mid-game: the joiner connects again by itself and the game goes on where it stood.
  @Test func aDroppedGameIsResumed() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    let (first, second) = host.myMark == .x ? (host, joiner) : (joiner, host)
    first.take(try first.match.play(Position(row: 0, column: 0)))
    #expect(table.run { second.peerMoves.count == 1 })
    let connection = try #require(joiner.joinerMatch.sockets.inOrder.first?.1)
    shutdown(connection.fd, Int32(SHUT_RDWR))
    #expect(table.run { joiner.resumed && host.resumed })
    second.take(try second.match.play(Position(row: 1, column: 1)))
    #expect(table.run { first.peerMoves == [Position(row: 1, column: 1)] })
    #expect(host.end == nil && joiner.end == nil)
  }
}

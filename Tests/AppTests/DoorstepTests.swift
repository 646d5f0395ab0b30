import EventLoop
import Glibc
import Synchronization
import Testing

@testable import App
@testable import MatchCoordination
@testable import NetworkShell
@testable import PlayerFiles

/// The host's door while its pending connections are at their cap: a flood of silent connections is held and
/// closed there, bounded, and whoever speaks goes in first.
@Suite struct DoorstepTests {
  @Test func silentConnectionsAreClosedAfterTheirSecondAndSpeakersWaitLonger() {
    var door = Doorstep<Int>(cap: 10, perAddress: 10, silence: 1, patience: 5)
    #expect(door.arrived(1, from: "a", now: 0).isEmpty)
    #expect(door.arrived(2, from: "b", now: 0.5).isEmpty)
    door.spoke(2)
    #expect(door.silent == [1])
    #expect(door.nextDeadline == 1)
    #expect(door.expire(now: 0.99).isEmpty)
    #expect(door.expire(now: 1) == [1], "silent for its second")
    #expect(door.nextDeadline == 5.5)
    #expect(door.expire(now: 5.4).isEmpty, "one that spoke waits for a place")
    #expect(door.expire(now: 5.5) == [2])
    #expect(door.count == 0 && door.nextDeadline == nil)
  }

  /// Before closing the silent ones the shell looks once more at those whose second is over, and only those (a
  /// look at every silent socket on every tick cost thousands of calls a tick under a flood).
  @Test func onlyTheSilentWhoseSecondIsOverAreLookedAtAgain() {
    var door = Doorstep<Int>(cap: 10, perAddress: 10, silence: 1, patience: 5)
    _ = door.arrived(1, from: "a", now: 0)
    _ = door.arrived(2, from: "b", now: 0.5)
    _ = door.arrived(3, from: "c", now: 0.6)
    door.spoke(3)
    #expect(door.silentOverdue(now: 0.9).isEmpty)
    #expect(door.silentOverdue(now: 1.2) == [1])
    #expect(door.silentOverdue(now: 7) == [1, 2], "one that spoke is never looked at as silent")
  }

  @Test func theOldestThatSpokeGoesInFirst() {
    var door = Doorstep<Int>()
    for key in 1...4 { _ = door.arrived(key, from: "a", now: Double(key)) }
    door.spoke(3)
    door.spoke(2)
    #expect(door.anyoneSpoke)
    let first = door.nextIn()
    let second = door.nextIn()
    let third = door.nextIn()
    #expect(first?.key == 2 && second?.key == 3 && third == nil && !door.anyoneSpoke)
    #expect(door.silent == [1, 4])
  }

  /// A flood whose connections speak too (they finish TLS, then fall silent) holds pending places from many
  /// addresses: a newcomer from an address with none goes in before the flood's older ones, and among equals the
  /// oldest goes first.
  @Test func aNewcomerFromAnAddressWithNothingPendingGoesInFirst() {
    var door = Doorstep<Int>()
    for key in 1...3 { _ = door.arrived(key, from: "flood\(key)", now: Double(key)) }
    _ = door.arrived(4, from: "joiner", now: 4)
    _ = door.arrived(5, from: "flood5", now: 5)
    for key in 1...5 { door.spoke(key) }
    let busy = ["flood1": 2, "flood2": 1, "flood3": 1, "flood5": 1]
    #expect(door.nextIn(busy: busy)?.key == 4, "nothing pending from the joiner's address")
    #expect(door.nextIn(busy: busy)?.key == 2, "then the oldest of those with the fewest")
    #expect(door.nextIn(busy: busy)?.key == 3)
    #expect(door.nextIn(busy: busy)?.key == 5)
    #expect(door.nextIn(busy: busy)?.key == 1)
    #expect(door.nextIn(busy: busy) == nil)
  }

  /// Full: the oldest silent connection makes room, so one that spoke is kept (a real joiner is not pushed out by
  /// a flood arriving behind it); with none silent, the oldest.
  @Test func aFullDoorClosesItsOldestSilentConnectionFirst() {
    var door = Doorstep<Int>(cap: 3, perAddress: 10)
    _ = door.arrived(1, from: "joiner", now: 0)
    door.spoke(1)
    _ = door.arrived(2, from: "flood", now: 0.1)
    _ = door.arrived(3, from: "flood", now: 0.2)
    #expect(door.arrived(4, from: "flood", now: 0.3) == [2])
    #expect(door.arrived(5, from: "flood", now: 0.4) == [3])
    #expect(door.waiting.map(\.key) == [1, 4, 5])
    door.spoke(4)
    door.spoke(5)
    #expect(door.arrived(6, from: "flood", now: 0.5) == [1], "none silent: the oldest")
    #expect(door.count == 3)
  }

  @Test func oneAddressHoldsAtMostItsShare() {
    var door = Doorstep<Int>(cap: 100, perAddress: 2)
    _ = door.arrived(1, from: "flood", now: 0)
    _ = door.arrived(2, from: "flood", now: 0)
    _ = door.arrived(3, from: "joiner", now: 0)
    #expect(door.arrived(4, from: "flood", now: 0) == [1])
    #expect(door.waiting.map(\.key) == [2, 3, 4])
  }

  /// A trusted proxy's connections, all accepted from its address, are counted once they speak under the client
  /// their header names: the proxy's share at the door is freed, and each client has its own turn.
  @Test func oneThatSaysWhoseItIsIsCountedAsThatClients() {
    var door = Doorstep<Int>(cap: 100, perAddress: 2)
    _ = door.arrived(1, from: "proxy", now: 0)
    _ = door.arrived(2, from: "proxy", now: 1)
    door.spoke(1, from: "client-a")
    door.spoke(2, from: "client-b")
    #expect(door.waiting.map(\.address) == ["client-a", "client-b"])
    #expect(door.arrived(3, from: "proxy", now: 2).isEmpty, "the proxy's share was freed as they spoke")
    #expect(door.arrived(4, from: "proxy", now: 2).isEmpty)
    door.spoke(3)
    #expect(door.nextIn(busy: ["client-a": 1])?.key == 2, "client-a has one in: client-b's turn")
    #expect(door.nextIn(busy: ["client-a": 1]).map { [$0.key: $0.address] } == [3: "proxy"])
  }
}

/// The door on real sockets: a descriptor number closed at the door and given to the next connection is a new
/// socket to the loop (the loop dropped the old one from its poll set when it was closed; the same number with
/// the same identity would never be watched, and a real joiner would be closed as silent).
@Suite struct HostDoorTests {
  private func pair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    return (fds[0], fds[1])
  }

  /// On the loop, a socket at the door is watched while it is silent (one held before the loop was given too),
  /// and given up when it speaks (it stays readable until it goes in: watched, it would wake the loop each
  /// round), when it goes in (its connection registers itself), and before the door closes it (its number is
  /// then the next socket's).
  @Test func aHeldSocketIsWatchedWhileSilentAndGivenUpBeforeItIsClosed() throws {
    let loop = EventLoop()
    var watchedWhenClosed: [Bool] = []
    let door = HostDoor(
      log: Log(path: "/dev/null"),
      close: { fd in
        watchedWhenClosed.append(loop.isWatching(fd))
        _ = Glibc.close(fd)
      })
    let (silent, silentOther) = pair()
    let (speaker, speakerOther) = pair()
    defer { for fd in [silentOther, speakerOther, speaker] { close(fd) } }
    door.hold(silent, peer: "192.0.2.1:5000", now: 0)
    door.register = { fd in LoopRegistration(loop: loop, fd: fd, events: Int16(POLLIN)) { _ in } }
    door.hold(speaker, peer: "192.0.2.2:5000", now: 0)
    #expect(loop.isWatching(silent) && loop.isWatching(speaker))
    _ = write(speakerOther, "x", 1)
    door.readable(speaker, now: 0.1)
    #expect(door.anyoneSpoke && !loop.isWatching(speaker), "one that spoke is still watched")
    let next = try #require(door.nextIn())
    #expect(next.fd == speaker)
    door.expire(now: 2)  // silent past its second: closed
    #expect(watchedWhenClosed == [false], "closed while the loop still watched it")
    #expect(!loop.isWatching(silent) && loop.watchedCount == 1, "only the loop's own wake-up pipe is left")
  }

  @Test func oneThatSpeaksIsMarkedAndGoesIn() throws {
    let door = HostDoor(log: Log(path: "/dev/null"))
    let (held, other) = pair()
    defer { close(other) }
    door.hold(held, peer: "192.0.2.1:5000", now: 0)
    door.readable(held, now: 0.1)
    #expect(door.anyoneSpoke == false, "nothing sent yet")
    _ = write(other, "x", 1)
    door.readable(held, now: 0.2)
    #expect(door.anyoneSpoke)
    let next = try #require(door.nextIn())
    #expect(next.fd == held && next.peer == "192.0.2.1:5000")
    var byte: UInt8 = 0
    #expect(read(held, &byte, 1) == 1 && byte == UInt8(ascii: "x"), "its first bytes stay for TLS")
    close(held)
  }

  /// PROXY v2 header bytes for a TCP-over-IPv4 client at `client` port 40000, to 192.0.2.99:7177.
  private func proxyHeader(client: [UInt8]) -> [UInt8] {
    [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, 0x21, 0x11, 0, 12] + client
      + [192, 0, 2, 99, 0x9C, 0x40, 0x1C, 0x09]
  }

  /// Behind a trusted proxy every connection comes from its address: the door reads (without taking) each one's
  /// header and lets the client with nothing pending go in first, though its connection came later; a header
  /// not all there, or one from a peer not trusted for it, is counted under the address it came from.
  @Test func aProxysClientsTakeTheirOwnTurns() throws {
    let proxy = "127.0.0.9:5000"
    let door = HostDoor(log: Log(path: "/dev/null"), fromProxy: { $0 == proxy })
    let (first, firstOther) = pair()
    let (second, secondOther) = pair()
    let (third, thirdOther) = pair()
    let (stranger, strangerOther) = pair()
    defer { for fd in [firstOther, secondOther, thirdOther, strangerOther] { close(fd) } }
    for fd in [first, second, third] { door.hold(fd, peer: proxy, now: 0) }
    door.hold(stranger, peer: "127.0.0.8:6000", now: 0)
    let busyHeader = proxyHeader(client: [198, 51, 100, 1]) + [0x16, 0x03]
    let newHeader = proxyHeader(client: [198, 51, 100, 2])
    _ = busyHeader.withUnsafeBytes { write(firstOther, $0.baseAddress, $0.count) }
    _ = newHeader.withUnsafeBytes { write(secondOther, $0.baseAddress, $0.count) }
    _ = newHeader.prefix(20).withUnsafeBytes { write(thirdOther, $0.baseAddress, $0.count) }
    _ = newHeader.withUnsafeBytes { write(strangerOther, $0.baseAddress, $0.count) }
    for fd in [first, second, third, stranger] { door.readable(fd, now: 0.1) }
    let busy = ["198.51.100.1": 3, proxy.split(separator: ":")[0].description: 1, "127.0.0.8": 1]
    let order = (0..<4).compactMap { _ in door.nextIn(busy: busy) }
    #expect(order.map(\.fd) == [second, third, stranger, first])
    #expect(order.map(\.counted) == ["198.51.100.2", "127.0.0.9", "127.0.0.8", "198.51.100.1"])
    #expect(order.map(\.peer) == [proxy, proxy, "127.0.0.8:6000", proxy], "the connection is still the proxy's")
    var bytes = [UInt8](repeating: 0, count: 64)
    #expect(read(first, &bytes, 64) == busyHeader.count, "the header stays for the connection's own reader")
    for fd in [first, second, third, stranger] { close(fd) }
  }
}

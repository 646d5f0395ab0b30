import EventLoop
import Glibc
import PeerTrust
import Security
import Testing
import Transport

@testable import NetworkShell

/// A connection's place on the loop (`WatchedConnection`, the match's and the bot's): watched for writing only
/// while it must be, given up once before it is closed, and never heard by an owner whose descriptor is gone.
@Suite struct WatchedConnectionTests {
  private static let identity = Result { try Identity.generate(commonName: "watched") }

  /// A client connection on one end of a fresh socket pair, and the other end.
  private func connection() throws -> (PeerConnection, other: Int32) {
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    let context = try TLSContext(
      role: .client, identity: try WatchedConnectionTests.identity.get(), options: TrustOptions(policy: .insecure))
    return (try PeerConnection(fd: fds[0], context: context, peerAddress: "test"), fds[1])
  }

  /// While its connect is under way, and while bytes wait that the socket did not take, it is watched for
  /// writing; once they are out, for reading alone. Each change costs one epoll_ctl, an unchanged one none.
  @Test func writingIsWatchedOnlyWhileBytesWaitAndOnlyAChangeCostsASystemCall() throws {
    let loop = EventLoop()
    let (peer, other) = try connection()
    defer { close(other) }
    let watched = WatchedConnection(peer, connecting: true)
    var heard: [Int16] = []
    watched.watch(on: loop) { heard.append($0) }
    loop.runOnce(maximumWait: 1)
    #expect(heard.last.map { $0 & Int16(POLLOUT) != 0 } == true, "a connect under way was not watched for writing")
    watched.connecting = false
    var changes = loop.descriptorChanges
    watched.followWrites()
    watched.followWrites()
    #expect(loop.descriptorChanges == changes + 1)
    // Fill the socket, so the ClientHello waits in the connection.
    var junk = [UInt8](repeating: 0, count: 65_536)
    var filled = 0
    while case let written = write(peer.fd, &junk, junk.count), written > 0 { filled += written }
    try peer.start()
    #expect(peer.wantsWrite, "the socket took the ClientHello: the test proves nothing")
    changes = loop.descriptorChanges
    watched.followWrites()
    #expect(loop.descriptorChanges == changes + 1)
    // The peer reads: the socket is writable, what waited goes out, and reading alone is watched again.
    var drained = 0
    while drained < filled, case let got = read(other, &junk, junk.count), got > 0 { drained += got }
    heard = []
    loop.runOnce(maximumWait: 1)
    #expect(heard.contains { $0 & Int16(POLLOUT) != 0 })
    peer.flush()
    watched.followWrites()
    #expect(!peer.wantsWrite && loop.descriptorChanges == changes + 2)
    watched.close(gracefully: false)
  }

  /// A connection let in from the door registers the descriptor the door gave up: it alone hears it, the door
  /// giving it up again later changes nothing, and closed, the connection is given up too.
  @Test func aConnectionLetInFromTheDoorAloneHearsItsDescriptor() throws {
    let loop = EventLoop()
    var heard: [String] = []
    let (peer, other) = try connection()
    defer { close(other) }
    let door = LoopRegistration(loop: loop, fd: peer.fd, events: Int16(POLLIN)) { _ in heard.append("door") }
    door.cancel()
    let watched = WatchedConnection(peer)
    watched.watch(on: loop) { _ in heard.append("connection") }
    door.cancel()
    _ = write(other, "x", 1)
    loop.runOnce(maximumWait: 1)
    #expect(heard == ["connection"])
    #expect(watched.isWatched && !door.isActive)
    watched.close(gracefully: false)
    #expect(!watched.isWatched && !loop.isWatching(peer.fd), "closed while still watched")
  }
}

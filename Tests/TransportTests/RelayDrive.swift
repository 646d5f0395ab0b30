import Glibc
import NetworkFacts
import Testing
import Transport
import WireProtocol

/// One side of a test through a relay: its connection, what it received, and how it failed.
final class RelayPeer {
  let connection: PeerConnection
  private(set) var arrivals: [PeerConnection.Arrival] = []
  private(set) var failure: NetworkError?

  init(_ connection: PeerConnection) {
    self.connection = connection
  }

  var isSecured: Bool { arrivals.contains { $0.securedFacts != nil } }

  var messages: [Message] {
    arrivals.compactMap { if case .message(let message) = $0 { message } else { nil } }
  }

  /// Does what poll reported, and what the prelude's deadline says.
  func serve(_ revents: Int16, now: Double) {
    guard failure == nil, !connection.isClosed else { return }
    do throws(NetworkError) {
      if revents & Int16(POLLOUT) != 0 { connection.flush() }
      if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { arrivals += try connection.readable() }
      try connection.checkPrelude(now: now)
    } catch {
      failure = error
    }
  }
}

/// Runs peers and taps on one poll loop, as the game's event loop would, until `done` or `seconds` pass;
/// whether `done` came true.
@discardableResult
func drive(_ peers: [RelayPeer], taps: [RecordingTap] = [], seconds: Double = 10, until done: () -> Bool) throws
  -> Bool
{
  let deadline = PeerConnection.monotonic() + seconds
  while !done() {
    let now = PeerConnection.monotonic()
    guard now < deadline else { return false }
    let live = peers.filter { !$0.connection.isClosed && $0.failure == nil }
    var entries = live.map { peer in
      pollfd(
        fd: peer.connection.fd, events: Int16(POLLIN) | (peer.connection.wantsWrite ? Int16(POLLOUT) : 0),
        revents: 0)
    }
    entries += taps.flatMap(\.descriptors).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let wake = ([deadline] + live.compactMap(\.connection.preludeDeadline)).min() ?? deadline
    _ = poll(&entries, nfds_t(entries.count), Int32(max(0, min(100, (wake - now) * 1000)).rounded(.up)))
    for tap in taps { try tap.pump() }
    for (index, peer) in live.enumerated() { peer.serve(entries[index].revents, now: PeerConnection.monotonic()) }
  }
  return true
}

/// Bytes waiting to be read on `fd`.
func waitingBytes(_ fd: Int32) -> Int32 {
  var count: Int32 = 0
  _ = ioctl(fd, UInt(FIONREAD), &count)
  return count
}

extension Array where Element == UInt8 {
  /// Whether `needle` occurs in these bytes.
  func contains(_ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
    return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
}

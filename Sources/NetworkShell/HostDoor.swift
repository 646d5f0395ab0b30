import EventLoop
import Glibc
import MatchCoordination
import NetworkFacts
import PlayerFiles

/// The host's `Doorstep` on real sockets: connections accepted while the pending connections are at their cap,
/// held without a TLS context until they speak (`HostMatch` lets them in as places free, oldest first).
/// Closes what the door turns away, and says so in the log at most once a minute, with the count.
package final class HostDoor {
  /// A socket held: where it came from, and its registration with the loop while it is silent.
  private struct Held {
    let peer: String
    /// From a proxy trusted to name its clients: its first bytes are a PROXY header, read (not taken) to know
    /// whose turn it is.
    let proxied: Bool
    var registration: LoopRegistration?
  }

  private var door = Doorstep<Int32>()
  private var heldSockets: [Int32: Held] = [:]
  private let log: Log
  /// Connections closed at the door since the last line about them, and when that line was written.
  private var closedSinceLine = 0
  private var lastLine: Double?

  /// Closes a descriptor (the system's `close`; a test gives its own to number sockets as it likes).
  private let closeDescriptor: (Int32) -> Void
  /// Whether a peer is a proxy trusted to send a PROXY protocol v2 header first (the bot's `proxy_from`).
  private let fromProxy: (String) -> Bool

  init(
    log: Log, fromProxy: @escaping (String) -> Bool = { _ in false },
    close: @escaping (Int32) -> Void = { _ = Glibc.close($0) }
  ) {
    self.log = log
    self.fromProxy = fromProxy
    closeDescriptor = close
  }

  var count: Int { door.count }
  /// Those still silent, to watch for their first bytes.
  var silent: [Int32] { door.silent }
  /// Every socket held.
  var held: [Int32] { Array(heldSockets.keys) }

  /// Registers a socket held with the loop, to hear its first bytes (nil: no loop). Each one still silent is
  /// registered when it is set, and each one held from then on; each is given up when it speaks, goes in (its
  /// connection registers itself) or is closed (before the close).
  var register: ((Int32) -> LoopRegistration)? {
    didSet {
      for (fd, entry) in heldSockets {
        entry.registration?.cancel()
        heldSockets[fd]?.registration = door.silent.contains(fd) ? register?(fd) : nil
      }
    }
  }

  /// Whether the loop watches `fd` for this door.
  func isWatched(_ fd: Int32) -> Bool { heldSockets[fd]?.registration?.isActive == true }
  var nextDeadline: Double? { door.nextDeadline }
  var anyoneSpoke: Bool { door.anyoneSpoke }

  /// Holds `fd`, accepted from `peer`, at the door (closing those it makes room for).
  func hold(_ fd: Int32, peer: String, now: Double) {
    let address = SourceAddress.counted(peer)
    heldSockets[fd] = Held(peer: peer, proxied: fromProxy(peer), registration: register?(fd))
    closeTurnedAway(door.arrived(fd, from: address, now: now), now: now)
  }

  /// `fd` at the door is readable: it spoke (its first bytes stay in the socket for TLS, or for the PROXY header's
  /// reader), or it closed. A trusted proxy's connection is counted from then on under the client its header
  /// names; one whose header has not all come, or names no client, stays under the proxy's address.
  func readable(_ fd: Int32, now: Double) {
    let proxied = heldSockets[fd]?.proxied ?? false
    var bytes = [UInt8](repeating: 0, count: proxied ? ProxyHeader.fixedLength + ProxyHeader.maximumLength : 1)
    let peeked = recv(fd, &bytes, bytes.count, Int32(MSG_PEEK | MSG_DONTWAIT))
    if peeked > 0 {
      var client: String?
      if proxied, case .header(let header, _) = ProxyHeader.read(Array(bytes.prefix(peeked))) {
        client = header.source.map(SourceAddress.counted)
      }
      door.spoke(fd, from: client)
      heldSockets[fd]?.registration?.cancel()  // it stays readable until it goes in: no more wakeups for it
      heldSockets[fd]?.registration = nil
    } else if peeked == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      door.remove(fd)
      closeTurnedAway([fd], now: now, counted: false)
    }
  }

  /// The next that spoke, taken off the door to go in: the oldest from the address with the fewest connections
  /// already in (`busy`, by `SourceAddress`). `peer`: where it was accepted from; `counted`: the address its turn
  /// was counted under (a proxy's client's).
  func nextIn(busy: [String: Int] = [:]) -> (fd: Int32, peer: String, counted: String)? {
    guard let (fd, address) = door.nextIn(busy: busy), let entry = heldSockets.removeValue(forKey: fd) else {
      return nil
    }
    entry.registration?.cancel()
    return (fd, entry.peer, address)
  }

  /// Closes those whose time at the door is over.
  func expire(now: Double) {
    // One whose first bytes came since the loop last looked is not silent: look before closing (a joiner was
    // closed at the door under a loaded full test run).
    for fd in door.silentOverdue(now: now) { readable(fd, now: now) }
    closeTurnedAway(door.expire(now: now), now: now)
  }

  /// Closes everyone at the door (hosting is over).
  func closeAll() {
    for (fd, entry) in heldSockets {
      entry.registration?.cancel()
      closeDescriptor(fd)
    }
    heldSockets = [:]
    door = Doorstep()
  }

  private func closeTurnedAway(_ fds: [Int32], now: Double, counted: Bool = true) {
    for fd in fds {
      heldSockets.removeValue(forKey: fd)?.registration?.cancel()  // given up before its number is free again
      closeDescriptor(fd)
    }
    guard counted, !fds.isEmpty else { return }
    closedSinceLine += fds.count
    if let lastLine, now - lastLine < 60 { return }
    log.write(
      "closed \(closedSinceLine) connection(s) held at the door while \(PendingHandshakes.host.cap) others were "
        + "setting up TLS: silent for \(door.silence) s, or crowded out")
    lastLine = now
    closedSinceLine = 0
  }
}

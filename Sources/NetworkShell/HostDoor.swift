import Glibc
import MatchCoordination
import NetworkFacts
import PlayerFiles

/// The host's `Doorstep` on real sockets: connections accepted while the pending connections are at their cap,
/// held without a TLS context until they speak (`HostMatch` lets them in as places free, oldest first).
/// Closes what the door turns away, and says so in the log at most once a minute, with the count.
package final class HostDoor {
  /// Each held socket's identity for the loop: a descriptor number closed here and given to the next accept
  /// must look new to the loop (it dropped the old one from its poll set when it was closed).
  private final class Held {
    let peer: String
    /// From a proxy trusted to name its clients: its first bytes are a PROXY header, read (not taken) to know
    /// whose turn it is.
    let proxied: Bool
    init(peer: String, proxied: Bool) { (self.peer, self.proxied) = (peer, proxied) }
  }

  private var door = Doorstep<Int32>()
  private var held: [Int32: Held] = [:]
  /// Closed since the loop last read `wants`: kept alive so no new socket gets their identity.
  private var retired: [Held] = []
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

  /// The silent ones with their identities, for the loop to watch.
  func wants() -> [(fd: Int32, owner: ObjectIdentifier)] {
    retired = []
    return door.silent.compactMap { fd in held[fd].map { (fd, ObjectIdentifier($0)) } }
  }
  var nextDeadline: Double? { door.nextDeadline }
  var anyoneSpoke: Bool { door.anyoneSpoke }

  /// Holds `fd`, accepted from `peer`, at the door (closing those it makes room for).
  func hold(_ fd: Int32, peer: String, now: Double) {
    let address = SourceAddress.counted(peer)
    held[fd] = Held(peer: peer, proxied: fromProxy(peer))
    closeTurnedAway(door.arrived(fd, from: address, now: now), now: now)
  }

  /// `fd` at the door is readable: it spoke (its first bytes stay in the socket for TLS, or for the PROXY header's
  /// reader), or it closed. A trusted proxy's connection is counted from then on under the client its header
  /// names; one whose header has not all come, or names no client, stays under the proxy's address.
  func readable(_ fd: Int32, now: Double) {
    let proxied = held[fd]?.proxied ?? false
    var bytes = [UInt8](repeating: 0, count: proxied ? ProxyHeader.fixedLength + ProxyHeader.maximumLength : 1)
    let peeked = recv(fd, &bytes, bytes.count, Int32(MSG_PEEK | MSG_DONTWAIT))
    if peeked > 0 {
      var client: String?
      if proxied, case .header(let header, _) = ProxyHeader.read(Array(bytes.prefix(peeked))) {
        client = header.source.map(SourceAddress.counted)
      }
      door.spoke(fd, from: client)
    } else if peeked == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      door.remove(fd)
      closeTurnedAway([fd], now: now, counted: false)
    }
  }

  /// The next that spoke, taken off the door to go in: the oldest from the address with the fewest connections
  /// already in (`busy`, by `SourceAddress`). `peer`: where it was accepted from; `counted`: the address its turn
  /// was counted under (a proxy's client's).
  func nextIn(busy: [String: Int] = [:]) -> (fd: Int32, peer: String, counted: String)? {
    guard let (fd, address) = door.nextIn(busy: busy), let entry = held.removeValue(forKey: fd) else { return nil }
    retired.append(entry)
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
    for fd in held.keys { closeDescriptor(fd) }
    retired += held.values
    held = [:]
    door = Doorstep()
  }

  private func closeTurnedAway(_ fds: [Int32], now: Double, counted: Bool = true) {
    for fd in fds {
      closeDescriptor(fd)
      if let entry = held.removeValue(forKey: fd) { retired.append(entry) }
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

import EventLoop
import Glibc
import MatchCoordination
import PlayerFiles
import Transport
import WireProtocol

/// A match's connections on the wire, by the coordinator's numbers: each `PeerConnection` (socket, TLS, codec),
/// those closed since the loop last looked (kept so a socket opened meanwhile on the same descriptor number is
/// not taken for them), and the goodbyes still going out (`ClosingSockets`, which never wait).
package final class MatchSockets {
  private var open: [ConnectionID: PeerConnection] = [:]
  private var retired: [PeerConnection] = []
  private let closing: ClosingSockets
  private let log: Log

  init(clock: @escaping () -> Double, log: Log) {
    closing = ClosingSockets(clock: clock)
    self.log = log
  }

  subscript(id: ConnectionID) -> PeerConnection? { open[id] }

  /// Goodbyes still going out.
  var closingCount: Int { closing.count }
  var nextDeadline: Double? { closing.nextDeadline }

  /// `connection` carries connection `id` from now on; its graceful close goes through the closing sockets.
  func add(_ connection: PeerConnection, as id: ConnectionID) {
    connection.closer = closing
    open[id] = connection
  }

  /// Sends `message` on `id`, if it is open (a failure is logged: the read side will see the end).
  func send(_ message: Message, on id: ConnectionID) {
    guard let connection = open[id] else { return }
    do {
      try connection.send(message)
    } catch {
      log.write("send failed to \(connection.peerAddress): \(error)")
    }
  }

  /// Closes `id` (gracefully: after what was queued goes out).
  func close(_ id: ConnectionID, gracefully: Bool) {
    guard let connection = open.removeValue(forKey: id) else { return }
    connection.close(gracefully: gracefully)
    retired.append(connection)
  }

  /// The open connections in the order they were numbered, for one turn of the loop.
  var inOrder: [(ConnectionID, PeerConnection)] { open.sorted { $0.key.value < $1.key.value } }

  /// Whether `connection` still carries `id` (a handler earlier in the turn may have closed it).
  func carries(_ id: ConnectionID, _ connection: PeerConnection) -> Bool { open[id] === connection }

  /// What the loop must watch: each open connection (writable too when `wantsWrite` says so) and each goodbye
  /// going out. Forgets the retired ones: the loop has now seen them gone.
  func descriptors(wantsWrite: (ConnectionID, PeerConnection) -> Bool) -> [DescriptorSync.Want] {
    defer { retired = [] }
    var wanted = open.map { id, connection in
      DescriptorSync.Want(
        fd: connection.fd, events: Int16(wantsWrite(id, connection) ? POLLIN | POLLOUT : POLLIN),
        owner: ObjectIdentifier(connection))
    }
    wanted += closing.descriptors.map { .init(fd: $0, events: Int16(POLLOUT), owner: ObjectIdentifier(closing)) }
    return wanted
  }

  /// Goodbyes going out that can move on.
  func flushClosing(readable: Set<Int32>, writable: Set<Int32>) {
    for fd in closing.descriptors where readable.contains(fd) || writable.contains(fd) { closing.flush(fd) }
  }

  func expireClosing() { closing.expire() }
}

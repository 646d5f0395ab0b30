import EventLoop
import Glibc
import MatchCoordination
import PlayerFiles
import Transport
import WireProtocol

/// A match's connections on the wire, by the coordinator's numbers: each `PeerConnection` (socket, TLS, codec)
/// registered on the event loop by itself (`WatchedConnection`) once the loop is given (`watch(on:ready:)`), and
/// the goodbyes still going out (`ClosingSockets`, which never wait, watched through `ClosingOnLoop`).
package final class MatchSockets {
  private var open: [ConnectionID: WatchedConnection] = [:]
  private let closing: ClosingSockets
  private let log: Log
  /// The loop the connections are watched on, and who hears what each is ready for (nil: no loop yet).
  private var loop: (loop: EventLoop, ready: (ConnectionID, WatchedConnection, Int16) -> Void)?
  private var closingWatch: ClosingOnLoop?
  /// Whether connection `id`'s non-blocking connect is still under way (it is watched for writing until then).
  var isConnecting: (ConnectionID) -> Bool = { _ in false }

  init(clock: @escaping () -> Double, log: Log) {
    closing = ClosingSockets(clock: clock)
    self.log = log
  }

  subscript(id: ConnectionID) -> PeerConnection? { open[id]?.connection }

  /// Goodbyes still going out.
  var closingCount: Int { closing.count }
  var nextDeadline: Double? { closing.nextDeadline }

  /// `connection` carries connection `id` from now on; its graceful close goes through the closing sockets. It
  /// is watched at once when the loop is given.
  func add(_ connection: PeerConnection, as id: ConnectionID) {
    connection.closer = closing
    let watched = WatchedConnection(connection, connecting: isConnecting(id))
    open[id] = watched
    if let loop { register(watched, as: id, on: loop.loop, ready: loop.ready) }
  }

  /// Watches every connection on `loop` from now on (those already there, and each one added), and the goodbyes
  /// going out; `ready` hears what a connection is ready for.
  func watch(on loop: EventLoop, ready: @escaping (ConnectionID, WatchedConnection, Int16) -> Void) {
    guard self.loop == nil else { return }
    self.loop = (loop, ready)
    for (id, watched) in open { register(watched, as: id, on: loop, ready: ready) }
    closingWatch = ClosingOnLoop(closing, loop: loop)
  }

  /// Whether it is on a loop.
  var isWatched: Bool { loop != nil }

  /// Nothing is watched any more (the loop is going away); the sockets stay open.
  func detach() {
    loop = nil
    for watched in open.values { watched.letGo() }
    closingWatch?.detach()
    closingWatch = nil
  }

  private func register(
    _ watched: WatchedConnection, as id: ConnectionID, on loop: EventLoop,
    ready: @escaping (ConnectionID, WatchedConnection, Int16) -> Void
  ) {
    watched.connecting = isConnecting(id)
    watched.watch(on: loop) { [unowned watched] revents in ready(id, watched, revents) }
  }

  /// Sends `message` on `id`, if it is open (a failure is logged: the read side will see the end).
  func send(_ message: Message, on id: ConnectionID) {
    guard let watched = open[id] else { return }
    do {
      try watched.connection.send(message)
    } catch {
      log.write("send failed to \(watched.connection.peerAddress): \(error)")
    }
    watched.followWrites()
  }

  /// Watches `id` for writing while it has bytes queued or its connect is under way, after the loop made it
  /// ready (it may have read, sent, connected or begun TLS).
  func followWrites(_ id: ConnectionID) {
    guard let watched = open[id] else { return }
    watched.connecting = isConnecting(id)
    watched.followWrites()
  }

  /// Closes `id` (gracefully: after what was queued goes out), given up by the loop first.
  func close(_ id: ConnectionID, gracefully: Bool) {
    open.removeValue(forKey: id)?.close(gracefully: gracefully)
  }

  /// The open connections in the order they were numbered.
  var inOrder: [(ConnectionID, PeerConnection)] {
    open.sorted { $0.key.value < $1.key.value }.map { ($0.key, $0.value.connection) }
  }

  /// Whether `connection` still carries `id` (a handler earlier in the turn may have closed it).
  func carries(_ id: ConnectionID, _ connection: PeerConnection) -> Bool { open[id]?.connection === connection }

  /// Every descriptor the connections and the goodbyes going out hold.
  var descriptors: [Int32] { open.values.map(\.fd) + closing.descriptors }

  func expireClosing() { closing.expire() }
}

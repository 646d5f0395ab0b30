import EventLoop
import Glibc
import Transport

/// A `PeerConnection` on the event loop, for the match's connections and the bot's alike: registered with the
/// loop once (`watch(on:)`), watched for writing only while bytes wait to go out (or its connect is under way), and
/// given up once, before its descriptor is closed or handed over (a graceful close hands it to the closing
/// sockets). What the descriptor is ready for goes straight to the owner's handler, given to `watch(on:ready:)`.
package final class WatchedConnection {
  package let connection: PeerConnection
  private var registration: LoopRegistration?
  /// A non-blocking connect under way: it is done (or failed) when the socket is writable.
  package var connecting: Bool

  package init(_ connection: PeerConnection, connecting: Bool = false) {
    self.connection = connection
    self.connecting = connecting
  }

  /// Registers it with `loop` (once: nothing if it is watched already, or closed); `ready` is called with what
  /// the descriptor is ready for (poll flags). The loop calls `ready` itself: no closure of this object between
  /// (a busy bot's every move went through one).
  package func watch(on loop: EventLoop, ready: @escaping (Int16) -> Void) {
    guard registration == nil, !connection.isClosed else { return }
    registration = LoopRegistration(
      loop: loop, fd: connection.fd, events: WatchedConnection.events(connection, connecting: connecting), ready)
  }

  deinit { registration?.cancel() }

  package var fd: Int32 { connection.fd }

  /// Whether the loop watches it (not once it closed or was let go).
  package var isWatched: Bool { registration?.isActive == true }

  /// Watched for writing while bytes are queued or the connect is under way, else for reading alone; a system
  /// call only when that changes (a move that goes out in one write makes none). Call after anything that may
  /// have queued or sent bytes.
  package func followWrites() {
    registration?.want(WatchedConnection.events(connection, connecting: connecting))
  }

  /// Stops watching, and closes the connection (gracefully: what is queued goes first, then close_notify,
  /// through the connection's closer).
  package func close(gracefully: Bool) {
    letGo()
    connection.close(gracefully: gracefully)
  }

  /// Stops watching and leaves the descriptor open: the loop is going away, or another owner takes it.
  package func letGo() {
    registration?.cancel()
    registration = nil
  }

  private static func events(_ connection: PeerConnection, connecting: Bool) -> Int16 {
    Int16(connection.wantsWrite || connecting ? POLLIN | POLLOUT : POLLIN)
  }
}

/// Connections whose sends go out together. A connection in a batch (`PeerConnection.batch`) queues what it
/// sends instead of writing it at once, and the batch's owner writes all of them in a row before its loop waits
/// (`flush()`), as a server that answers many peers in one turn does.
///
/// Why: on one machine (and on loopback) a write that wakes a peer asleep in its wait costs the writer the
/// wake-up, several microseconds; a peer that is woken already costs little. Writes spread over a turn, with
/// the work of the next answer between them, woke the peer for nearly every one; written in a row, the first
/// wakes it and the rest find it awake.
public final class WriteBatch {
  private var waiting: [PeerConnection] = []

  public init() {}

  /// Connections with sends not yet written.
  public var count: Int { waiting.count }

  func add(_ connection: PeerConnection) { waiting.append(connection) }

  /// Writes what each connection of the batch queued (what its socket takes), and returns those still open,
  /// so the owner can watch for writing the ones whose socket did not take it all (`wantsWrite`).
  public func flush() -> [PeerConnection] {
    guard !waiting.isEmpty else { return [] }
    let connections = waiting
    waiting.removeAll(keepingCapacity: true)
    var open: [PeerConnection] = []
    open.reserveCapacity(connections.count)
    for connection in connections where !connection.isClosed {
      connection.flush()
      open.append(connection)
    }
    return open
  }
}

/// How the bot host keeps connections that are still setting up TLS in check, so a burst of real joiners is
/// served and a flood of silent connections cannot crowd them out.
///
/// Below `cap` pending connections, a new one is accepted. At the cap the host stops accepting for a moment
/// (the next joiners wait in the kernel's listen queue, in order) unless the oldest pending connection has
/// waited longer than `patience`, which a real joiner's handshake never needs (a few round trips): that one is
/// dropped to make room. Interactive hosting (`NetworkMatch`) drops the oldest at once because it serves one
/// game; the bot serves hundreds of joiners arriving together and must not cut off the slow half of a burst.
struct PendingHandshakes: Equatable {
  /// What to do about the next waiting connection.
  enum Decision: Equatable {
    case accept
    /// Close the oldest pending connection, then accept.
    case dropOldestThenAccept
    /// Leave it in the listen queue until a pending connection finishes or grows old.
    case wait
  }

  /// At most this many connections are setting up TLS at once.
  var cap = 256
  /// Seconds after which a pending connection may be dropped to make room.
  var patience = 3.0

  /// The decision with `pending` connections setting up TLS, the oldest of them accepted at `oldest`.
  func decide(pending: Int, oldest: Double?, now: Double) -> Decision {
    guard pending >= cap else { return .accept }
    guard let oldest, now - oldest > patience else { return .wait }
    return .dropOldestThenAccept
  }
}

/// One remembered peer: a name, the fingerprint of its key, and the day it was first accepted.
public struct KnownPeer: Sendable, Hashable {
  /// The peer's name as shown to the player (no escaping).
  public let name: String
  public let fingerprint: Fingerprint
  /// The day the peer was accepted.
  public let added: CalendarDay
  /// The 1-based line of this entry in the rendered file (for messages such as "file:line").
  public let line: Int
}

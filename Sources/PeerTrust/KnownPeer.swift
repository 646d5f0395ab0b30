/// One remembered peer: a name, the fingerprint of its key, and the day it was first accepted.
public struct KnownPeer: Sendable, Hashable {
  /// The peer's name as shown to the player (no escaping).
  public let name: String
  public let fingerprint: Fingerprint
  /// The day the peer was accepted.
  public let added: CalendarDay
  /// The 1-based line of this entry in the rendered file (for messages such as "file:line").
  public let line: Int
  /// Where this key was met as a host, as the player typed it ("alice.example:7177"); empty for a joiner
  /// met while hosting, and for entries written before addresses were kept.
  public var addresses: [String] = []
}

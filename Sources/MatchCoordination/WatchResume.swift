import Session

/// A spectator's way back to its host after a drop (PROTOCOL.md rule 23): which ends of its connection it
/// reconnects after, and how long it goes on trying. The attempts themselves follow the joiner's schedule
/// (`JoinerRoute`: at once, then 0.5, 1, 2, 4 and 8 s apart, then every 10 s). Pure: the coordinator gives the time.
public struct WatchResume: Equatable, Sendable {
  /// When the connection dropped (nil: it is up, or watching is over).
  public private(set) var droppedAt: Double?

  public init() {}

  public var isReconnecting: Bool { droppedAt != nil }

  /// Whether a spectator whose connection ended with `end` while it held `watched` reconnects: only when the
  /// connection was lost or went silent, or failed on the network, in the middle of a game (begun, no result). A
  /// goodbye, an error, a violation, a refusal, the player quitting, a key not trusted, a game with its result
  /// or none begun: watching ends, as before.
  public static func reconnects(after end: MatchEnd, watched: WatchedGame?) -> Bool {
    guard let watched, watched.gameNumber > 0, watched.end == nil else { return false }
    switch end {
    case .session(.connectionLost), .session(.peerVanished): return true
    case .network: return !end.isTrustWarning
    default: return false
    }
  }

  public mutating func dropped(now: Double) { droppedAt = now }

  /// The host is reached again, or watching is over.
  public mutating func stop() { droppedAt = nil }

  /// Whether the spectator gives up at `now`: `patience` seconds (the grace period for which a joiner's game is
  /// kept, and it tries) have passed since the drop.
  public func givesUp(now: Double, patience: Double) -> Bool {
    droppedAt.map { now >= $0 + patience } ?? false
  }
}

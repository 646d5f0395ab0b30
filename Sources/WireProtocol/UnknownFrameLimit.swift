/// How many frames of an unknown type a connection may send: they are skipped by design (docs/PROTOCOL.md: later
/// versions may add messages), but a flood of them only costs the receiver, so more than `burst` within
/// `window` seconds is a protocol violation, as for heartbeats. Pure: the caller gives the time.
public struct UnknownFrameLimit: Sendable, Equatable {
  /// The most unknown frames allowed within `window` seconds (a later version's new messages come a few at a
  /// time, as the known ones do).
  public static let burst = 20
  public static let window = 1.0
  /// When the last unknown frames arrived, oldest first (at most `burst` kept).
  private var recent: [Double] = []

  public init() {}

  /// Counts an unknown frame arriving at `now`: false when it is one too many.
  public mutating func admit(now: Double) -> Bool {
    recent.removeAll { now - $0 >= UnknownFrameLimit.window }
    guard recent.count < UnknownFrameLimit.burst else { return false }
    recent.append(now)
    return true
  }
}

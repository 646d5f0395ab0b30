/// The chats this player types, sent at a pace the peer always shows: at most `limit` within `seconds`. Faster
/// lines wait here, at most `capacity` of them, and go out as the window allows; past that the player is told
/// to slow down. A friendly burst of chat therefore never reaches the peer's limits (`PeerPace`). Pure.
struct ChatOutbox: Sendable {
  let limit: Int
  let seconds: Double
  let capacity: Int
  /// When the chats within the window went out, oldest first.
  private var sentAt: [Double] = []
  /// Typed, not yet sent, oldest first.
  private(set) var held: [String] = []

  init(limit: Int, seconds: Double, capacity: Int) {
    self.limit = limit
    self.seconds = seconds
    self.capacity = capacity
  }

  /// A chat typed at `now`: the chats to send now (it and any held before it that the window allows), or nil
  /// when `capacity` chats are already waiting (the player must slow down).
  mutating func typed(_ text: String, now: Double) -> [String]? {
    guard held.count < capacity else { return nil }
    held.append(text)
    return due(now)
  }

  /// The held chats the window lets go at `now`, oldest first.
  mutating func due(_ now: Double) -> [String] {
    // The same sum as `nextRelease`, so a tick at that deadline always frees the window.
    sentAt.removeAll { $0 + seconds <= now }
    let count = min(held.count, max(0, limit - sentAt.count))
    guard count > 0 else { return [] }
    let going = Array(held.prefix(count))
    held.removeFirst(count)
    sentAt += Array(repeating: now, count: count)
    return going
  }

  /// When the next held chat may go (nil when none waits).
  var nextRelease: Double? {
    // Chats wait only while the window is full; its oldest send leaves it first.
    guard !held.isEmpty, let oldest = sentAt.first else { return nil }
    return oldest + seconds
  }

  /// Every held chat, at once: the player is leaving, and a goodbye waits for nothing.
  mutating func flush() -> [String] {
    defer { held = [] }
    return held
  }
}

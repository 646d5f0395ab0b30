/// Events counted within a sliding window of time: more than `limit` within `seconds` is a flood. Pure.
struct RateWindow: Sendable {
  /// At most this many events within the window.
  let limit: Int
  let seconds: Double
  /// When the events within the window happened, oldest first.
  private var times: [Double] = []

  init(limit: Int, seconds: Double) {
    self.limit = limit
    self.seconds = seconds
  }

  /// Counts an event at `now`: whether the window still holds at most `limit`.
  mutating func allows(_ now: Double) -> Bool {
    times = times.filter { now - $0 < seconds } + [now]
    return times.count <= limit
  }

  /// Counts an event at `now` only when the window has room for it: whether it had. What is refused does not
  /// fill the window, so a steady stream over the limit still gets `limit` events through each window.
  mutating func admits(_ now: Double) -> Bool {
    times = times.filter { now - $0 < seconds }
    guard times.count < limit else { return false }
    times.append(now)
    return true
  }
}

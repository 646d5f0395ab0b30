import Transport

/// The joiner's way to its host: the addresses left to try for the first connection, where the host was
/// reached, and the schedule of reconnections while a dropped game is kept. Pure: the coordinator asks it what
/// to try next and tells it how each attempt went.
struct JoinerRoute {
  /// Seconds before reconnection attempt `attempt + 1` after `attempt` failed: 0.5, 1, 2, 4, 8, then every 10.
  static func delay(afterFailedAttempt attempt: Int) -> Double {
    min(10, 0.5 * Double(1 << min(max(attempt, 1) - 1, 8)))
  }

  /// The host as typed (the invite's endpoint the current attempt came from).
  private(set) var endpoint: Endpoint?
  /// The numeric address the first connection reached: where reconnections go when the host was typed as an
  /// address.
  private(set) var hostAddress: Endpoint?
  /// Addresses the host's names resolved to that the first connection has not tried yet.
  private var untried: [(Endpoint, Sockets.Address)] = []
  /// When the next reconnection is due, and how many were made since the game was last reached.
  private(set) var reconnectAt: Double?
  private(set) var attempts = 0

  var hasUntried: Bool { !untried.isEmpty }

  /// The addresses to try, in order.
  mutating func start(_ candidates: [(Endpoint, Sockets.Address)]) {
    endpoint = candidates.first?.0
    untried = candidates
  }

  /// The next address for the first connection, if any is left.
  mutating func nextAddress() -> (Endpoint, Sockets.Address)? {
    guard !untried.isEmpty else { return nil }
    let next = untried.removeFirst()
    endpoint = next.0
    return next
  }

  /// The first connection reached the host at `address` (its numeric form).
  mutating func reached(_ address: Endpoint?) {
    if hostAddress == nil { hostAddress = address }
  }

  /// The host's name was looked up again: it is wherever that says now.
  mutating func forgetHostAddress() { hostAddress = nil }

  /// The game's connection dropped: reconnect at once.
  mutating func dropped(now: Double) {
    attempts = 0
    reconnectAt = now
  }

  /// A reconnection is starting now (attempt `attempts` after this).
  mutating func attemptStarts() {
    reconnectAt = nil
    attempts += 1
  }

  /// The attempt failed: the next one is due after the back-off. Returns the delay.
  mutating func attemptFailed(now: Double) -> Double {
    let delay = JoinerRoute.delay(afterFailedAttempt: attempts)
    reconnectAt = now + delay
    return delay
  }

  /// The host is reached again: the count starts over.
  mutating func reconnected() { attempts = 0 }

  /// No more reconnections (the match is over, or whoever answers cannot be trusted).
  mutating func stop() { reconnectAt = nil }
}

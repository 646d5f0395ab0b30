import NetworkFacts

/// The joiner's way to its host: the addresses left to try for the first connection, where the host was
/// reached, and the schedule of reconnections while a dropped game is kept. Pure: the coordinator asks it what
/// to try next and tells it how each attempt went; it opens the connections it tries in the match's table.
public struct JoinerRoute {
  /// Seconds before reconnection attempt `attempt + 1` after `attempt` failed: 0.5, 1, 2, 4, 8, then every 10.
  public static func delay(afterFailedAttempt attempt: Int) -> Double {
    min(10, 0.5 * Double(1 << min(max(attempt, 1) - 1, 8)))
  }

  /// The host as typed (the invite's endpoint the current attempt came from).
  public private(set) var endpoint: Endpoint?
  /// The numeric address the first connection reached: where reconnections go when the host was typed as an
  /// address.
  public private(set) var hostAddress: Endpoint?
  /// Addresses the host's names resolved to that the first connection has not tried yet.
  private var untried: [(Endpoint, ResolvedAddress)] = []
  /// When the next reconnection is due, and how many were made since the game was last reached.
  public private(set) var reconnectAt: Double?
  public private(set) var attempts = 0

  public var hasUntried: Bool { !untried.isEmpty }
  /// The relay the game is played through (reconnections go back to it), or nil.
  public var viaRelay: RelayRoute?

  /// The host was reached another way: no other address is tried.
  public mutating func abandonUntried() { untried = [] }

  /// The addresses to try, in order.
  public mutating func start(_ candidates: [(Endpoint, ResolvedAddress)]) {
    endpoint = candidates.first?.0
    untried = candidates
  }

  /// The next address for the first connection, if any is left.
  public mutating func nextAddress() -> (Endpoint, ResolvedAddress)? {
    guard !untried.isEmpty else { return nil }
    let next = untried.removeFirst()
    endpoint = next.0
    return next
  }

  /// The host is reached and trusted at `address` (its numeric form): reconnections go there.
  public mutating func reached(_ address: Endpoint?) {
    if hostAddress == nil { hostAddress = address }
  }

  /// The game's connection dropped: reconnect at once.
  public mutating func dropped(now: Double) {
    attempts = 0
    reconnectAt = now
  }

  /// A host name to look up again before the reconnection now due (off the loop); then `resolved`.
  public private(set) var nameToResolve: Endpoint?

  /// The reconnection now due. A host typed as an address is reached where the first connection reached it;
  /// one typed as a name is looked up again first (`nameToResolve`).
  public mutating func reconnect(in connections: inout MatchConnections, deadline: Double) -> [MatchCommand] {
    reconnectAt = nil
    attempts += 1
    guard let endpoint else { return [] }
    let said: [MatchCommand] = [
      .log("reconnecting to \(endpoint), attempt \(attempts)"),
      .report(.reconnecting("Reconnecting to \(endpoint) (attempt \(attempts))\u{2026}")),
    ]
    if let relay = viaRelay {
      let id = connections.open(relay.relay.description, .connecting, deadline: deadline)
      connections[id]?.isReconnect = true
      connections[id]?.relay = relay.relay
      return said + [.connectRelay(id, relay, patience: JoinerRelay.patience)]
    }
    if !IPAddressText.isNumeric(endpoint.host) {
      nameToResolve = endpoint
      return said
    }
    let id = connections.open(endpoint.description, .connecting, deadline: deadline)
    connections[id]?.isReconnect = true
    return said + [.reconnect(id, to: hostAddress ?? endpoint, for: endpoint)]
  }

  /// The name is looked up, and no longer wanted.
  public mutating func nameLookedUp() { nameToResolve = nil }

  /// The host's name looked up again: connect to the first of its addresses (wherever it is now).
  public mutating func resolved(
    _ addresses: Result<[ResolvedAddress], NetworkError>, in connections: inout MatchConnections, deadline: Double,
    now: Double
  ) -> [MatchCommand] {
    guard let endpoint = nameToResolve else { return [] }
    nameToResolve = nil
    switch addresses {
    case .failure(let error):
      return attemptFailed("\(error)", now: now)
    case .success(let found):
      guard let first = found.first else { return attemptFailed("\(endpoint.host) has no address", now: now) }
      hostAddress = nil
      let id = connections.open(endpoint.description, .connecting, deadline: deadline)
      connections[id]?.isReconnect = true
      return [.connect(id, first, for: endpoint)]
    }
  }

  /// The attempt failed for `reason`: the next one is due after the back-off, and the player is told when.
  public mutating func attemptFailed(_ reason: String, now: Double) -> [MatchCommand] {
    let delay = JoinerRoute.delay(afterFailedAttempt: attempts)
    reconnectAt = now + delay
    let wait = delay < 1 ? "\(delay)" : "\(Int(delay))"  // "0.5", "2"
    let sentence = reason.hasSuffix(".") ? reason : reason + "."
    return [
      .log("reconnection attempt \(attempts) failed: \(reason)"),
      .report(.reconnecting("Reconnection attempt \(attempts) failed: \(sentence) Next try in \(wait) s.")),
    ]
  }

  /// The host is reached again: the count starts over.
  public mutating func reconnected() { attempts = 0 }

  /// No more reconnections (the match is over, or whoever answers cannot be trusted).
  public mutating func stop() { reconnectAt = nil }
}

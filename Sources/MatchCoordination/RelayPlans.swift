import NetworkFacts
import TransitRelay

/// Where a connection through a transit relay goes: the relay as named (in every failure), the numeric address it
/// was found at, and the token that pairs the host with its joiners there (docs/INTERNET.md, "A relay").
public struct RelayRoute: Sendable, CustomStringConvertible {
  public let relay: Endpoint
  public let address: ResolvedAddress
  public let token: RelayToken

  public init(relay: Endpoint, address: ResolvedAddress, token: RelayToken) {
    self.relay = relay
    self.address = address
    self.token = token
  }

  public var description: String { relay.description }
}

/// The host's place at the relay: one connection always waiting there with the same token, made again at once
/// after a joiner came through it and, after a dropped or refused wait, after a back-off (1, 2, 4, ... 60 s),
/// so an invite already sent stays good while the host runs, until its player asks for a new invite (a new
/// token). Pure: the coordinator opens the connections.
public struct HostRelayWait {
  public private(set) var route: RelayRoute
  /// The connection waiting (or connecting) at the relay now.
  public var waiting: ConnectionID?
  /// When the next wait is due after a failure (nil: none is due).
  public private(set) var retryAt: Double?
  /// Failed waits in a row (none since a joiner came through).
  public private(set) var failures = 0

  public init(route: RelayRoute) { self.route = route }

  /// Seconds before the next wait after `failures` failed in a row: 1, 2, 4, 8, 16, 32, then every 60.
  public static func delay(afterFailures failures: Int) -> Double {
    min(60, Double(1 << min(max(failures, 1) - 1, 6)))
  }

  /// A wait is made now.
  public mutating func waits(on id: ConnectionID) {
    waiting = id
    retryAt = nil
  }

  /// A joiner came through the wait: it starts over with no back-off.
  public mutating func glued() {
    waiting = nil
    failures = 0
  }

  /// A new invite: from now on the wait is made with `token`, at once and with no back-off; returns the
  /// connection that waited (or was connecting) with the old token, to close, so nobody is glued to it.
  public mutating func renew(token: RelayToken) -> ConnectionID? {
    let old = waiting
    route = RelayRoute(relay: route.relay, address: route.address, token: token)
    waiting = nil
    retryAt = nil
    failures = 0
    return old
  }

  /// The wait failed at `now`: the next one after the back-off; how long that is.
  public mutating func failed(now: Double) -> Double {
    waiting = nil
    failures += 1
    let delay = HostRelayWait.delay(afterFailures: failures)
    retryAt = now + delay
    return delay
  }
}

/// The joiner's way through the relay its invite names, beside the direct addresses: started `delay` seconds
/// after the first direct attempt, or as soon as every direct address failed; given up when the host's hello
/// came on a direct connection first. Two joiners glued to each other (both TLS clients) try again a few times.
/// Pure.
public struct JoinerRelay {
  /// Seconds after the join starts that the relay is tried alongside the direct addresses (docs/INTERNET.md).
  public static let delay = 2.0
  /// Seconds a joiner waits at the relay for the host's connection to be glued to it.
  public static let patience = 15.0
  /// Times a joiner glued to another joiner goes back to the relay before it gives up.
  public static let pairedRetries = 3

  /// The relay (nil when its name could not be looked up: then `failure` says why).
  public let route: RelayRoute?
  /// When the relay attempt starts (nil: started, or not to be started).
  public private(set) var startAt: Double?
  /// The connection through the relay now.
  public var connection: ConnectionID?
  /// How the last attempt through the relay failed (nil: none failed).
  public var failure: MatchEnd?
  /// How the last direct address failed, once every one had.
  public var directFailure: MatchEnd?
  /// Times this joiner was glued to another joiner.
  public private(set) var paired = 0
  /// The game is played through the relay: reconnections go back to it, and no address is bound to the key.
  public private(set) var won = false

  public init(route: RelayRoute?, failure: NetworkError?, now: Double, direct: Bool) {
    self.route = route
    self.failure = failure.map { .network($0) }
    startAt = route == nil ? nil : now + (direct ? JoinerRelay.delay : 0)
  }

  /// Whether the relay may still be tried (not failed for good, not given up).
  public var isLive: Bool { route != nil && (connection != nil || startAt != nil) }

  /// Start the relay attempt now (if it was still to come).
  public mutating func startNow(_ now: Double) {
    if connection == nil, let at = startAt, at > now { startAt = now }
  }

  /// The attempt starts on `id`.
  public mutating func started(on id: ConnectionID) {
    connection = id
    startAt = nil
  }

  /// A direct connection won: the relay is not tried.
  public mutating func giveUp() {
    startAt = nil
    connection = nil
  }

  /// The connection through the relay won.
  public mutating func wins() { won = true }

  /// The attempt failed with `end`; true when it was glued to another joiner and goes back to the relay at
  /// `retryAt`.
  public mutating func failed(_ end: MatchEnd, gluedToJoiner: Bool, now: Double) -> Bool {
    connection = nil
    guard gluedToJoiner, let route else {
      failure = end
      return false
    }
    guard paired < JoinerRelay.pairedRetries else {
      failure = .network(.relay(route.relay, .pairedWithJoiner))
      return false
    }
    paired += 1
    // A short wait that grows with each try, so the two joiners are less likely to come back together again.
    startAt = now + 0.5 * Double(paired)
    return true
  }
}

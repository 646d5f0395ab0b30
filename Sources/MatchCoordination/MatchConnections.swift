import Session

/// The connections of a match, in the order they came, and which of them plays the game. Numbers are never
/// reused, so a command about a connection that closed meanwhile cannot reach another.
public struct MatchConnections {
  private var table: [ConnectionID: MatchConnection] = [:]
  private var order: [ConnectionID] = []
  private var lastID = 0
  /// The connections closed, and the game's connection, since the last `sweep`: all it may have to forget
  /// (it runs after every event).
  private var closedSinceSweep: [ConnectionID] = []
  private var activeAtSweep: ConnectionID?
  /// The connection whose game this is (host: the joiner it let in or is asking about). While a dropped game
  /// is kept, its connection is closed but stays the active one.
  public var active: ConnectionID?
  /// Host: what each source address may do (connections at once and per second, new keys, a deny list); nil:
  /// no limits (a joiner's match).
  public var limits: SourceLimits?

  public subscript(id: ConnectionID) -> MatchConnection? {
    get { table[id] }
    set { table[id] = newValue }
  }

  /// The known connections, the oldest first.
  public var ids: [ConnectionID] { order }

  mutating func open(_ peer: String, _ phase: MatchConnection.Phase, deadline: Double) -> ConnectionID {
    lastID += 1
    let id = ConnectionID(value: lastID)
    table[id] = MatchConnection(peer: peer, phase: phase, deadline: deadline)
    order.append(id)
    return id
  }

  /// Closes `id` (once): the command that does it, or none when it is closed already.
  public mutating func close(_ id: ConnectionID, graceful: Bool) -> [MatchCommand] {
    guard let connection = table[id], !connection.isClosed else { return [] }
    table[id]?.phase = .closed
    closedSinceSweep.append(id)
    if connection.counted { limits?.disconnected(connection.peer) }
    return [.close(id, graceful: graceful)]
  }

  /// Forgets closed connections other than the game's.
  public mutating func sweep() {
    var candidates = closedSinceSweep
    if let previous = activeAtSweep, previous != active { candidates.append(previous) }
    (closedSinceSweep, activeAtSweep) = ([], active)
    var forgotten: Set<ConnectionID> = []
    for id in candidates where id != active && table[id]?.isClosed == true {
      table[id] = nil
      forgotten.insert(id)
    }
    if !forgotten.isEmpty { order.removeAll { forgotten.contains($0) } }
  }

  public var activeConnection: MatchConnection? { active.flatMap { table[$0] } }

  /// The game whose connection dropped, kept for the grace period (its connection is closed).
  public var waitingGame: ConnectionID? {
    guard let active, let connection = table[active], connection.isClosed, case .lost = connection.session?.link
    else { return nil }
    return active
  }

  /// The pending connection that makes room for a new one when `limit` are pending, among those whose moment
  /// to finish TLS is over at `now` by `policy` (when none is, among all): the oldest that has sent nothing,
  /// else the oldest that finished TLS a `quietPatience` ago and has said nothing since (a real joiner says
  /// hello, or that its player is deciding, within a round trip of TLS; a flood that finishes TLS and falls
  /// silent is passed before a real joiner whose handshake is slow on a busy host), else the oldest still
  /// setting up TLS, else the oldest not yet greeted whose joiner does not say its player is deciding, else the
  /// oldest of those; never the kept game's key or a joiner the player is asked about.
  public func toDrop(atLimit limit: Int, policy: PendingHandshakes = .host, now: Double = -.infinity) -> (
    pending: Int, oldest: ConnectionID
  )? {
    // One pass, oldest first (under a flood this runs for every connection accepted at the cap).
    var all = DropChoice()
    var waited = DropChoice()
    var count = 0
    for id in order {
      guard let connection = table[id], connection.isPending else { continue }
      count += 1
      all.see(id, connection, policy: policy, now: now)
      if policy.makesRoom(accepted: connection.acceptedAt, quiet: connection.quiet) <= now {
        waited.see(id, connection, policy: policy, now: now)
      }
    }
    guard count >= limit, let oldest = (waited.sawAny ? waited : all).choice else { return nil }
    return (count, oldest)
  }

  /// How many connections are pending from each address (`SourceAddress.counted`).
  public var pendingByAddress: [String: Int] {
    var counts: [String: Int] = [:]
    for connection in table.values where connection.isPending {
      counts[SourceAddress.counted(connection.peer), default: 0] += 1
    }
    return counts
  }

  /// How many connections are pending, and the earliest time one of them may make room by `policy`.
  public func pendingSince(_ policy: PendingHandshakes) -> (count: Int, makesRoom: Double?) {
    var count = 0
    var makesRoom: Double?
    for connection in table.values where connection.isPending {
      count += 1
      guard connection.phase == .handshaking || connection.phase == .greeting else { continue }
      let at = policy.makesRoom(accepted: connection.acceptedAt, quiet: connection.quiet)
      makesRoom = min(makesRoom ?? at, at)
    }
    return (count, makesRoom)
  }

  /// The earliest deadline of any open connection or the kept game's session.
  public var nextDeadline: Double? {
    var deadlines: [Double?] = [waitingGame.flatMap { table[$0]?.session?.nextDeadline }]
    for connection in table.values {
      switch connection.phase {
      case .connecting, .atRelay, .handshaking, .awaitingResume: deadlines.append(connection.deadline)
      case .greeting: deadlines += [connection.deadline, connection.session?.nextDeadline]
      case .asking, .playing: deadlines.append(connection.session?.nextDeadline)
      case .watching, .closed: break
      }
    }
    return deadlines.compactMap { $0 }.min()
  }
}

/// The pending connections `MatchConnections.toDrop` chooses among, the first of each kind in the order seen.
private struct DropChoice {
  public var sawAny = false
  public var sentNothing: ConnectionID?
  public var silentSinceTLS: ConnectionID?
  public var inTLS: ConnectionID?
  public var greetedNotDeciding: ConnectionID?
  public var greeted: ConnectionID?

  public mutating func see(_ id: ConnectionID, _ connection: MatchConnection, policy: PendingHandshakes, now: Double) {
    sawAny = true
    switch connection.phase {
    case .handshaking:
      if connection.quiet, sentNothing == nil { sentNothing = id }
      if inTLS == nil { inTLS = id }
    case .greeting:
      if greeted == nil { greeted = id }
      guard connection.decidingAt == nil else { return }
      if greetedNotDeciding == nil { greetedNotDeciding = id }
      if silentSinceTLS == nil, let secured = connection.securedAt, secured + policy.quietPatience <= now {
        silentSinceTLS = id
      }
    default: break
    }
  }

  public var choice: ConnectionID? { sentNothing ?? silentSinceTLS ?? inTLS ?? greetedNotDeciding ?? greeted }
}

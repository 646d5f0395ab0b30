import Session

/// The connections of a match, in the order they came, and which of them plays the game. Numbers are never
/// reused, so a command about a connection that closed meanwhile cannot reach another.
struct MatchConnections {
  private var table: [ConnectionID: MatchConnection] = [:]
  private var order: [ConnectionID] = []
  private var lastID = 0
  /// The connection whose game this is (host: the joiner it let in or is asking about). While a dropped game
  /// is kept, its connection is closed but stays the active one.
  var active: ConnectionID?
  /// Host: what each source address may do (connections at once and per second, new keys, a deny list); nil:
  /// no limits (a joiner's match).
  var limits: SourceLimits?

  subscript(id: ConnectionID) -> MatchConnection? {
    get { table[id] }
    set { table[id] = newValue }
  }

  /// The known connections, the oldest first.
  var ids: [ConnectionID] { order }

  mutating func open(_ peer: String, _ phase: MatchConnection.Phase, deadline: Double) -> ConnectionID {
    lastID += 1
    let id = ConnectionID(value: lastID)
    table[id] = MatchConnection(peer: peer, phase: phase, deadline: deadline)
    order.append(id)
    return id
  }

  /// Closes `id` (once): the command that does it, or none when it is closed already.
  mutating func close(_ id: ConnectionID, graceful: Bool) -> [MatchCommand] {
    guard let connection = table[id], !connection.isClosed else { return [] }
    table[id]?.phase = .closed
    if connection.counted { limits?.disconnected(connection.peer) }
    return [.close(id, graceful: graceful)]
  }

  /// Forgets closed connections other than the game's.
  mutating func sweep() {
    for id in order where table[id]?.isClosed == true && id != active { table[id] = nil }
    order.removeAll { table[$0] == nil }
  }

  var activeConnection: MatchConnection? { active.flatMap { table[$0] } }

  /// The game whose connection dropped, kept for the grace period (its connection is closed).
  var waitingGame: ConnectionID? {
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
  func toDrop(atLimit limit: Int, policy: PendingHandshakes = .host, now: Double = -.infinity) -> (
    pending: Int, oldest: ConnectionID
  )? {
    let pending = order.filter { table[$0]?.isPending == true }
    guard pending.count >= limit else { return nil }
    let waited = pending.filter { id in
      table[id].map { policy.makesRoom(accepted: $0.acceptedAt, quiet: $0.quiet) <= now } ?? false
    }
    let candidates = waited.isEmpty ? pending : waited
    let greeting = candidates.filter { table[$0]?.phase == .greeting }
    let silentSinceTLS = greeting.first { id in
      guard let connection = table[id], connection.decidingAt == nil, let secured = connection.securedAt else {
        return false
      }
      return secured + policy.quietPatience <= now
    }
    guard
      let oldest = candidates.first(where: { table[$0]?.phase == .handshaking && table[$0]?.quiet == true })
        ?? silentSinceTLS
        ?? candidates.first(where: { table[$0]?.phase == .handshaking })
        ?? greeting.first(where: { table[$0]?.decidingAt == nil }) ?? greeting.first
    else { return nil }
    return (pending.count, oldest)
  }

  /// How many connections are pending, and the earliest time one of them may make room by `policy`.
  func pendingSince(_ policy: PendingHandshakes) -> (count: Int, makesRoom: Double?) {
    let pending = order.compactMap { table[$0] }.filter(\.isPending)
    let droppable = pending.filter { [.handshaking, .greeting].contains($0.phase) }
    return (pending.count, droppable.map { policy.makesRoom(accepted: $0.acceptedAt, quiet: $0.quiet) }.min())
  }

  /// The earliest deadline of any open connection or the kept game's session.
  var nextDeadline: Double? {
    var deadlines: [Double?] = [waitingGame.flatMap { table[$0]?.session?.nextDeadline }]
    for connection in table.values {
      switch connection.phase {
      case .connecting, .atRelay, .handshaking, .awaitingResume: deadlines.append(connection.deadline)
      case .greeting: deadlines += [connection.deadline, connection.session?.nextDeadline]
      case .asking, .playing: deadlines.append(connection.session?.nextDeadline)
      case .closed: break
      }
    }
    return deadlines.compactMap { $0 }.min()
  }
}

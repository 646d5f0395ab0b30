import TransitRelay

/// The host's wait at a transit relay (`relay = HOST:PORT`, `host --relay`): one connection out to the relay,
/// waiting with the invite's token; when a joiner comes with the same token the relay glues the two, the
/// connection becomes a joiner's like an accepted one (the host is its TLS server), and a new wait is made at
/// once with the same token.
extension HostCoordinator {
  /// Makes the wait at the relay now (the first, or the next).
  public mutating func waitAtRelay(now: Double) -> [MatchCommand] {
    guard var wait = relayWait, wait.waiting == nil, core.finished == nil else { return [] }
    let id = core.connections.open(
      wait.route.address.description, .connecting, deadline: now + MatchCore.handshakeTimeout)
    core.connections[id]?.relay = wait.route.relay
    wait.waits(on: id)
    relayWait = wait
    return [.log("waiting at the relay \(wait.route)"), .connectRelay(id, wait.route, patience: nil)]
  }

  /// The connection `id` reached the relay and said the token: it waits there (no deadline: the relay and TCP
  /// keepalive decide how long).
  public mutating func reachedRelay(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard core.connections[id]?.phase == .connecting else { return [] }
    core.connections[id]?.phase = .atRelay
    core.connections[id]?.relayWaitSince = now
    core.connections[id]?.deadline = nil
    return []
  }

  /// The relay glued the wait on `id` to a joiner: TLS starts on it as on an accepted connection, and the host
  /// waits at the relay again.
  public mutating func glued(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard var wait = relayWait, wait.waiting == id, let connection = core.connections[id],
      connection.phase == .atRelay
    else { return [] }
    wait.glued()
    relayWait = wait
    var commands = makeRoom(now: now)
    core.connections[id]?.phase = .handshaking
    core.connections[id]?.deadline = now + MatchCore.handshakeTimeout
    commands.append(.log("a joiner came through the relay \(wait.route)"))
    commands += arrived(id, peer: connection.peer, now: now)
    return commands + waitAtRelay(now: now)
  }

  /// The wait at the relay failed before anyone came (refused, unreachable, closed by the relay): the player
  /// is told the first time in a row, and the host waits there again after the back-off.
  public mutating func relayWaitFailed(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    guard var wait = relayWait else { return [] }
    let closed = core.connections.close(id, graceful: false)
    core.connections.sweep()
    let delay = wait.failed(now: now)
    relayWait = wait
    let again = "Waiting there again in \(Int(delay)) s; joiners can still come to the direct addresses."
    let told: [MatchCommand] = wait.failures == 1 ? [.report(.status("\(end.sentence) \(again)"))] : []
    return closed + [.log("relay wait failed (\(wait.failures) in a row): \(end); again in \(Int(delay)) s")] + told
  }

  /// Whether the player may ask for a new invite now: the host waits at a relay, and no joiner is in a match
  /// or being asked about (a joiner whose game went through the relay comes back after a drop with the token
  /// it has: a new one then would strand it).
  public var mayRenewRelayToken: Bool {
    relayWait != nil && core.finished == nil && core.connections.active == nil
  }

  /// The player asked for a new invite: the wait with the old token is closed at once (a joiner who comes with
  /// it finds nobody at the relay) and a new wait is made with `token`. Nothing when it may not be done now.
  public mutating func renewRelayToken(_ token: RelayToken, now: Double) -> [MatchCommand] {
    guard mayRenewRelayToken, var wait = relayWait else { return [] }
    let old = wait.renew(token: token)
    relayWait = wait
    let closed = old.map { core.connections.close($0, graceful: false) } ?? []
    core.connections.sweep()
    return closed + [.log("a new invite: the old relay token is no longer waited on")] + waitAtRelay(now: now)
  }
}

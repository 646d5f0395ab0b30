import PeerTrust
import Session
import UntrustedText

/// A spectator whose connection drops in the middle of a game reconnects to the same host on the joiner's
/// schedule, takes up watching only from the key it judged before, and is sent a fresh snapshot that replaces
/// what it held; it gives up after the grace period a joiner's game is kept for (PROTOCOL.md rule 23).
extension JoinerCoordinator {
  /// The connection `id` to the host ended with `end`: when `WatchResume` says so, reconnecting begins (the player
  /// told); nil when watching ends instead.
  mutating func watcherDropped(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand]? {
    guard isWatching, id == core.active, core.finished == nil, !watchResume.isReconnecting,
      WatchResume.reconnects(after: end, watched: watched)
    else { return nil }
    watchResume.dropped(now: now)
    route.dropped(now: now)
    let seconds = Int(core.configuration.gracePeriod)
    return [
      .log("connection to the host lost (\(end)): reconnecting for up to \(seconds) s"),
      .report(.reconnecting("The connection to the host was lost: reconnecting\u{2026}")),
    ]
  }

  /// While reconnecting, at `now`: the attempt due, or giving up once the grace period has passed; nil when not
  /// reconnecting.
  mutating func watcherDue(now: Double) -> [MatchCommand]? {
    guard watchResume.isReconnecting, core.finished == nil else { return nil }
    let patience = core.configuration.gracePeriod
    if watchResume.givesUp(now: now, patience: patience) {
      let why = "the connection to the host was lost, and the host could not be reached again within \(Int(patience)) s"
      return stopWatching(.session(.connectionLost), why: why)
    }
    guard let at = route.reconnectAt, now >= at else { return [] }
    return route.reconnect(in: &core.connections, deadline: now + MatchCore.handshakeTimeout)
  }

  /// A reconnection attempt failed with `end`: the next after the back-off, unless the host's key is not trusted
  /// (that will not pass by retrying).
  mutating func watcherAttemptFailed(_ end: MatchEnd, now: Double) -> [MatchCommand] {
    guard !end.isTrustWarning else { return stopWatching(end, why: "\(end)") }
    return route.attemptFailed("\(end)", now: now)
  }

  /// A new connection to the host is secured: with the key watched before, the spectator says hello again and
  /// the host's snapshot replaces what it held; another key is KEY CHANGED, and watching ends.
  mutating func watcherResecured(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard let presented = core.connections[id]?.facts?.certificate?.fingerprint else {
      return core.connections.close(id, graceful: false) + route.attemptFailed("the host showed no key", now: now)
    }
    if let before = gamePeerKey, before != presented {
      let end = MatchEnd.keyChangedOnReconnect(before: before, now: presented)
      return core.connections.close(id, graceful: false) + stopWatching(end, why: "\(end)")
    }
    let attempts = route.attempts
    route.reconnected()
    watchResume.stop()
    if core.connections[id]?.relay == nil { route.reached(core.connections[id]?.remote) }
    core.connections[id]?.isReconnect = false
    let session = core.newSession(now: now)
    core.connections[id]?.session = session
    core.connections[id]?.phase = .playing
    core.connections[id]?.deadline = nil
    core.active = id
    return [
      .log("reconnected to \(core.peer(id)) after \(attempts) attempt(s): watching again"),
      .report(.reconnecting("Reconnected to the host: watching again.")),
    ] + act(on: id, now: now) { $0.start(now: now) }
  }

  /// Watching ends with `end`: no more attempts, every connection closed, the game shown unfinished with `why`.
  private mutating func stopWatching(_ end: MatchEnd, why: String) -> [MatchCommand] {
    watchResume.stop()
    route.stop()
    core.finished = end
    let closed = core.connections.ids.flatMap { core.connections.close($0, graceful: false) }
    return closed + [.log("stopped watching: \(why)")] + unfinished(why: PeerText(why)) + [.report(.finished(end))]
  }
}

/// The joiner's way through the transit relay its invite names: the relay is tried beside the direct addresses
/// (`JoinerRelay` says when), and the first connection on which the host's hello arrives is the one played on;
/// the other is closed. A joiner glued to another joiner (TLS finds two clients) goes back to the relay.
extension JoinerCoordinator {
  /// Every direct address failed (`failure`, the last): the relay is what is left, if there is one.
  public mutating func directExhausted(_ failure: MatchEnd, now: Double) -> [MatchCommand] {
    guard var plan = relay, plan.route != nil, plan.isLive else {
      // No relay, or it failed already: the join ends with the relay's failure, the last way tried, unless a
      // direct address answered with a key that is not the invite's (that warning must not be hidden).
      guard let relayFailure = relay?.failure, !failure.isTrustWarning else { return joinFailed(failure) }
      return [.report(.status(failure.sentence))] + joinFailed(relayFailure)
    }
    plan.directFailure = failure
    let told: [MatchCommand] = [.report(.status("\(failure.sentence) Waiting for the relay\u{2026}"))]
    if let id = plan.connection {
      core.active = id
      return told
    }
    plan.startNow(now)
    relay = plan
    return told + startRelay(now: now)
  }

  /// Starts the attempt through the relay now.
  public mutating func startRelay(now: Double) -> [MatchCommand] {
    guard var plan = relay, let route = plan.route, plan.connection == nil, core.finished == nil else { return [] }
    let id = core.connections.open(route.relay.description, .connecting, deadline: now + MatchCore.handshakeTimeout)
    core.connections[id]?.relay = route.relay
    plan.started(on: id)
    relay = plan
    if core.active.flatMap({ core.connections[$0] })?.isClosed != false { core.active = id }
    return [
      .log("trying the relay \(route) with the invite's token"),
      .report(.status("Trying the relay \(route)\u{2026}")),
      .connectRelay(id, route, patience: JoinerRelay.patience),
    ]
  }

  /// The connection `id` reached the relay and said the token: the host's wait must be glued to it within
  /// `JoinerRelay.patience`.
  public mutating func reachedRelay(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard core.connections[id]?.phase == .connecting else { return [] }
    core.connections[id]?.phase = .atRelay
    core.connections[id]?.relayWaitSince = now
    core.connections[id]?.deadline = now + JoinerRelay.patience
    return []
  }

  /// The relay glued `id` to the other end with the token: TLS starts (this side the client).
  public mutating func glued(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard core.connections[id]?.phase == .atRelay else { return [] }
    core.connections[id]?.phase = .handshaking
    core.connections[id]?.deadline = now + MatchCore.handshakeTimeout
    return [.log("the relay \(core.peer(id)) paired us: setting up TLS with the host through it")]
  }

  /// The host's hello came first on `id`: it is played on, every other connection to the host closes.
  public mutating func chosen(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    core.connections[id]?.held = false
    decided = true
    var commands: [MatchCommand] = []
    for other in core.connections.ids where other != id { commands += core.connections.close(other, graceful: false) }
    route.abandonUntried()
    let throughRelay = core.connections[id]?.relay != nil
    if throughRelay {
      relay?.wins()
      route.viaRelay = relay?.route
    } else {
      relay?.giveUp()
    }
    core.active = id
    commands.append(
      .log("the host's hello came first \(throughRelay ? "through the relay" : "directly"): playing there"))
    return commands + welcomed(id, now: now)
  }

  /// The attempt through the relay failed before a winner was chosen. Glued to another joiner: back to the
  /// relay. Otherwise the direct addresses may still reach the host; when none is left, the join fails with the
  /// relay's failure.
  public mutating func relayFailed(_ id: ConnectionID, _ end: MatchEnd, now: Double) -> [MatchCommand] {
    guard var plan = relay, let connection = core.connections[id] else { return [] }
    var gluedToJoiner = false
    if connection.phase == .handshaking, case .network(.tls(.handshakeFailed)) = end { gluedToJoiner = true }
    let closed =
      core.log("\(connection.peer): \(end)", about: id, now: now)
      + core.connections.close(id, graceful: false)
    let retry = plan.failed(end, gluedToJoiner: gluedToJoiner, now: now)
    relay = plan
    if retry {
      let said =
        "The relay \(connection.peer) paired us with another joiner instead of the host (TLS found two clients):"
        + " trying the relay again."
      return closed + [.log(said), .report(.status(said))]
    }
    // A direct address that answered with a key not the invite's is the warning that ends it, else the relay's.
    let failure = plan.directFailure.flatMap { $0.isTrustWarning ? $0 : nil } ?? plan.failure ?? end
    let directLeft =
      route.hasUntried || core.active.map { $0 != id && core.connections[$0]?.isClosed == false } == true
    if directLeft { return closed + [.report(.status("\(failure.sentence) Still trying the host's own addresses."))] }
    if core.active == id { core.active = nil }
    core.connections.sweep()
    return closed + joinFailed(failure)
  }
}

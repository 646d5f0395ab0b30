import Glibc
import MatchCoordination
import NetworkFacts
import Security
import TransitRelay
import Transport

// The shell's part of a transit relay (docs/INTERNET.md, "A relay"): a connection out to the relay, greeted with
// the token once TCP is up (`RelayPrelude`), which becomes the host's or the joiner's TLS connection when the
// relay glues it to the other side. The host is the TLS server on it though it connected out.

/// The joiner's side of a relay: the invite's relay tried beside its addresses.
extension NetworkMatch where Side == JoinerCoordinator {
  /// As `join(_:)`, with the invite's relay (its route, or why its name was not found) tried too.
  func join(_ candidates: [(Endpoint, Sockets.Address)], relay: Result<RelayRoute, NetworkError>?) -> [MatchEvent] {
    let now = clock()
    let plan = relay.map { found in
      switch found {
      case .success(let route): JoinerRelay(route: route, failure: nil, now: now, direct: !candidates.isEmpty)
      case .failure(let error): JoinerRelay(route: nil, failure: error, now: now, direct: !candidates.isEmpty)
      }
    }
    return perform(coordinator.join(candidates, relay: plan, now: now))
  }
}

extension NetworkMatch where Side == HostCoordinator {
  /// Waits at `route` (the relay, found at its numeric address, and the token) beside its listeners, from now
  /// until it stops; the invite names it.
  package func wait(at route: RelayRoute) -> [MatchEvent] {
    coordinator.relayWait = HostRelayWait(route: route)
    return perform(coordinator.waitAtRelay(now: clock()))
  }

  /// The relay and token its invite names (nil: it waits at none).
  package var relayInvite: Invite.Relay? {
    guard let route = coordinator.relayWait?.route else { return nil }
    return Invite.Relay(host: route.relay.host, port: route.relay.port, token: route.token)
  }

  /// A new invite, as its player asked: a new random token at the relay, the wait with the old one closed
  /// at once (a joiner with an invite sent before finds nobody at the relay, status 42), the invite published
  /// again for `tictactoe invite` (its addresses as they were, the router's outside address kept). Returns what
  /// the player is told.
  package func newInvite() -> [MatchEvent] {
    guard relayInvite != nil else { return HostOrJoiner.notAtRelay }
    guard coordinator.mayRenewRelayToken, let old = invite.current else {
      return [.status("No new invite during a match: the invite you have stays good.")]
    }
    let token: RelayToken
    do {
      token = try RelayToken.random()
    } catch {
      return [.status("No new invite: no random token for the relay (\(error)); the invite you have stays good.")]
    }
    let oldWait = coordinator.relayWait?.waiting
    let events = perform(coordinator.renewRelayToken(token, now: clock()))
    if let oldWait { relayRoutes[oldWait] = nil }
    guard let relay = relayInvite, let renewed = Invite(key: old.key, addresses: old.addresses, relay: relay) else {
      return events
    }
    invite.publish(renewed)
    // The welcome, told again after each opponent, names the new invite.
    welcome = welcome.map { event in
      guard case .status(let line) = event, line.hasPrefix("Invite: ") else { return event }
      return .status("Invite: \(renewed)")
    }
    let at = Endpoint(host: relay.host, port: relay.port)
    return events + [
      .status("New invite: \(renewed)"),
      .status(
        "Invites sent before no longer come in through the relay \(at); a joiner who can reach your own addresses"
          + " still can, and is asked about like anyone."),
    ]
  }
}

extension NetworkMatch {
  /// Host: whether its player may ask for a new invite now (`newInvite()`): it waits at a relay and no match is
  /// on or asked about.
  package var mayMakeNewInvite: Bool { coordinator.mayRenewRelayToken }

  /// What the front end shows of the match now: the coordinator's view, and whether a new invite may be made.
  package var view: MatchView {
    var view = coordinator.view
    view.mayMakeNewInvite = mayMakeNewInvite
    return view
  }

  /// A socket for connection `id` on its way to the relay (TLS in this side's role once glued). A failure is
  /// the coordinator's to judge, named as the relay's.
  func openAtRelay(_ id: ConnectionID, _ route: RelayRoute, patience: Double?) -> [MatchEvent] {
    var fd: Int32 = -1
    do {
      fd = try Sockets.startConnect(route.address, endpoint: route.relay)
      let context = try coordinator.contextAtRelay(route, contexts)
      let connection = try PeerConnection(fd: fd, context: context, peerAddress: "the relay \(route.relay)")
      sockets.add(connection, as: id)
      relayRoutes[id] = (route, patience)
      return []
    } catch {
      if fd >= 0 { close(fd) }
      let failure: MatchEnd =
        (error as? NetworkError).map { .network($0.atRelay(route.relay)) } ?? .setup(SetupFailure(error))
      return perform(coordinator.failed(id, failure, now: clock()))
    }
  }

  /// The connection `id` to a relay is up (or failed): it greets the relay with the token and waits. Nil when
  /// `id` is no connection to a relay.
  func connectedToRelay(_ id: ConnectionID, _ connection: PeerConnection) -> [MatchEvent]? {
    guard let (route, patience) = relayRoutes.removeValue(forKey: id) else { return nil }
    if let failure = Sockets.connectFailure(connection.fd, route.relay) {
      return perform(coordinator.failed(id, .network(failure.atRelay(route.relay)), now: clock()))
    }
    let side: RelaySide
    do {
      side = try RelaySide.random()
    } catch {
      return perform(coordinator.failed(id, .setup(SetupFailure(error)), now: clock()))
    }
    let now = clock()
    // The coordinator decides when nobody came (its deadline); the prelude's own is later, never reached first.
    let stage = RelayPrelude(
      greeting: RelayGreeting(token: route.token, side: side), relay: route.relay, now: now,
      patience: (patience ?? 1e9) + 1)
    connection.start(after: stage)
    return perform(coordinator.reachedRelay(id, now: now))
  }
}

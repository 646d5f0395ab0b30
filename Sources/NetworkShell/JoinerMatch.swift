import GameCore
import MatchCoordination
import NetworkFacts
import PeerTrust
import PlayerFiles
import Security
import Session
import Transport

/// The joiner's shell: the shared part (`NetworkMatch`) around a `JoinerCoordinator`, with what only a joiner
/// does: it connects to the host (the addresses it was given, an invite's relay beside them: NetworkMatch+Relay
/// .swift), looks the host's name up again before reconnecting, and may watch instead of playing
/// (NetworkMatch+Spectators.swift).
package typealias JoinerMatch = NetworkMatch<JoinerCoordinator>

/// What the joiner's shell keeps that only its own code reads.
package final class JoinerPart {
  /// The relay of the invite joined with (tried beside its addresses), or nil.
  var inviteRelay: Invite.Relay?
}

extension JoinerCoordinator: MatchSide {
  package typealias Part = JoinerPart

  package static func either(_ match: JoinerMatch) -> HostOrJoiner { .joiner(match) }

  /// The certificate of a LAN game's host must carry the game's name; else the name typed.
  package func expectedName(at endpoint: Endpoint) -> String { lanGameName ?? endpoint.host }

  /// A joiner is the TLS client at a relay too, expecting the host it was told about.
  package func contextAtRelay(_ route: RelayRoute, _ contexts: MatchContexts) throws -> TLSContext {
    try contexts.client(expectedHost: self.route.endpoint?.host ?? route.relay.host, boundAddress: nil)
  }

  // A joiner lets nobody in, has no spectators of its own and makes no invite.
  package func mayAccept(now: Double) -> Bool { false }
  package var acceptReopens: Double? { nil }
  package mutating func admit(peer: String, now: Double) -> (ConnectionID, [MatchCommand])? { nil }
  package mutating func sent(on id: ConnectionID, queuedBytes: () -> Int?, now: Double) -> [MatchCommand] { [] }
  package var mayRenewRelayToken: Bool { false }
}

extension NetworkMatch where Side == JoinerCoordinator {
  /// A joiner's match: it plays by the rules and terms of the host it reaches.
  package convenience init(
    profile: Profile, identity: Identity, options: NetworkOptions, rules: Rules, log: Log,
    clock: @escaping () -> Double
  ) {
    let coordinator = JoinerCoordinator(
      name: profile.name, rules: rules, gracePeriod: options.gracePeriod, environment: MatchEnvironment.program)
    self.init(
      coordinator: coordinator, part: JoinerPart(), profile: profile, identity: identity, options: options,
      rules: rules, log: log, clock: clock)
  }

  /// The name of the LAN game chosen, which a CA-issued certificate must carry (unless --peer-name says another):
  /// the numeric address mDNS handed out proves nothing about who answers there.
  package var lanGameName: String? {
    get { coordinator.lanGameName }
    set { coordinator.lanGameName = newValue }
  }
  /// The fingerprint the LAN advertisement promised; the host's certificate must match it.
  package var advertisedFingerprint: Fingerprint? {
    get { coordinator.advertisedFingerprint }
    set { coordinator.advertisedFingerprint = newValue }
  }
  /// The key of the invite joined with (pinned by the options); remembered once the host is reached.
  package var inviteKey: Fingerprint? {
    get { coordinator.inviteKey }
    set { coordinator.inviteKey = newValue }
  }
  /// The relay of the invite joined with (tried beside its addresses), or nil.
  package var inviteRelay: Invite.Relay? {
    get { part.inviteRelay }
    set { part.inviteRelay = newValue }
  }
  /// A host name to look up again before reconnecting (the front end's loop does it on a worker thread, then
  /// calls `reconnect(to:)`): a host whose address changed is found again.
  package var nameToResolve: Endpoint? { coordinator.nameToResolve }

  /// Connects to the first of `addresses` (what `endpoint` resolved to) that answers, without waiting: the event
  /// loop sees each attempt through, and a refused or silent address gives way to the next.
  package func join(_ endpoint: Endpoint, addresses: [Sockets.Address]) -> [MatchEvent] {
    join(addresses.map { (endpoint, $0) })
  }

  /// As `join(_:addresses:)` for several endpoints (an invite's), tried in the order given.
  package func join(_ candidates: [(Endpoint, Sockets.Address)]) -> [MatchEvent] {
    join(candidates, relay: nil)
  }

  /// The name could not be resolved (or another failure before any connection): the match ends.
  package func joinFailed(_ end: MatchEnd) -> [MatchEvent] {
    perform(coordinator.joinFailed(end))
  }

  /// The host's name looked up again (`nameToResolve`): connect to the first of `addresses`.
  package func reconnect(to addresses: Result<[Sockets.Address], NetworkError>) -> [MatchEvent] {
    perform(coordinator.resolved(addresses, now: clock()))
  }
}

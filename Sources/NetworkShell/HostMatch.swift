import GameCore
import MatchCoordination
import NetworkFacts
import PeerTrust
import PlayerFiles
import Security
import Session
import Transport

/// The host's shell: the shared part (`NetworkMatch`) around a `HostCoordinator`, with what only a host does:
/// it listens, announces the game on the LAN, publishes its invite, waits at a relay (NetworkMatch+Relay.swift)
/// and sets who may watch (NetworkMatch+Spectators.swift).
package typealias HostMatch = NetworkMatch<HostCoordinator>

/// What the host's shell keeps that only its own code reads.
package final class HostPart {
  /// The address given to `host(bind:port:)`, for the invite.
  var bind: String?
  /// The invite `tictactoe invite` reads (withdrawn when the match goes).
  lazy var invite = PublishedInvite(paths: paths)
  /// Ask the router to open the port (the front end's loop runs `PortMappingOnLoop`).
  var mapsPort = false
  /// The full-screen UI offers to ask the router (nothing decided it yet: no option, no setting).
  var offersPortMapping = false
  private let paths: Paths

  init(paths: Paths) { self.paths = paths }
}

extension HostCoordinator: MatchSide {
  package typealias Part = HostPart

  package static func either(_ match: HostMatch) -> HostOrJoiner { .host(match) }

  package mutating func admit(peer: String, now: Double) -> (ConnectionID, [MatchCommand])? {
    accepted(peer: peer, now: now)
  }

  /// The host serves its joiners, also one it reaches through a relay.
  package func contextAtRelay(_ route: RelayRoute, _ contexts: MatchContexts) throws -> TLSContext {
    try contexts.server()
  }

  /// Measures a spectator's outbox after each send: one that does not read is dropped (`backlog`) instead of
  /// growing the host or slowing the players.
  package mutating func sent(on id: ConnectionID, queuedBytes: () -> Int?, now: Double) -> [MatchCommand] {
    guard spectators.contains(id), let queued = queuedBytes() else { return [] }
    return backlog(id, queuedBytes: queued, now: now)
  }

  // A host connects out only to a relay (`contextAtRelay`): it binds no typed address and names no host.
  package var connectingEndpoint: Endpoint? { nil }
  package mutating func connected(_ id: ConnectionID, remote: Endpoint?) {}
  package var boundAddress: String? { nil }
  package func expectedName(at endpoint: Endpoint) -> String { endpoint.host }
}

extension NetworkMatch where Side == HostCoordinator {
  /// A host's match, offering `rules`, `timeControl` and `opening` in its terms.
  package convenience init(
    profile: Profile, identity: Identity, options: NetworkOptions, rules: Rules, timeControl: TimeControl = .none,
    opening: Opening = .standard, log: Log, clock: @escaping () -> Double
  ) {
    let coordinator = HostCoordinator(
      name: profile.name, rules: rules, gracePeriod: options.gracePeriod, timeControl: timeControl, opening: opening,
      environment: MatchEnvironment.program)
    self.init(
      coordinator: coordinator, part: HostPart(paths: profile.paths), profile: profile, identity: identity,
      options: options, rules: rules, log: log, clock: clock)
  }

  /// Listens for joiners.
  package func host(bind: String?, port: UInt16) throws(NetworkError) {
    let listener = try HostListener(bind: bind, port: port, network: network, log: log)
    self.listener = listener
    part.bind = bind
    log.write("hosting on \(bind ?? "*"):\(self.port)")
  }

  /// The port it listens on (0 before `host(bind:port:)`).
  package var port: UInt16 { listener?.port ?? 0 }

  /// Announces the game on the LAN as `_tictactoe._tcp`. When the avahi-daemon is missing the game is hosted all
  /// the same and the player is told why it cannot be found on the LAN.
  package func advertise() -> [MatchEvent] {
    let (announcement, said) = LANAnnouncement.start(
      name: profile.name, port: port, rules: rules, timeControl: timeControl, opening: opening,
      key: identity.fingerprint, log: log)
    self.announcement = announcement
    return said
  }

  /// The time control its terms offer.
  package var timeControl: TimeControl { coordinator.core.configuration.timeControl }
  /// The opening its terms offer.
  package var opening: Opening { coordinator.core.configuration.opening }

  /// After an opponent leaves wait for the next (until the player quits): full screen; plain --keep-hosting.
  package var keepsHosting: Bool {
    get { coordinator.keepsHosting }
    set { coordinator.keepsHosting = newValue }
  }
  /// What the player is told when hosting begins (where to join, the key), told again after each opponent.
  package var welcome: [MatchEvent] {
    get { coordinator.welcome }
    set { coordinator.welcome = newValue }
  }
  /// What each source address may do (the settings' deny list, connections, new keys); nil: no limits.
  package var sourceLimits: SourceLimits? {
    get { coordinator.limits }
    set { coordinator.limits = newValue }
  }

  /// The invite `tictactoe invite` reads (withdrawn when the match goes).
  package var invite: PublishedInvite { part.invite }
  /// Ask the router to open the port (the front end's loop runs `PortMappingOnLoop`).
  package var mapsPort: Bool {
    get { part.mapsPort }
    set { part.mapsPort = newValue }
  }
  /// The full-screen UI offers to ask the router (nothing decided it yet: no option, no setting).
  package var offersPortMapping: Bool {
    get { part.offersPortMapping }
    set { part.offersPortMapping = newValue }
  }

  /// The invite again, with `external` (a port the router opened) as its first address, published for
  /// `tictactoe invite`; nil when there is nothing new to say.
  func inviteWith(external: Invite.Address) -> Invite? {
    guard
      let invite = RunningHosts.invite(
        key: identity.fingerprint, port: port, bind: part.bind, external: external, relay: relayInvite)
    else { return nil }
    self.invite.publish(invite)
    return invite
  }
}

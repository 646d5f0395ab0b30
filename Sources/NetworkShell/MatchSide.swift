import MatchCoordination
import NetworkFacts
import Security

/// One side of a networked match as its shell runs it: the coordinator that decides (`HostCoordinator`,
/// `JoinerCoordinator`) answers what the shared part (`NetworkMatch`) asks on the paths both sides' connections
/// go through, and names what that side's shell keeps beside it. Each side answers for itself in its own file
/// (HostMatch.swift, JoinerMatch.swift); a question that does not concern a side has the plain answer there
/// (a joiner lets nobody in, a host binds no typed address).
package protocol MatchSide: MatchRole {
  /// What the side's shell keeps that only its own code reads (`HostPart`, `JoinerPart`).
  associatedtype Part: AnyObject

  /// `match` as the code that runs either side sees it: a host's or a joiner's.
  static func either(_ match: NetworkMatch<Self>) -> HostOrJoiner

  // MARK: Letting joiners in (a host's listener)

  /// Whether the listener may take the next waiting connection in at `now`.
  func mayAccept(now: Double) -> Bool
  /// When a wait at the pending cap ends (nil: no wait).
  var acceptReopens: Double? { get }
  /// A connection came in from `peer`: its number and what to do, or nil when this side takes none in.
  mutating func admit(peer: String, now: Double) -> (ConnectionID, [MatchCommand])?

  // MARK: Connecting out (a joiner's to the host)

  /// Where the connection being set up goes, for naming a refusal.
  var connectingEndpoint: Endpoint? { get }
  /// TCP is up on `id`, which reached `remote`.
  mutating func connected(_ id: ConnectionID, remote: Endpoint?)
  /// The address typed, to which the other side's key is bound in known_peers (nil: none).
  var boundAddress: String? { get }
  /// The name the other side's certificate must carry when this side connects to `endpoint`.
  func expectedName(at endpoint: Endpoint) -> String
  /// The TLS context for a connection that waits at the relay of `route`, in this side's TLS role (the host is
  /// the server there though it connected out).
  func contextAtRelay(_ route: RelayRoute, _ contexts: MatchContexts) throws -> TLSContext

  // MARK: Spectators and invites (a host's)

  /// A message went out on `id`; `queuedBytes` tells what is still waiting to be sent there: what to do about a
  /// spectator that does not read.
  mutating func sent(on id: ConnectionID, queuedBytes: () -> Int?, now: Double) -> [MatchCommand]
  /// Whether the player may ask for a new invite now (`HostMatch.newInvite()`).
  var mayRenewRelayToken: Bool { get }
}

/// A networked match as the code that runs either side holds it (the front ends, the launchers, `MatchOnLoop`),
/// when it does something only one side does.
package enum HostOrJoiner {
  case host(HostMatch)
  case joiner(JoinerMatch)
}

extension HostOrJoiner {
  /// What the player who asks for a new invite is told when there is none to make: a host that waits at no
  /// relay, and any joiner.
  static let notAtRelay: [MatchEvent] = [.status("No new invite: you are not waiting at a relay.")]

  /// A new invite, as the player asked (`HostMatch.newInvite()`).
  package func newInvite() -> [MatchEvent] {
    switch self {
    case .host(let host): host.newInvite()
    case .joiner: HostOrJoiner.notAtRelay
    }
  }
}

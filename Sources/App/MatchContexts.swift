import PeerTrust
import Security

/// The TLS contexts a match's connections are made with, from the player's identity, known peers and trust
/// options: the host's one context for every joiner, made again only when known_peers changed (making one for
/// each connection cost a flood's every accept a parse), and a joiner's for the host it expects to reach.
final class MatchContexts {
  private let profile: Profile
  private let identity: Identity
  private let options: NetworkOptions
  /// The host's context and the version of known_peers it judges by.
  private var served: (context: TLSContext, peers: KnownPeersSnapshot.Stamp?)?

  init(profile: Profile, identity: Identity, options: NetworkOptions) {
    self.profile = profile
    self.identity = identity
    self.options = options
  }

  /// The context every joiner of a host is served with.
  func server() throws -> TLSContext {
    let peers = KnownPeersSnapshot.stamp(of: profile.knownPeersPath)
    if let served, served.peers == peers { return served.context }
    let context = try profile.tlsContext(.server, identity: identity, options: options, expectedHost: nil)
    served = (context, peers)
    return context
  }

  /// A joiner's context for reaching `expectedHost`, its key bound to `boundAddress` (the address typed).
  func client(expectedHost: String, boundAddress: String?) throws -> TLSContext {
    try profile.tlsContext(
      .client, identity: identity, options: options, expectedHost: expectedHost, boundAddress: boundAddress)
  }
}

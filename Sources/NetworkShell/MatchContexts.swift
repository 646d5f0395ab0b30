import PeerTrust
import PlayerFiles
import Security

/// The TLS contexts a match's connections are made with, from the player's identity, known peers and trust
/// options: the host's one context for every joiner, made again only when known_peers changed (making one for
/// each connection cost a flood's every accept a parse), and a joiner's for the host it expects to reach.
package final class MatchContexts {
  private let profile: Profile
  private let identity: Identity
  private let options: NetworkOptions
  /// The host's context and the version of known_peers it judges by.
  private var served: (context: TLSContext, peers: KnownPeersSnapshot.Stamp?)?
  /// The last lines of known_peers read for a decision, what they answered and the file's version then.
  private var excerpt: (query: KnownPeersQuery, peers: KnownPeersSnapshot.Stamp, known: KnownPeers)?

  init(profile: Profile, identity: Identity, options: NetworkOptions) {
    self.profile = profile
    self.identity = identity
    self.options = options
  }

  /// The lines of known_peers that `query` needs (`Profile.knownPeersExcerpt`), read again only when the query
  /// or the file changed: a flood's connections, all with one key, cost a read each.
  func knownPeers(_ query: KnownPeersQuery) throws(KnownPeersError) -> KnownPeers {
    let stamp = KnownPeersSnapshot.stamp(of: profile.knownPeersPath)
    if let excerpt, excerpt.query == query, excerpt.peers == stamp { return excerpt.known }
    let known = try profile.knownPeersExcerpt(query)
    // Kept only when the file did not change while it was read.
    if let stamp, KnownPeersSnapshot.stamp(of: profile.knownPeersPath) == stamp { excerpt = (query, stamp, known) }
    return known
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

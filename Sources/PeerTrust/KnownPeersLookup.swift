/// Where a trust-on-first-use policy finds the known peers it judges one peer by, at the moment it judges it: the
/// lines of known_peers that peer's key, name and address need (`KnownPeersQuery`), looked up then (through the
/// index beside the file: Security's `KnownPeersIndexFile`) instead of the whole file held from before the
/// handshake. Compared by identity, as `SharedKnownPeers`.
public final class KnownPeersLookup: Sendable, Equatable {
  private let find: @Sendable (KnownPeersQuery) throws(KnownPeersError) -> KnownPeers

  public init(_ find: @escaping @Sendable (KnownPeersQuery) throws(KnownPeersError) -> KnownPeers) {
    self.find = find
  }

  /// The lines `query` needs.
  public func excerpt(_ query: KnownPeersQuery) throws(KnownPeersError) -> KnownPeers { try find(query) }

  public static func == (left: KnownPeersLookup, right: KnownPeersLookup) -> Bool { left === right }
}

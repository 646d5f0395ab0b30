/// What a trust decision about one peer asks of known_peers, and so the only lines it needs: those of the key it
/// presents, of a name that looks like one it goes by (its certificate's, its hello's), and of the address a
/// joiner typed. An excerpt of those lines (`KnownPeers(excerpt:)`) answers every check a decision makes
/// (`TrustChecks`, the lookalike warning, the name shown, what an invite remembers) as the whole file would: each
/// asks only about that key, those names (compared folded, which an exact name passes too) or that address.
public struct KnownPeersQuery: Sendable, Hashable {
  public var key: Fingerprint?
  /// The names, folded as `KnownPeers.lookalikes` compares them.
  public private(set) var foldedNames: [String]
  public var address: String?

  public init(key: Fingerprint?, names: [String], address: String?) {
    self.key = key
    foldedNames = []
    for name in names.map(KnownPeers.folded) where !foldedNames.contains(name) { foldedNames.append(name) }
    self.address = address
  }

  /// Whether the line is one the decision needs.
  package func matches(_ line: KnownPeers.Line) -> Bool {
    guard case .peer(let name, let fingerprint, _, let addresses) = line else { return false }
    if let key, fingerprint == key { return true }
    if let address, addresses.contains(address) { return true }
    return !foldedNames.isEmpty && foldedNames.contains(KnownPeers.folded(name))
  }

  /// The index keys of what is asked (`KnownPeersIndex.Key`): a line that matches has one of them.
  package var indexKeys: [UInt64] {
    var keys: [UInt64] = []
    if let key { keys.append(KnownPeersIndex.Key.fingerprint(key)) }
    keys += foldedNames.map(KnownPeersIndex.Key.foldedName)
    if let address { keys.append(KnownPeersIndex.Key.address(address)) }
    return keys
  }
}

extension KnownPeers {
  /// The lines `query` needs, at their numbers: the excerpt a decision about that peer is made on.
  public func excerpt(for query: KnownPeersQuery) -> KnownPeers {
    var picked: [(line: Line, number: Int)] = []
    for position in lines.indices where query.matches(lines[position]) {
      picked.append((lines[position], lineNumber(at: position)))
    }
    return KnownPeers(excerpt: picked)
  }
}

import PeerTrust
import UntrustedText

/// What a joiner remembers of a host reached with an invite, and what its player is warned of. An invite pins a
/// key for that one connection: it never renames, shadows or rebinds anything known. Pure: the known peers are
/// given.
public enum InviteMemory: Equatable {
  /// Nothing is written.
  case nothing
  /// A new key, under the name in its certificate, with the address joined at when that is free.
  case remember(name: String, key: Fingerprint, address: String?)
  /// A known key met at an address no other key holds.
  case bind(Fingerprint, address: String)

  /// The decision for a host presenting `key` in a certificate named `certificateName`, reached with the invite
  /// at `address` (nil: nothing to bind), and the warnings for the player (empty when all is as known).
  ///
  /// - A known key keeps its known name; the address is bound to it unless another key holds that address.
  /// - A new key whose name looks like a known peer's (another key: "not the alice you know") is not remembered,
  ///   so known_peers never holds two alices the player did not choose; joining with the invite again works.
  /// - A new key with a fresh name is remembered, with the address only when no other key holds it: a plain
  ///   `join` there is still KEY CHANGED for anyone but the host first met there.
  public static func decide(certificateName: String, key: Fingerprint, address: String?, known: KnownPeers)
    -> (memory: InviteMemory, warnings: [String])
  {
    let holder = address.flatMap { known.lookup(address: $0) }.flatMap { $0.fingerprint == key ? nil : $0 }
    var addressWarning: [String] = []
    if let address, let holder {
      addressWarning.append(
        "WARNING: \(address) is where you met \(PeerText(holder.name)) (\(holder.fingerprint), known_peers line "
          + "\(holder.line)); the invite's key \(key) is trusted for this game only, and the address stays "
          + "\(PeerText(holder.name))'s.")
    }
    if let entry = known.lookup(fingerprint: key) {
      guard let address, holder == nil, !entry.addresses.contains(address) else { return (.nothing, addressWarning) }
      return (.bind(key, address: address), [])
    }
    let lookalikes = known.lookalikes(of: certificateName).filter { $0.fingerprint != key }
    if !lookalikes.isEmpty {
      let name = PeerText(certificateName)
      return (
        .nothing,
        TrustQuestion.notTheOneYouKnow(claimed: name, fingerprint: key, lookalikes: lookalikes) + addressWarning
          + [
            "  The invite's key is trusted for this game only and was not remembered, since you know another "
              + "\(name). To play this host again, join with its invite again."
          ]
      )
    }
    return (.remember(name: certificateName, key: key, address: holder == nil ? address : nil), addressWarning)
  }
}

/// The verdict on the other player's certificate.
public enum TrustDecision: Sendable, Equatable {
  /// Go ahead.
  case trusted(TrustReason)
  /// First contact with this peer: show the fingerprint and ask the player before going on;
  /// if they accept, add the peer to the known-peers file.
  case askUser(name: String, fingerprint: Fingerprint)
  /// Refuse; the failure says why in player words.
  case rejected(TrustFailure)
}

/// Why a peer was trusted.
public enum TrustReason: Sendable, Equatable {
  /// Listed in the known-peers file under `name` with this key.
  case knownPeer(name: String)
  /// The key is the pinned one.
  case pinned
  /// A trusted certificate authority (`issuer`, its common name) vouches for the peer.
  case certificateAuthority(issuer: String)
  /// Nothing was checked (insecure mode).
  case insecure
  /// A new peer accepted without asking (`acceptNew`); the caller should record it.
  case acceptedNew
}

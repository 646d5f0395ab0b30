import PeerTrust
import UntrustedText

/// The name an opponent is shown and logged by: the one trust was decided on, never the name its hello claims.
/// A known key is shown by the player's own name for it (its petname in known_peers), a certificate a chosen CA
/// vouched for by the name in it; anyone else by the name it claims (the question about it says it is a claim).
public enum ShownName {
  /// The name trust was decided on, or nil when it was decided on nothing but the key being new.
  public static func decided(_ decision: TrustDecision?, certificate: PeerCertificate?, known: KnownPeers?) -> String? {
    switch decision {
    case .trusted(.knownPeer(let name)): return name
    case .trusted(.certificateAuthority): return certificate?.commonName
    default:
      guard let key = certificate?.fingerprint else { return nil }
      return known?.lookup(fingerprint: key)?.name
    }
  }

  /// `decided`, with the claimed name marked when it differs: "carol (calls itself bob)".
  public static func label(decided: String?, claimed: PeerText) -> PeerText {
    guard let decided, decided != claimed.unsanitised else { return claimed }
    return PeerText("\(decided) (calls itself \(claimed.unsanitised))")
  }
}

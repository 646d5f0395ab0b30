import PeerTrust

/// Decides whether `peer`, met as `peerName`, is acceptable under `options` at time `now`
/// (seconds since 1970).
///
/// Pure for first-use trust, pinning and insecure mode. The certificate-authority policy
/// verifies the chain with OpenSSL (`CertificateAuthorityVerifier`), with the anchors loaded once per
/// process. `peerRole`: the side the peer plays (a host's certificate must be valid for a TLS server).
public func evaluate(
  peer: PeerCertificate, peerName: String, options: TrustOptions, now: Int64, peerRole: TLSRole = .server
) -> TrustDecision {
  if case .certificateAuthority(let anchors, _) = options.policy {
    do {
      let verifier = try CertificateAuthorityVerifier.shared(anchorsPEM: anchors)
      return TrustEvaluator.evaluate(
        peer: peer, peerName: peerName, options: options, now: now, verifier: verifier, peerRole: peerRole)
    } catch {
      return .rejected(.untrustedChain(reason: error.description))
    }
  }
  return TrustEvaluator.evaluate(
    peer: peer, peerName: peerName, options: options, now: now, verifier: nil, peerRole: peerRole)
}

extension TrustEvaluator {
  /// Fails when the certificate authorities of a `.certificateAuthority` policy cannot be loaded.
  public convenience init(options: TrustOptions) throws(SecurityError) {
    var verifier: CertificateAuthorityVerifier?
    if case .certificateAuthority(let anchors, _) = options.policy {
      verifier = try CertificateAuthorityVerifier.shared(anchorsPEM: anchors)
    }
    self.init(options: options, verifier: verifier)
  }
}

import COpenSSL
import PeerTrust

extension TLSConnection {
  /// Called from the verify callback with the peer's chain: records it, applies the trust
  /// policy, and on refusal sets the verification error that selects the alert OpenSSL sends.
  func judgePeer(store: OpaquePointer) -> Bool {
    guard let leafPointer = X509_STORE_CTX_get0_cert(store),
      let leaf = X509Certificate(retaining: leafPointer)
    else {
      trustDecision = .rejected(.noCertificate)
      trustFailure = .noCertificate
      X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
      return false
    }
    let leafDER = leaf.der
    var chain = [leafDER]
    if let untrusted = X509_STORE_CTX_get0_untrusted(store) {
      for index in 0..<tictactoe_sk_X509_num(untrusted) {
        guard let extra = tictactoe_sk_X509_value(untrusted, index),
          let owned = X509Certificate(retaining: extra)
        else { continue }
        let der = owned.der
        if der != leafDER { chain.append(der) }
      }
    }
    guard let peer = PeerCertificate(leaf: leaf, chainDER: chain) else {
      let failure = TrustFailure.untrustedChain(reason: "the certificate's public key cannot be read")
      trustDecision = .rejected(failure)
      trustFailure = failure
      X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
      return false
    }
    peerCertificate = peer
    let decision: TrustDecision
    if let peerName {
      decision = context.evaluator.evaluate(
        peer: peer, peerName: peerName, now: UTCCalendar.now(), peerRole: context.role == .server ? .client : .server)
    } else {
      decision = context.evaluator.evaluateSelfNamed(
        peer: peer, now: UTCCalendar.now(), judgingJoiner: context.role == .server)
    }
    trustDecision = decision
    guard case .rejected(let failure) = decision else {
      X509_STORE_CTX_set_error(store, X509_V_OK)
      return true
    }
    trustFailure = failure
    X509_STORE_CTX_set_error(store, TLSConnection.verificationError(for: failure))
    return false
  }

  /// The OpenSSL verification error whose alert best tells the peer why: unknown_ca,
  /// certificate_expired, or bad_certificate.
  static func verificationError(for failure: TrustFailure) -> Int32 {
    switch failure {
    case .unknownAuthority: return X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
    case .expired: return X509_V_ERR_CERT_HAS_EXPIRED
    case .notYetValid: return X509_V_ERR_CERT_NOT_YET_VALID
    case .pinMismatch, .keyChanged, .nameMismatch, .noCertificate, .untrustedChain, .knownPeersUnusable:
      return X509_V_ERR_CERT_REJECTED
    }
  }
}

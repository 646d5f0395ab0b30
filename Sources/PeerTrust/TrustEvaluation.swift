/// Checks a presented chain against a certificate authority: the issuer's name when it holds, the failure when
/// not. Security's `CertificateAuthorityVerifier` does it with OpenSSL; the trust decisions here stay pure.
public protocol ChainVerifier: Sendable {
  func verify(chainDER: [[UInt8]], expectedName: String?, peerRole: TLSRole, allowExpired: Bool, now: Int64)
    -> Result<String, TrustFailure>
}

/// Applies one `TrustOptions` to many peers, loading certificate authorities once.
public final class TrustEvaluator: Sendable {
  public let options: TrustOptions
  let verifier: (any ChainVerifier)?

  /// `verifier` checks chains for a `.certificateAuthority` policy (Security's, with OpenSSL); without one such
  /// a policy rejects every peer.
  public init(options: TrustOptions, verifier: (any ChainVerifier)?) {
    self.options = options
    self.verifier = verifier
  }

  /// The decision for `peer` (playing `peerRole`), met as `peerName`, at `now` (seconds since 1970).
  public func evaluate(peer: PeerCertificate, peerName: String, now: Int64, peerRole: TLSRole = .server)
    -> TrustDecision
  {
    TrustEvaluator.evaluate(
      peer: peer, peerName: peerName, options: options, now: now, verifier: verifier, peerRole: peerRole)
  }

  /// As `evaluate(peer:peerName:now:)` for a peer whose name comes from its own certificate: there is no
  /// independent name to check it against, so only the policy's `expectedName`, if any, is checked.
  ///
  /// `judgingJoiner` (a host judging a joining client): a joiner is its key, never its name. A known key is
  /// that known peer; an unknown key is a new player even when it calls itself by a known name (it is asked
  /// about, or let in with accept-new), so players who share a name never lock each other out.
  package func evaluateSelfNamed(peer: PeerCertificate, now: Int64, judgingJoiner: Bool = false) -> TrustDecision {
    var adjusted = options
    if case .certificateAuthority(_, nil) = options.policy { adjusted.verifyName = false }
    return TrustEvaluator.evaluate(
      peer: peer, peerName: peer.commonName, options: adjusted, now: now, verifier: verifier,
      peerRole: judgingJoiner ? .client : .server, keyDecides: judgingJoiner)
  }

  package static func evaluate(
    peer: PeerCertificate, peerName: String, options: TrustOptions, now: Int64,
    verifier: (any ChainVerifier)?, peerRole: TLSRole, keyDecides: Bool = false
  ) -> TrustDecision {
    let presented = peer.fingerprint
    var options = options
    if let shared = options.sharedKnownPeers, case .trustOnFirstUse(_, let file, let acceptNew) = options.policy {
      options.policy = .trustOnFirstUse(known: shared.peers, file: file, acceptNew: acceptNew)
    }
    if let failure = lookUp(&options, presented: presented, peerName: peerName, keyDecides: keyDecides) {
      return .rejected(failure)
    }
    let dates = { TrustChecks.dates(peer, allowExpired: options.allowExpired, now: now) }
    switch options.policy {
    case .insecure:
      return .trusted(.insecure)

    case .pinned(let pins):
      return TrustChecks.decide([{ TrustChecks.pinned(pins, presented: presented) }], dates: dates) {
        .trusted(.pinned)
      }

    case .trustOnFirstUse(let known, let file, let acceptNew):
      var checks: [() -> TrustCheck]
      if keyDecides || options.boundAddress != nil {
        // The key decides who this is: a known key is that peer, wherever it is met and whatever it calls
        // itself; a joiner also checks the address it typed.
        checks = [{ TrustChecks.knownKey(known, presented: presented) }]
        if !keyDecides, let address = options.boundAddress {
          checks.append {
            TrustChecks.boundAddress(address, known: known, peerName: peerName, presented: presented, file: file)
          }
        }
      } else {
        checks = [
          { TrustChecks.knownName(peerName, known: known, presented: presented, file: file) },
          { TrustChecks.knownKey(known, presented: presented) },
        ]
      }
      return TrustChecks.decide(checks, dates: dates) {
        TrustChecks.firstUse(acceptNew: acceptNew, peerName: peerName, presented: presented)
      }

    case .certificateAuthority(_, let expectedName):
      guard let verifier else {
        return .rejected(.untrustedChain(reason: "no certificate authorities were loaded"))
      }
      let name = options.verifyName ? (expectedName ?? peerName) : nil
      switch verifier.verify(
        chainDER: peer.chainDER, expectedName: name, peerRole: peerRole, allowExpired: options.allowExpired, now: now)
      {
      case .success(let issuer): return .trusted(.certificateAuthority(issuer: issuer))
      case .failure(let failure): return .rejected(failure)
      }
    }
  }

  /// With a `knownPeersLookup`: the policy's known peers become the lines this peer needs, looked up now; the
  /// failure when they cannot be read (the peer is then refused: it is judged by nothing else).
  private static func lookUp(_ options: inout TrustOptions, presented: Fingerprint, peerName: String, keyDecides: Bool)
    -> TrustFailure?
  {
    guard let lookup = options.knownPeersLookup, case .trustOnFirstUse(_, let file, let acceptNew) = options.policy
    else { return nil }
    let query = KnownPeersQuery(key: presented, names: [peerName], address: keyDecides ? nil : options.boundAddress)
    do {
      options.policy = .trustOnFirstUse(known: try lookup.excerpt(query), file: file, acceptNew: acceptNew)
      return nil
    } catch {
      return .knownPeersUnusable(reason: error.description)
    }
  }
}

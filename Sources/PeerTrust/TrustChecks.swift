/// What one check says of a presented certificate.
public enum TrustCheck: Sendable, Equatable {
  /// Trusted for this reason, if the certificate's dates hold (`TrustChecks.dates`).
  case trust(TrustReason)
  case reject(TrustFailure)
  /// Not this check's to decide: the next one decides.
  case pass
}

/// The checks a trust policy is made of, each small and tested alone (`TrustChecksTests`); `TrustEvaluator`
/// composes them in order for each policy: the first that decides wins, and a key trusted by any of them must
/// still be within its dates.
public enum TrustChecks {
  /// Pinning: one of the pinned keys, or refused naming every pin tried.
  public static func pinned(_ pins: [PinnedKey], presented: Fingerprint) -> TrustCheck {
    pins.contains { $0.fingerprint == presented }
      ? .trust(.pinned) : .reject(.pinMismatch(expected: pins, got: presented))
  }

  /// A known key is that known peer, whatever name it calls itself and wherever it is met.
  public static func knownKey(_ known: KnownPeers, presented: Fingerprint) -> TrustCheck {
    known.lookup(fingerprint: presented).map { .trust(.knownPeer(name: $0.name)) } ?? .pass
  }

  /// A joiner's host: another key at the address where a known host was met is KEY CHANGED, whatever its name;
  /// entries written before addresses were kept still protect the name they were met under.
  public static func boundAddress(
    _ address: String, known: KnownPeers, peerName: String, presented: Fingerprint, file: String
  ) -> TrustCheck {
    if let bound = known.lookup(address: address), bound.fingerprint != presented {
      return .reject(
        .keyChanged(name: bound.name, known: bound.fingerprint, presented: presented, file: file, line: bound.line))
    }
    if let legacy = known.entries(named: peerName).first(where: { $0.addresses.isEmpty }),
      legacy.fingerprint != presented
    {
      return .reject(
        .keyChanged(name: peerName, known: legacy.fingerprint, presented: presented, file: file, line: legacy.line))
    }
    return .pass
  }

  /// A peer met by name (no address to bind to): its name's key, or KEY CHANGED when the name is known with
  /// another key.
  public static func knownName(_ peerName: String, known: KnownPeers, presented: Fingerprint, file: String)
    -> TrustCheck
  {
    let named = known.entries(named: peerName)
    if named.contains(where: { $0.fingerprint == presented }) { return .trust(.knownPeer(name: peerName)) }
    if let remembered = named.first {
      return .reject(
        .keyChanged(
          name: peerName, known: remembered.fingerprint, presented: presented, file: file, line: remembered.line))
    }
    return .pass
  }

  /// Why the certificate may not be used at `now` (before or after its validity), nil when it may or when
  /// expired certificates are allowed.
  public static func dates(_ peer: PeerCertificate, allowExpired: Bool, now: Int64) -> TrustFailure? {
    if allowExpired { return nil }
    if now < peer.notBefore { return .notYetValid(notBefore: peer.notBefore) }
    if now > peer.notAfter { return .expired(notAfter: peer.notAfter) }
    return nil
  }

  /// A key no check knew: let in without asking (`acceptNew`, remembered by the caller) or asked about.
  public static func firstUse(acceptNew: Bool, peerName: String, presented: Fingerprint) -> TrustDecision {
    acceptNew ? .trusted(.acceptedNew) : .askUser(name: peerName, fingerprint: presented)
  }

  /// The decision of `checks` run in order: the first that decides, a trust held to the dates; when none
  /// decides, the dates and then `otherwise`.
  public static func decide(
    _ checks: [() -> TrustCheck], dates: () -> TrustFailure?, otherwise: () -> TrustDecision
  ) -> TrustDecision {
    for check in checks {
      switch check() {
      case .pass: continue
      case .reject(let failure): return .rejected(failure)
      case .trust(let reason): return dates().map(TrustDecision.rejected) ?? .trusted(reason)
      }
    }
    return dates().map(TrustDecision.rejected) ?? otherwise()
  }
}

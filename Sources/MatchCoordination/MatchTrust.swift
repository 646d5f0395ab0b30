import PeerTrust
import UntrustedText

/// The trust questions a match asks of its known peers once TLS has decided: by what name the opponent is
/// shown, which known peers a new key's name looks like, and what is remembered. Pure: the known peers are
/// given.
public enum MatchTrust {
  /// What to do with a peer once its key is judged: ask the player, or let it in after saying this.
  public enum Verdict {
    case ask(TrustQuestion)
    case letIn([MatchCommand])
  }

  /// Host: a joiner said hello as `name`. A new key is asked about (with the known peers its name looks like);
  /// a trusted one whose name looks like a known peer's is a new player, never that peer: the player is warned,
  /// with both keys.
  public static func hostHeard(_ name: PeerText, facts: PeerFacts?, known: KnownPeers?) -> Verdict {
    let lookalikes = lookalikes(facts, claiming: name, known: known)
    if case .askUser(let certificateName, let fingerprint) = facts?.trust {
      return .ask(
        TrustQuestion(
          role: .host, peerName: name, certificateName: PeerText(certificateName), fingerprint: fingerprint,
          lookalikes: lookalikes))
    }
    guard let certificate = facts?.certificate, !lookalikes.isEmpty else { return .letIn([]) }
    let warning = TrustQuestion.notTheOneYouKnow(
      claimed: name, fingerprint: certificate.fingerprint, lookalikes: lookalikes)
    return .letIn([.log(warning.joined(separator: " "))] + warning.map { .report(.status($0)) })
  }

  /// Joiner: the host's key is judged. A new key is asked about; a known key met at a new address is that
  /// peer, and the address is bound to it (the key decides).
  public static func joinerSecured(_ facts: PeerFacts, boundAddress: String?, known: KnownPeers?) -> Verdict {
    if case .askUser(let name, let fingerprint) = facts.trust {
      return .ask(
        TrustQuestion(
          role: .joiner, peerName: PeerText(name), certificateName: PeerText(name), fingerprint: fingerprint,
          lookalikes: lookalikes(facts, claiming: nil, known: known)))
    }
    if case .trusted(.knownPeer) = facts.trust, let address = boundAddress, let key = facts.certificate?.fingerprint {
      return .letIn([.bind(key, address: address)])
    }
    // Let in without a question (--accept-new): a name like a known peer's is still not that peer, as on the host.
    if case .trusted(.acceptedNew) = facts.trust, let certificate = facts.certificate {
      let lookalikes = lookalikes(facts, claiming: nil, known: known)
      guard !lookalikes.isEmpty else { return .letIn([]) }
      let warning = TrustQuestion.notTheOneYouKnow(
        claimed: PeerText(certificate.commonName), fingerprint: certificate.fingerprint, lookalikes: lookalikes)
      return .letIn([.log(warning.joined(separator: " "))] + warning.map { .report(.status($0)) })
    }
    return .letIn([])
  }

  /// Joiner: the host said hello as `name`. A host whose key is not a known peer's, calling itself by a name that
  /// looks like a known peer's (not already warned of for its certificate's name, as the question or an invite
  /// does), is not that peer: the player is warned, with both keys.
  public static func joinerHeard(_ name: PeerText, facts: PeerFacts?, known: KnownPeers?) -> [MatchCommand] {
    guard let certificate = facts?.certificate else { return [] }
    let warned = Set(lookalikes(facts, claiming: nil, known: known).map(\.fingerprint))
    let lookalikes = lookalikes(facts, claiming: name, known: known).filter { !warned.contains($0.fingerprint) }
    guard !lookalikes.isEmpty else { return [] }
    let warning = TrustQuestion.notTheOneYouKnow(
      claimed: name, fingerprint: certificate.fingerprint, lookalikes: lookalikes)
    return [.log(warning.joined(separator: " "))] + warning.map { .report(.status($0)) }
  }

  /// The name the opponent is shown by: the one trust was decided on (the player's own name for a known key,
  /// or the name in a certificate a chosen CA vouched for), with the name it calls itself marked when it
  /// differs. A new peer is shown by the name it claims (the question about it says it is a claim).
  public static func shownName(_ facts: PeerFacts?, claimed: PeerText, known: KnownPeers?) -> PeerText {
    let decided = ShownName.decided(facts?.trust, certificate: facts?.certificate, known: known)
    return ShownName.label(decided: decided, claimed: claimed)
  }

  /// Known peers whose names look like the one a new key claims (its certificate's or its hello's): none when
  /// the key is known.
  public static func lookalikes(_ facts: PeerFacts?, claiming name: PeerText?, known: KnownPeers?) -> [KnownPeer] {
    if case .trusted(.knownPeer) = facts?.trust { return [] }
    guard let certificate = facts?.certificate, let known else { return [] }
    var found: [KnownPeer] = []
    for entry in known.lookalikes(of: certificate.commonName) + known.lookalikes(of: name?.unsanitised ?? "")
    where entry.fingerprint != certificate.fingerprint
      && !found.contains(where: { $0.fingerprint == entry.fingerprint })
    {
      found.append(entry)
    }
    return found
  }

  /// What to remember of a peer let in without asking: with --accept-new a new peer is remembered like one the
  /// player accepted (so a later change of its key is caught). A host joined by its invite: `joinerRemembers`.
  public static func remembered(_ facts: PeerFacts?, inviteKey: Fingerprint?, boundAddress: String?, known: KnownPeers?)
    -> MatchCommand?
  {
    guard let certificate = facts?.certificate, case .trusted(.acceptedNew) = facts?.trust else { return nil }
    return .remember(name: certificate.commonName, key: certificate.fingerprint, address: boundAddress)
  }

  /// Joiner: what to remember of a host let in without asking, and what the player is told of it. A host joined
  /// by its invite is as `InviteMemory` decides: the invite pins its key for that connection, and never renames,
  /// shadows or rebinds a known peer.
  public static func joinerRemembers(
    _ facts: PeerFacts?, inviteKey: Fingerprint?, boundAddress: String?, known: KnownPeers?
  ) -> [MatchCommand] {
    guard let certificate = facts?.certificate, case .trusted(.pinned) = facts?.trust,
      inviteKey == certificate.fingerprint
    else {
      return remembered(facts, inviteKey: inviteKey, boundAddress: boundAddress, known: known).map { [$0] } ?? []
    }
    guard let known else { return [] }
    let (memory, warnings) = InviteMemory.decide(
      certificateName: certificate.commonName, key: certificate.fingerprint, address: boundAddress, known: known)
    let told: [MatchCommand] =
      warnings.isEmpty ? [] : [.log(warnings.joined(separator: " "))] + warnings.map { .report(.status($0)) }
    switch memory {
    case .nothing: return told
    case .remember(let name, let key, let address): return told + [.remember(name: name, key: key, address: address)]
    case .bind(let key, let address): return told + [.bind(key, address: address)]
    }
  }
}

/// How to decide whether the other player's certificate is acceptable.
public enum TrustPolicy: Sendable, Equatable {
  /// Like OpenSSH: remember each peer's key on first contact and insist on it afterwards.
  /// `file` is the known-peers path shown in messages; with `acceptNew`, unknown peers are
  /// accepted without asking (`TrustReason.acceptedNew`: the caller records them).
  case trustOnFirstUse(known: KnownPeers, file: String, acceptNew: Bool)
  /// Accept only these keys (one, or more for a planned change of identity: any of them is accepted).
  case pinned([PinnedKey])
  /// Accept certificates issued by these authorities (PEM; nil = the system's store), for
  /// `expectedName` (nil = the name the peer is being connected as).
  case certificateAuthority(anchorsPEM: String?, expectedName: String?)
  /// Accept anything. Encrypts, but does not know who is on the other side.
  case insecure
}

/// A trust policy and the checks that go with it.
public struct TrustOptions: Sendable, Equatable {
  public var policy: TrustPolicy
  /// Accept certificates outside their validity dates (for example a friend's expired one).
  public var allowExpired: Bool
  /// Check that the certificate is for the expected name. Only applies with
  /// `.certificateAuthority`: with pinning and first-use trust, the key itself is the identity
  /// and the name is one the peer chose.
  public var verifyName: Bool
  /// A joiner's first-use trust: the address and port as the player typed them ("alice.example:7177"). The
  /// host's key is bound to it, as OpenSSH binds host keys to the host name: another key there is KEY
  /// CHANGED whatever name it claims. Nil for a host, and for a LAN join (the advertised key decides).
  public var boundAddress: String?
  /// With trust on first use: the known peers to judge by, as they are at each handshake, instead of the copy
  /// in `policy` (a bot that adds players while it serves).
  public var sharedKnownPeers: SharedKnownPeers?
  /// With trust on first use: where to look up the lines of known_peers each peer is judged by, when it is judged,
  /// instead of the copy in `policy` (a host or joiner, whose file may be too big to hold).
  public var knownPeersLookup: KnownPeersLookup?

  public init(policy: TrustPolicy, allowExpired: Bool = false, verifyName: Bool = true, boundAddress: String? = nil) {
    self.policy = policy
    self.allowExpired = allowExpired
    self.verifyName = verifyName
    self.boundAddress = boundAddress
  }
}

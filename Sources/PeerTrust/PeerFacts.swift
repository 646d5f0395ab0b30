/// What TLS established about the peer once a connection is secured: the facts trust is decided on. Transport
/// reads them off the handshake and hands them over with the event (`PeerConnection.Arrival.secured`); the
/// deciding parts never go back to the TLS object for them.
public struct PeerFacts: Sendable, Equatable {
  public var certificate: PeerCertificate?
  public var trust: TrustDecision?
  public var verification: VerificationCode?
  public var protocolVersion: String
  public var cipher: String

  public init(
    certificate: PeerCertificate?, trust: TrustDecision?, verification: VerificationCode?, protocolVersion: String,
    cipher: String
  ) {
    self.certificate = certificate
    self.trust = trust
    self.verification = verification
    self.protocolVersion = protocolVersion
    self.cipher = cipher
  }
}

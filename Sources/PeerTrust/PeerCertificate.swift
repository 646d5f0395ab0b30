/// What the other player presented during the handshake, as plain values.
public struct PeerCertificate: Sendable, Equatable {
  /// SHA-256 of the presented public key.
  public let fingerprint: Fingerprint
  /// Subject common name (the name the peer chose, or the name its CA vouched for).
  public let commonName: String
  /// DNS names of the subjectAltName extension.
  public let dnsNames: [String]
  /// Start of validity, seconds since 1970 (UTC).
  public let notBefore: Int64
  /// End of validity, seconds since 1970 (UTC).
  public let notAfter: Int64
  /// Issuer common name (equal to `commonName` for a self-signed certificate).
  public let issuerCommonName: String
  /// Whether the certificate is signed by its own key.
  public let isSelfSigned: Bool
  /// DER of the presented chain, the peer's own certificate first.
  public let chainDER: [[UInt8]]
  /// The presented public key as base64 of its DER SubjectPublicKeyInfo (what a game record keeps), or nil when
  /// it cannot be written out. Made once, with the fingerprint: reading it out of `chainDER` again parses the
  /// certificate (half a practice bot's time at 1000 games, when it was done for every game).
  public let publicKeyBase64: String?

  /// A certificate described field by field, with its public key as base64 of its DER SubjectPublicKeyInfo.
  public init(
    fingerprint: Fingerprint, commonName: String, dnsNames: [String], notBefore: Int64,
    notAfter: Int64, issuerCommonName: String, isSelfSigned: Bool, chainDER: [[UInt8]], publicKeyBase64: String?
  ) {
    self.fingerprint = fingerprint
    self.commonName = commonName
    self.dnsNames = dnsNames
    self.notBefore = notBefore
    self.notAfter = notAfter
    self.issuerCommonName = issuerCommonName
    self.isSelfSigned = isSelfSigned
    self.chainDER = chainDER
    self.publicKeyBase64 = publicKeyBase64
  }
}

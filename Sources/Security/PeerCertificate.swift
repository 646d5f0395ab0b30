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

  /// A certificate described field by field; its public key is read from the first of `chainDER`.
  public init(
    fingerprint: Fingerprint, commonName: String, dnsNames: [String], notBefore: Int64,
    notAfter: Int64, issuerCommonName: String, isSelfSigned: Bool, chainDER: [[UInt8]]
  ) {
    let leaf = chainDER.first.flatMap { try? X509Certificate(der: $0) }
    self.init(
      fingerprint: fingerprint, commonName: commonName, dnsNames: dnsNames, notBefore: notBefore,
      notAfter: notAfter, issuerCommonName: issuerCommonName, isSelfSigned: isSelfSigned, chainDER: chainDER,
      publicKeyBase64: leaf?.publicKeyInfo.map(Base64.encode))
  }

  init(
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

  /// Reads a presented chain (DER, the peer's certificate first).
  public init(chainDER: [[UInt8]]) throws(SecurityError) {
    guard let first = chainDER.first else {
      throw SecurityError.invalidArgument("A certificate chain needs at least one certificate.")
    }
    let leaf = try X509Certificate(der: first)
    guard let certificate = PeerCertificate(leaf: leaf, chainDER: chainDER) else {
      throw SecurityError.invalidPEM(what: "certificate", reason: "its public key cannot be read")
    }
    self = certificate
  }

  /// What a peer using `identity` presents (its certificate, then its chain).
  public init(identity: Identity) {
    var chain = [identity.certificate.der]
    chain += identity.chain.map(\.der)
    self.init(
      fingerprint: identity.fingerprint, commonName: identity.commonName,
      dnsNames: identity.certificate.dnsNames, notBefore: identity.notBefore,
      notAfter: identity.notAfter, issuerCommonName: identity.certificate.issuerCommonName,
      isSelfSigned: identity.certificate.isSelfSigned, chainDER: chain, publicKeyBase64: identity.publicKeyBase64)
  }

  init?(leaf: X509Certificate, chainDER: [[UInt8]]) {
    guard let fingerprint = leaf.fingerprint else { return nil }
    self.init(
      fingerprint: fingerprint, commonName: leaf.commonName, dnsNames: leaf.dnsNames,
      notBefore: leaf.notBefore, notAfter: leaf.notAfter,
      issuerCommonName: leaf.issuerCommonName, isSelfSigned: leaf.isSelfSigned, chainDER: chainDER,
      publicKeyBase64: leaf.publicKeyInfo.map(Base64.encode))
  }
}

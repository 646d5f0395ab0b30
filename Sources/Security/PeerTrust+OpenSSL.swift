import PeerTrust

// The parts of PeerTrust's values that need OpenSSL (a certificate parsed, a key hashed) or the system clock.

extension CalendarDay {
  /// Today in UTC.
  public static func today() -> CalendarDay {
    CalendarDay(secondsSince1970: UTCCalendar.now())
  }
}

extension Fingerprint {
  /// The fingerprint of a public key given as base64 of its DER SubjectPublicKeyInfo (as game records keep keys);
  /// nil when the text is not base64.
  public init?(publicKeyBase64 text: String) {
    guard let der = Base64.decode(text), !der.isEmpty else { return nil }
    self.init(bytes: Digest.sha256(der))
  }
}

extension PeerCertificate {
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

extension PinnedKey {
  /// The key of the certificate in `bytes` (PEM or DER), as AFSecurityPolicy pins a bundled certificate in
  /// public-key mode: renewing the certificate with the same key keeps the pin.
  public static func fromCertificate(_ bytes: [UInt8], file: String) throws(SecurityError) -> PinnedKey {
    let text = String(decoding: bytes, as: UTF8.self)
    let certificate: X509Certificate
    if text.contains("-----BEGIN CERTIFICATE-----") {
      guard let first = try X509Certificate.parseAll(pem: text, what: "certificate in \(file)").first else {
        throw .corruptFile(path: file, reason: "it holds no certificate")
      }
      certificate = first
    } else {
      do {
        certificate = try X509Certificate(der: bytes)
      } catch {
        throw .corruptFile(path: file, reason: "it is neither a PEM nor a DER certificate")
      }
    }
    guard let fingerprint = certificate.fingerprint else {
      throw .corruptFile(path: file, reason: "its public key cannot be read")
    }
    return PinnedKey(fingerprint, source: "the key in \(file)")
  }
}

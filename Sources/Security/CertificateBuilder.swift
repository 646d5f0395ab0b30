import COpenSSL
import PeerTrust

/// Builds and signs X.509 v3 certificates for `Identity.generate`.
enum CertificateBuilder {
  static func build(
    commonName: String, key: PrivateKey, validDays: Int, notBefore: Int64?,
    issuer: Identity?, isAuthority: Bool
  ) throws(SecurityError) -> X509Certificate {
    guard !commonName.isEmpty, commonName.utf8.count <= 64 else {
      throw SecurityError.invalidArgument("A name must have between 1 and 64 bytes, not \(commonName.utf8.count).")
    }
    guard validDays > 0, validDays <= 36_500 else {
      throw SecurityError.invalidArgument("A certificate must be valid for 1 to 36500 days, not \(validDays).")
    }
    guard let raw = X509_new() else { throw OpenSSLErrorQueue.error("create a certificate") }
    let certificate = X509Certificate(owning: raw)
    let x509 = certificate.pointer
    guard X509_set_version(x509, 2) == 1 else { throw OpenSSLErrorQueue.error("set the certificate version") }
    try setRandomSerial(x509)

    let start = notBefore ?? UTCCalendar.now()
    let end = start + Int64(validDays) * 86_400
    guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(start)) != nil,
      ASN1_TIME_set(X509_getm_notAfter(x509), time_t(end)) != nil
    else { throw OpenSSLErrorQueue.error("set the certificate's validity dates") }

    guard let subject = X509_get_subject_name(x509),
      X509_NAME_add_entry_by_txt(subject, "CN", tictactoe_MBSTRING_UTF8(), commonName, -1, -1, 0) == 1
    else { throw OpenSSLErrorQueue.error("set the certificate's name") }
    let issuerCertificate = issuer?.certificate ?? certificate
    guard X509_set_issuer_name(x509, X509_get_subject_name(issuerCertificate.pointer)) == 1,
      X509_set_pubkey(x509, key.pointer) == 1
    else { throw OpenSSLErrorQueue.error("set the certificate's issuer and key") }

    try addExtensions(
      to: x509, issuedBy: issuerCertificate.pointer, commonName: commonName, hasIssuer: issuer != nil,
      isAuthority: isAuthority)

    let signer = issuer?.key ?? key
    guard X509_sign(x509, signer.pointer, EVP_sha256()) > 0 else {
      throw OpenSSLErrorQueue.error("sign the certificate")
    }
    return certificate
  }

  /// The X.509 v3 extensions: an authority's constraints and key usage, or a player's (with its name as a DNS
  /// subjectAltName when it is a valid host name), the key identifiers, and the issuer's key identifier when
  /// another certificate signs.
  private static func addExtensions(
    to x509: OpaquePointer, issuedBy issuerCertificate: OpaquePointer, commonName: String, hasIssuer: Bool,
    isAuthority: Bool
  ) throws(SecurityError) {
    var context = X509V3_CTX()
    X509V3_set_ctx(&context, issuerCertificate, x509, nil, nil, 0)
    var extensions: [(Int32, String)] = []
    if isAuthority {
      extensions.append((NID_basic_constraints, "critical,CA:TRUE"))
      extensions.append((NID_key_usage, "critical,keyCertSign,cRLSign"))
    } else {
      extensions.append((NID_basic_constraints, "critical,CA:FALSE"))
      extensions.append((NID_key_usage, "critical,digitalSignature"))
      extensions.append((NID_ext_key_usage, "serverAuth,clientAuth"))
      if HostName.isValid(commonName) {
        extensions.append((NID_subject_alt_name, "DNS:" + commonName))
      }
    }
    extensions.append((NID_subject_key_identifier, "hash"))
    if hasIssuer {
      extensions.append((NID_authority_key_identifier, "keyid:always"))
    }
    for (nid, value) in extensions {
      guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
        throw OpenSSLErrorQueue.error("build the certificate extension \(value)")
      }
      let owned = OpenSSLObject(made) { X509_EXTENSION_free($0) }
      guard X509_add_ext(x509, owned.pointer, -1) == 1 else {
        throw OpenSSLErrorQueue.error("add the certificate extension \(value)")
      }
    }
  }

  /// A random positive 128-bit serial number.
  private static func setRandomSerial(_ x509: OpaquePointer) throws(SecurityError) {
    var serial = [UInt8](repeating: 0, count: 16)
    guard RAND_bytes(&serial, Int32(serial.count)) == 1 else {
      throw OpenSSLErrorQueue.error("draw a random serial number")
    }
    serial[0] &= 0x7F
    serial[0] |= 0x01  // keep it 16 bytes long and positive
    guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else {
      throw OpenSSLErrorQueue.error("make a serial number")
    }
    let owned = OpenSSLObject(number) { BN_free($0) }
    guard BN_to_ASN1_INTEGER(owned.pointer, X509_get_serialNumber(x509)) != nil else {
      throw OpenSSLErrorQueue.error("set the serial number")
    }
  }
}

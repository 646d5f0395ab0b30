import COpenSSL
import PeerTrust

/// A player's identity: a private key and the certificate that presents its public key.
///
/// Sendable because it is immutable after init: the OpenSSL key and certificates are only read
/// (OpenSSL 3 allows concurrent reads and reference counting of `EVP_PKEY` and `X509`), and
/// every Swift property is a `let`.
public final class Identity: @unchecked Sendable {
  let key: PrivateKey
  let certificate: X509Certificate
  /// Extra certificates sent along with ours (intermediate CAs), leaf's issuer first.
  let chain: [X509Certificate]

  /// The certificate in PEM.
  public let certificatePEM: String
  /// The private key as unencrypted PKCS#8 PEM. Store it only in a file only you can read.
  public let privateKeyPEM: String
  /// The extra certificates (from a CA-signed bundle or PKCS#12) in PEM, nil when there are none.
  public let chainPEM: String?
  /// SHA-256 of the public key: what other players pin or remember.
  public let fingerprint: Fingerprint
  /// The certificate's subject common name (the player's name).
  public let commonName: String
  /// Start of validity in seconds since 1970 (UTC).
  public let notBefore: Int64
  /// End of validity in seconds since 1970 (UTC).
  public let notAfter: Int64
  /// The key's signing context, set up once (`sign`).
  let signing: SigningTemplate

  init(key: PrivateKey, certificate: X509Certificate, chain: [X509Certificate]) throws(SecurityError) {
    guard key.matches(certificate) else { throw SecurityError.keyDoesNotMatchCertificate }
    guard let fingerprint = certificate.fingerprint else {
      throw OpenSSLErrorQueue.error("read the certificate's public key")
    }
    self.key = key
    self.certificate = certificate
    self.chain = chain
    self.certificatePEM = try certificate.pem()
    self.privateKeyPEM = try key.pem()
    var chainText = ""
    for extra in chain { chainText += try extra.pem() }
    self.chainPEM = chain.isEmpty ? nil : chainText
    self.fingerprint = fingerprint
    self.commonName = certificate.commonName
    self.notBefore = certificate.notBefore
    self.notAfter = certificate.notAfter
    signing = SigningTemplate(key: key.pointer)
  }

  /// Loads an identity from PEM. `certificatePEM` may be a bundle: the first certificate is
  /// the player's, the others are sent along as the chain. Refuses a key that does not belong
  /// to the certificate and a passphrase-protected key.
  public convenience init(certificatePEM: String, privateKeyPEM: String) throws(SecurityError) {
    let certificates = try X509Certificate.parseAll(pem: certificatePEM, what: "certificate")
    let key = try PrivateKey.parse(pem: privateKeyPEM)
    try self.init(key: key, certificate: certificates[0], chain: Array(certificates.dropFirst()))
  }
}

extension Identity {
  /// This identity's public key as base64 of its DER SubjectPublicKeyInfo (what a game record keeps).
  public var publicKeyBase64: String? { certificate.publicKeyInfo.map(Base64.encode) }
}

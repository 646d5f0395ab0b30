/// A key the player pinned, and where the pin came from (for refusals that name every pin tried).
public struct PinnedKey: Sendable, Hashable, CustomStringConvertible {
  public let fingerprint: Fingerprint
  /// "--pin", or the certificate file the key was read from.
  public let source: String

  public init(_ fingerprint: Fingerprint, source: String = "--pin") {
    self.fingerprint = fingerprint
    self.source = source
  }

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

  /// "SHA256:… (--pin)", "SHA256:… (the key in alice.crt)".
  public var description: String { "\(fingerprint) (\(source))" }
}

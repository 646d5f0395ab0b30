import COpenSSL

/// An OpenSSL `EVP_PKEY` private key owned by Swift.
final class PrivateKey {
  let pointer: OpaquePointer

  /// Takes ownership of one reference to `pointer`.
  init(owning pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    EVP_PKEY_free(pointer)
  }

  /// A fresh NIST P-256 key.
  static func generateP256() throws(SecurityError) -> PrivateKey {
    guard let key = tictactoe_generate_P256() else {
      throw OpenSSLErrorQueue.error("generate a P-256 key")
    }
    return PrivateKey(owning: key)
  }

  /// Parses an unencrypted PEM private key (PKCS#8, or the traditional EC/RSA forms).
  static func parse(pem: String) throws(SecurityError) -> PrivateKey {
    if pem.contains("ENCRYPTED") { throw SecurityError.encryptedPrivateKey }
    let bio = try MemoryBIO(text: pem)
    OpenSSLErrorQueue.clear()
    // A callback that supplies no passphrase: OpenSSL must never prompt on the terminal.
    let noPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
      _, _, _, _ in -1
    }
    guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, noPassphrase, nil) else {
      let reasons = OpenSSLErrorQueue.drain()
      throw SecurityError.invalidPEM(
        what: "private key",
        reason: reasons.isEmpty ? "no BEGIN PRIVATE KEY block found" : reasons.joined(separator: "; "))
    }
    return PrivateKey(owning: key)
  }

  /// Unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`).
  func pem() throws(SecurityError) -> String {
    let bio = try MemoryBIO()
    guard PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil) == 1 else {
      throw OpenSSLErrorQueue.error("encode the private key as PEM")
    }
    return bio.readString()
  }

  /// Whether this key belongs to `certificate`.
  func matches(_ certificate: X509Certificate) -> Bool {
    let matches = X509_check_private_key(certificate.pointer, pointer) == 1
    OpenSSLErrorQueue.clear()
    return matches
  }
}

import COpenSSL

extension Identity {
  /// Loads an identity from a PKCS#12 (.p12/.pfx) file's bytes. A wrong password is reported
  /// as `SecurityError.wrongPassword` (naming `passwordFile`, where the password came from, if it came from
  /// one); with no password given (nil), a file that needs one is `SecurityError.passwordNeeded`. Extra
  /// certificates become the chain.
  public convenience init(pkcs12 bytes: [UInt8], password: String?, passwordFile: String? = nil)
    throws(SecurityError)
  {
    OpenSSLErrorQueue.clear()
    let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
      var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
      return d2i_PKCS12(nil, &cursor, buffer.count)
    }
    guard let parsed else {
      throw SecurityError.invalidPKCS12(
        reason: "the data is not PKCS#12 (\(OpenSSLErrorQueue.drain().joined(separator: "; ")))")
    }
    let container = OpenSSLObject(parsed) { PKCS12_free($0) }
    if PKCS12_mac_present(container.pointer) == 1 && PKCS12_verify_mac(container.pointer, password ?? "", -1) != 1 {
      OpenSSLErrorQueue.clear()
      throw password == nil ? SecurityError.passwordNeeded : SecurityError.wrongPassword(passwordFile: passwordFile)
    }
    let password = password ?? ""
    var rawKey: OpaquePointer?
    var rawCertificate: OpaquePointer?
    var rawExtras: OpaquePointer?
    let ok = PKCS12_parse(container.pointer, password, &rawKey, &rawCertificate, &rawExtras)
    let key = rawKey.map { PrivateKey(owning: $0) }
    let certificate = rawCertificate.map { X509Certificate(owning: $0) }
    var extras: [X509Certificate] = []
    if let rawExtras {
      for index in 0..<tictactoe_sk_X509_num(rawExtras) {
        if let extra = tictactoe_sk_X509_value(rawExtras, index), let owned = X509Certificate(retaining: extra) {
          extras.append(owned)
        }
      }
      tictactoe_sk_X509_pop_free(rawExtras)
    }
    guard ok == 1 else {
      throw SecurityError.invalidPKCS12(reason: OpenSSLErrorQueue.drain().joined(separator: "; "))
    }
    guard let key else { throw SecurityError.invalidPKCS12(reason: "it holds no private key") }
    guard let certificate else { throw SecurityError.invalidPKCS12(reason: "it holds no certificate") }
    try self.init(key: key, certificate: certificate, chain: extras)
  }

  /// The identity (key, certificate and chain) as PKCS#12 bytes protected by `password`
  /// (OpenSSL 3 defaults: AES-256-CBC with PBKDF2, HMAC-SHA-256 integrity).
  public func pkcs12(password: String) throws(SecurityError) -> [UInt8] {
    guard let stack = tictactoe_sk_X509_new_null() else {
      throw OpenSSLErrorQueue.error("prepare the certificate list")
    }
    let extras = OpenSSLObject(stack) { tictactoe_sk_X509_pop_free($0) }
    for certificate in chain where tictactoe_sk_X509_push_up_ref(extras.pointer, certificate.pointer) != 1 {
      throw OpenSSLErrorQueue.error("prepare the certificate list")
    }
    guard
      let made = PKCS12_create(
        password, commonName, key.pointer, certificate.pointer, extras.pointer, 0, 0, 0, 0, 0)
    else { throw OpenSSLErrorQueue.error("build the PKCS#12 file") }
    let container = OpenSSLObject(made) { PKCS12_free($0) }
    let length = i2d_PKCS12(container.pointer, nil)
    guard length > 0 else { throw OpenSSLErrorQueue.error("encode the PKCS#12 file") }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    let written = bytes.withUnsafeMutableBufferPointer { buffer in
      var cursor = buffer.baseAddress
      return i2d_PKCS12(container.pointer, &cursor)
    }
    guard written == length else { throw OpenSSLErrorQueue.error("encode the PKCS#12 file") }
    return bytes
  }
}

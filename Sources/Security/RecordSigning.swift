import COpenSSL
import PeerTrust

/// Signatures over game records: an identity signs bytes with its key (ECDSA or RSA with SHA-256; Ed25519 and
/// Ed448 sign the bytes themselves), and anyone checks them against a public key as records keep it (base64 DER
/// SubjectPublicKeyInfo).
public enum RecordSignature {
  /// Whether `signature` is `publicKey`'s over `bytes`, in the plain form or the batch form
  /// (`RecordBatchSignature`); false for a key or signature that does not parse.
  public static func verify(_ signature: [UInt8], of bytes: [UInt8], publicKeyBase64: String) -> Bool {
    // An Ed25519 signature (64 raw bytes) may start with the batch form's byte too: it is tried both ways.
    if signature.first == RecordBatchSignature.form,
      let (root, der) = RecordBatchSignature.opened(signature, signedBytes: bytes),
      verifyPlain(der, of: root, publicKeyBase64: publicKeyBase64)
    {
      return true
    }
    return verifyPlain(signature, of: bytes, publicKeyBase64: publicKeyBase64)
  }

  private static func verifyPlain(_ signature: [UInt8], of bytes: [UInt8], publicKeyBase64: String) -> Bool {
    guard let der = Base64.decode(publicKeyBase64), !der.isEmpty else { return false }
    let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
      var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
      return d2i_PUBKEY(nil, &cursor, buffer.count)
    }
    guard let key else {
      OpenSSLErrorQueue.clear()
      return false
    }
    defer { EVP_PKEY_free(key) }
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    let ok =
      EVP_DigestVerifyInit(context, nil, digest(for: key), nil, key) == 1
      && EVP_DigestVerify(context, signature, signature.count, bytes, bytes.count) == 1
    OpenSSLErrorQueue.clear()
    return ok
  }

  /// SHA-256, or none for the keys that sign the message itself.
  static func digest(for key: OpaquePointer) -> OpaquePointer? {
    let type = EVP_PKEY_get_base_id(key)
    return type == EVP_PKEY_ED25519 || type == EVP_PKEY_ED448 ? nil : EVP_sha256()
  }
}

extension Identity {
  /// This identity's signature over `bytes` (DER ECDSA for the P-256 keys the game makes).
  public func sign(_ bytes: [UInt8]) throws(SecurityError) -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("allocate a signing context") }
    defer { EVP_MD_CTX_free(context) }
    guard
      signing.copy(into: context)
        || EVP_DigestSignInit(context, nil, RecordSignature.digest(for: key.pointer), nil, key.pointer) == 1
    else {
      throw OpenSSLErrorQueue.error("start signing")
    }
    var length = 0
    guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else {
      throw OpenSSLErrorQueue.error("size a signature")
    }
    var signature = [UInt8](repeating: 0, count: length)
    guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else {
      throw OpenSSLErrorQueue.error("sign a game record")
    }
    return Array(signature.prefix(length))
  }
}

/// Base64 for records, as `openssl base64 -A` writes it.
public enum RecordBase64 {
  public static func encode(_ bytes: [UInt8]) -> String { Base64.encode(bytes) }
  public static func decode(_ text: String) -> [UInt8]? { Base64.decode(text) }
}

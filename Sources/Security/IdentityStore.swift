/// Keeps the player's identity in a private directory as `identity.crt` and `identity.key`.
///
/// The directory is made 0700 and the key file 0600; files are written atomically. A damaged
/// or half-present identity is reported with its path and never silently replaced, because a
/// new key would make every known peer see a "key changed" warning.
public struct IdentityStore: Sendable {
  /// The directory holding the two files.
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// Path of the certificate file (PEM; may be a bundle with the chain after the certificate).
  public var certificatePath: String { FileSystem.join(directory, "identity.crt") }
  /// Path of the private key file (unencrypted PKCS#8 PEM, mode 0600).
  public var keyPath: String { FileSystem.join(directory, "identity.key") }

  /// The stored identity, or nil when neither file exists.
  public func load() throws(SecurityError) -> Identity? {
    let certificateBytes = try FileSystem.read(certificatePath)
    let keyBytes = try FileSystem.read(keyPath)
    switch (certificateBytes, keyBytes) {
    case (nil, nil):
      return nil
    case (.some, nil):
      throw SecurityError.incompleteIdentity(present: certificatePath, missing: keyPath)
    case (nil, .some):
      throw SecurityError.incompleteIdentity(present: keyPath, missing: certificatePath)
    case (.some(let certificateBytes), .some(let keyBytes)):
      let certificateText = String(decoding: certificateBytes, as: UTF8.self)
      let keyText = String(decoding: keyBytes, as: UTF8.self)
      let key: PrivateKey
      do {
        key = try PrivateKey.parse(pem: keyText)
      } catch {
        throw SecurityError.corruptFile(path: keyPath, reason: error.description)
      }
      let certificates: [X509Certificate]
      do {
        certificates = try X509Certificate.parseAll(pem: certificateText, what: "certificate")
      } catch {
        throw SecurityError.corruptFile(path: certificatePath, reason: error.description)
      }
      do {
        return try Identity(key: key, certificate: certificates[0], chain: Array(certificates.dropFirst()))
      } catch .keyDoesNotMatchCertificate {
        throw SecurityError.corruptFile(
          path: keyPath, reason: "this key does not belong to the certificate in \(certificatePath)")
      }
    }
  }

  /// The stored identity, or a new one for `commonName` when there is none yet
  /// (`created` tells which, so the app can show the new fingerprint).
  public func loadOrCreate(commonName: String) throws(SecurityError) -> (Identity, created: Bool) {
    if let existing = try load() { return (existing, false) }
    let identity = try Identity.generate(commonName: commonName)
    try replace(with: identity)
    return (identity, true)
  }

  /// Stores `identity` (a new or imported one) in place of the current one.
  /// The key is written first, each file atomically.
  public func replace(with identity: Identity) throws(SecurityError) {
    try FileSystem.ensurePrivateDirectory(directory)
    try FileSystem.writeAtomically(keyPath, bytes: Array(identity.privateKeyPEM.utf8), mode: 0o600)
    let bundle = identity.certificatePEM + (identity.chainPEM ?? "")
    try FileSystem.writeAtomically(certificatePath, bytes: Array(bundle.utf8), mode: 0o644)
  }
}

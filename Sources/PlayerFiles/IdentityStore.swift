import Glibc
import PeerTrust
import Security

/// Keeps the player's identity in a private directory as `identity.crt` and `identity.key`.
///
/// The directory is made 0700 and the key file 0600; files are written atomically. A damaged
/// or half-present identity is reported with its path and never silently replaced, because a
/// new key would make every known peer see a "key changed" warning.
///
/// The two files change together: a replacement first writes both into `identity.pending`
/// (atomically, 0600), then each file, then removes the pending file. A process killed half-way
/// leaves the pending file, and the next load finishes the replacement from it, so the key and
/// the certificate never come from two different identities.
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
  /// Path of a replacement in progress: the new key then the new certificates (PEM, mode 0600).
  public var pendingPath: String { FileSystem.join(directory, "identity.pending") }
  /// Path of the identity the last replacement replaced, in the pending file's form (key then certificates,
  /// mode 0600), so a replacement made by mistake can be undone: `tictactoe identity import P P` with this path.
  public var previousPath: String { FileSystem.join(directory, "identity.previous") }
  /// Path of the list of the player's own earlier public keys (`OwnKeys`), one added by each replacement.
  public var pastKeysPath: String { FileSystem.join(directory, "identity.past") }

  /// The stored identity, or nil when neither file exists. A replacement that was cut short is
  /// finished first.
  /// Refuses a private key that is not the user's own, or that group or others may read or write, and a
  /// directory holding it that others may write (they could swap the key): OpenSSH's rule for its keys.
  static func checkPrivate(_ key: String, directory: String) throws(SecurityError) {
    var info = stat()
    // A directory in its place is damage: reading it fails and says so.
    guard lstat(key, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return }
    if info.st_mode & S_IFMT != S_IFREG {
      throw .exposedPrivateKey(path: key, reason: "is not a plain file", fix: "ls -l \(key)")
    }
    // The one rule for the player's files (the directory's owner and mode too), and not readable by others.
    if let (reason, fix) = FileExposure.problem(file: key, secret: true) {
      throw .exposedPrivateKey(path: key, reason: reason, fix: fix)
    }
  }

  /// The private key file at `path` (the key, or a pending replacement), checked before it is opened and on its
  /// descriptor: nil when there is none.
  static func readPrivate(_ path: String, directory: String) throws(SecurityError) -> [UInt8]? {
    try checkPrivate(path, directory: directory)
    switch FileExposure.read(path, secret: true) {
    case .contents(let bytes): return bytes
    case .missing: return nil
    case .exposed(let reason, let fix): throw .exposedPrivateKey(path: path, reason: reason, fix: fix)
    case .unreadable(let reason): throw .unreadableFile(path: path, reason: reason)
    }
  }

  public func load() throws(SecurityError) -> Identity? {
    if let pending = try Self.readPrivate(pendingPath, directory: directory) {
      let text = String(decoding: pending, as: UTF8.self)
      let identity: Identity
      do {
        identity = try Identity(certificatePEM: text, privateKeyPEM: text)
      } catch {
        throw SecurityError.corruptFile(path: pendingPath, reason: error.description)
      }
      try finishReplacing(with: identity)
      return identity
    }
    let certificateBytes = try FileSystem.read(certificatePath)
    let keyBytes = try Self.readPrivate(keyPath, directory: directory)
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
      return try Identity.stored(
        certificatePEM: certificateText, keyPEM: keyText, certificatePath: certificatePath, keyPath: keyPath)
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

  /// Stores `identity` (a new or imported one) in place of the current one: both files or,
  /// if the process dies half-way, neither until the next load finishes the job. The current one, if there is
  /// one, is first kept at `previousPath` (the last one only), and that path is returned.
  @discardableResult
  public func replace(with identity: Identity) throws(SecurityError) -> String? {
    try FileSystem.ensurePrivateDirectory(directory)
    // The old one as it loads, else (damaged, or exposed) its files' bytes as they are, so nothing is lost.
    var old: [UInt8]?
    do {
      if let loaded = try load(), loaded.fingerprint != identity.fingerprint {
        old = Array((loaded.privateKeyPEM + certificateBundle(loaded)).utf8)
        try remember(loaded)
      }
    } catch {
      let files = [keyPath, certificatePath].compactMap { try? FileSystem.read($0) }
      old = files.isEmpty ? nil : files.flatMap { $0 }
    }
    if let old { try FileSystem.writeAtomically(previousPath, bytes: old, mode: 0o600) }
    let kept = old == nil ? nil : previousPath
    let both = identity.privateKeyPEM + certificateBundle(identity)
    try FileSystem.writeAtomically(pendingPath, bytes: Array(both.utf8), mode: 0o600)
    try finishReplacing(with: identity)
    return kept
  }

  /// Adds a replaced identity's public key to the list of past keys (once), so its games stay the player's; and
  /// the key kept at `previousPath` too, which the replacement is about to overwrite.
  private func remember(_ replaced: Identity) throws(SecurityError) {
    let listed = pastKeysListed()
    var adding: [String] = []
    for key in ownKeys().past + [replaced.publicKeyBase64].compactMap({ $0 })
    where !listed.contains(key) && !adding.contains(key) {
      adding.append(key)
    }
    let lines = adding.compactMap { key in
      Fingerprint(publicKeyBase64: key).map { OwnKeys.line(for: key, fingerprint: $0) }
    }
    guard !lines.isEmpty else { return }
    let text = (FileSystem.exists(pastKeysPath) ? "" : OwnKeys.header) + lines.joined()
    try FileSystem.append(pastKeysPath, bytes: Array(text.utf8), mode: 0o600)
  }

  /// The keys the list of past keys holds (none when it is missing or cannot be read).
  private func pastKeysListed() -> [String] {
    ((try? FileSystem.read(pastKeysPath)) ?? nil).map {
      OwnKeys.pastKeys(fromText: String(decoding: $0, as: UTF8.self))
    }
      ?? []
  }

  /// The player's keys: the one in use and the earlier ones (the list of past keys, and the identity kept at
  /// `previousPath`, which a replacement made before there was a list left behind). A file that cannot be read
  /// gives no keys: it can only make old games look like strangers' games, never a stranger's look like the
  /// player's.
  public func ownKeys() -> OwnKeys {
    let current = (try? load())??.publicKeyBase64
    var past = pastKeysListed()
    // identity.previous holds the key then the certificates, as the pending file does.
    if let bytes = (try? FileSystem.read(previousPath)) ?? nil,
      let previous = try? Identity(
        certificatePEM: String(decoding: bytes, as: UTF8.self), privateKeyPEM: String(decoding: bytes, as: UTF8.self)),
      let key = previous.publicKeyBase64, !past.contains(key)
    {
      past.append(key)
    }
    return OwnKeys(current: current, past: past)
  }

  /// Writes the key and then the certificate, each atomically, then drops the pending file.
  private func finishReplacing(with identity: Identity) throws(SecurityError) {
    try FileSystem.writeAtomically(keyPath, bytes: Array(identity.privateKeyPEM.utf8), mode: 0o600)
    try FileSystem.writeAtomically(certificatePath, bytes: Array(certificateBundle(identity).utf8), mode: 0o644)
    try FileSystem.remove(pendingPath)
  }

  private func certificateBundle(_ identity: Identity) -> String {
    identity.certificatePEM + (identity.chainPEM ?? "")
  }
}

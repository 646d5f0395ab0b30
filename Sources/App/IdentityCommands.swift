import Security
import UntrustedText

/// `tictactoe identity` and `tictactoe peers`: look after the player's key and the peers it knows.
enum IdentityCommands {
  static func run(_ command: IdentityCommand, profile: Profile) -> Int32 {
    let store = IdentityStore(directory: profile.identityDirectory)
    do {
      switch command {
      case .show:
        let (identity, created) = try store.loadOrCreate(commonName: profile.name)
        writeAll(1, "\(identity.fingerprint)\n")
        writeAll(1, "read aloud: \(identity.fingerprint.readAloud)\n")
        writeAll(1, "name: \(identity.commonName)\n")
        writeAll(1, "certificate: \(store.certificatePath)\(created ? " (new)" : "")\n")
      case .new:
        let identity = try Identity.generate(commonName: profile.name)
        try store.replace(with: identity)
        writeAll(1, "\(identity.fingerprint)\n")
        writeAll(1, "read aloud: \(identity.fingerprint.readAloud)\n")
        writeAll(1, "A new identity for \(profile.name); peers who knew the old key will see it as changed.\n")
      case .importPEM(let certificate, let key):
        let identity = try Identity(certificatePEM: try text(certificate), privateKeyPEM: try text(key))
        try store.replace(with: identity)
        writeAll(1, "\(identity.fingerprint)\nimported \(identity.commonName)\n")
      case .importPKCS12(let file, let passwordFile):
        guard let data = PosixFiles.read(file) else {
          throw FileError(path: file, reason: "cannot be read")
        }
        let password = try passwordFile.map { try text($0).trimmingNewlines() } ?? ""
        let identity = try Identity(pkcs12: data, password: password)
        try store.replace(with: identity)
        writeAll(1, "\(identity.fingerprint)\nimported \(identity.commonName)\n")
      case .exportCertificate:
        let (identity, _) = try store.loadOrCreate(commonName: profile.name)
        writeAll(1, identity.certificatePEM)
      }
      return ExitStatus.ok
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
  }

  static func run(_ command: PeersCommand, profile: Profile) -> Int32 {
    let file = KnownPeersFile(path: profile.knownPeersPath)
    do {
      var peers = try file.load()
      switch command {
      case .list:
        if peers.entries.isEmpty { writeAll(1, "No known peers yet (\(profile.knownPeersPath)).\n") }
        for entry in peers.entries {
          writeAll(1, "\(PeerText(entry.name))\t\(entry.fingerprint)\tsince \(entry.added)\n")
        }
      case .forget(let what):
        let removed = peers.remove(nameOrFingerprint: what)
        guard removed > 0 else {
          writeError("tictactoe: no known peer is called or has the key \(VisibleText.escaping(what))\n")
          return ExitStatus.failure
        }
        try file.save(peers)
        writeAll(1, "Forgot \(removed) key\(removed == 1 ? "" : "s") for \(VisibleText.escaping(what)).\n")
      }
      return ExitStatus.ok
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
  }

  private static func text(_ path: String) throws -> String {
    guard let data = PosixFiles.read(path) else {
      throw FileError(path: path, reason: "cannot be read")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

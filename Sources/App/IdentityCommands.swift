import Glibc
import Security
import UntrustedText
import WireProtocol

/// `tictactoe identity` and `tictactoe peers`: look after the player's key and the peers it knows.
enum IdentityCommands {
  /// Asks at the terminal before an identity is replaced; false when the answer is not yes, or there is no
  /// terminal to ask at.
  private static func confirmReplacing(_ old: Identity) -> Bool {
    guard isatty(0) == 1 else { return false }
    writeAll(
      2,
      "Replace your identity \(old.fingerprint)? Every friend who knows you will see your key as changed "
        + "(KEY CHANGED) until they forget the old one. [y/N] ")
    var reader = LineReader(fd: 0)
    var lines: [String] = []
    while lines.isEmpty && !reader.closed { lines = reader.readLines() }
    return ["y", "yes"].contains(lines.first?.trimmingWhitespace().lowercased() ?? "")
  }

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
      case .new(let confirmed):
        let old = try store.load()
        // The name stays the one friends know; only the key changes.
        let name = old?.commonName ?? profile.name
        if let old, !confirmed {
          guard confirmReplacing(old) else {
            writeError(
              "tictactoe: your identity was kept (\(old.fingerprint)). To replace it, answer y at a terminal or "
                + "run `tictactoe identity new --yes`.\n")
            return ExitStatus.failure
          }
        }
        let identity = try Identity.generate(commonName: name)
        try store.replace(with: identity)
        writeAll(1, "\(identity.fingerprint)\n")
        writeAll(1, "read aloud: \(identity.fingerprint.readAloud)\n")
        writeAll(
          1,
          "A new identity for \(PeerText(name)). Every friend who knew the old key will see KEY CHANGED when you "
            + "next play: tell them by another way, and give them the new fingerprint.\n")
      case .importPEM(let certificate, let key):
        let identity = try Identity(certificatePEM: try text(certificate), privateKeyPEM: try text(key))
        try store.replace(with: identity)
        writeAll(1, "\(identity.fingerprint)\nimported \(identity.commonName)\n")
      case .importPKCS12(let file, let passwordFile):
        guard let data = PosixFiles.read(file) else {
          throw FileError.unreadable(file)
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
        let records = OpponentRecords.load(profile)
        for entry in peers.entries {
          // The record against that key, from the saved games, when there are any.
          let tally = records.byFingerprint[entry.fingerprint].map { "\t\($0)" } ?? ""
          writeAll(1, "\(PeerText(entry.name))\t\(entry.fingerprint)\tsince \(entry.added)\(tally)\n")
        }
        if let line = records.computerLine { writeAll(1, line + "\n") }
      case .rename(let what, let newName):
        if let problem = petnameProblem(newName) {
          writeError("tictactoe: \(VisibleText.escaping(newName)) cannot be a name: \(problem)\n")
          return ExitStatus.usage
        }
        let renamed = peers.rename(nameOrFingerprint: what, to: newName)
        guard renamed > 0 else {
          writeError("tictactoe: no known peer is called or has the key \(VisibleText.escaping(what))\n")
          return ExitStatus.failure
        }
        try file.save(peers)
        writeAll(1, "Renamed \(renamed) key\(renamed == 1 ? "" : "s") to \(VisibleText.escaping(newName)).\n")
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

  /// Why `name` cannot be the name a player gives a peer: the rules of names on the wire (no control,
  /// bidirectional or invisible characters, not only spaces, at most 32 characters).
  static func petnameProblem(_ name: String) -> String? {
    if name.isEmpty || name.allSatisfy(\.isWhitespace) { return "it is empty or only spaces" }
    if name.unicodeScalars.contains(where: VisibleText.isUnsafe) {
      return "it contains a control, bidirectional or invisible character"
    }
    if name.count > Message.maximumNameCharacters {
      return "it has \(name.count) characters (at most \(Message.maximumNameCharacters))"
    }
    return nil
  }

  private static func text(_ path: String) throws -> String {
    guard let data = PosixFiles.read(path) else {
      throw FileError.unreadable(path)
    }
    return String(decoding: data, as: UTF8.self)
  }
}

import FrontEnds
import Glibc
import NetworkShell
import OutsideEngines
import PeerTrust
import PlayerFiles
import Security
import UntrustedText
import WireProtocol

/// `tictactoe identity` and `tictactoe peers`: look after the player's key and the peers it knows.
enum IdentityCommands {
  /// Asks at the terminal before an identity is replaced (by `new` when `replacement` is nil); false when the
  /// answer is not yes, or there is no terminal to ask at.
  private static func confirmReplacing(_ old: Identity, with replacement: Identity?) -> Bool {
    let by = replacement.map { " with \($0.fingerprint) (\(VisibleText.escaping($0.commonName)))" } ?? ""
    return YesOrNo.ask(
      "Replace your identity \(old.fingerprint)\(by)? Every friend who knows you will see your key as changed "
        + "(KEY CHANGED) until they forget the old one.") ?? false
  }

  /// The password of `file`, typed at the terminal with echo off; nil when there is no terminal or the player
  /// gave up (Ctrl-C or Ctrl-D). Signals are off while it is typed, as getpass(3) has them, so the terminal is
  /// always given back as it was: Ctrl-C arrives as a character.
  private static func askPassword(for file: String) -> String? {
    var saved = termios()
    guard isatty(0) == 1, tcgetattr(0, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO | ISIG)
    writeError("Password for \(VisibleText.escaping(file)) (not shown): ")
    guard tcsetattr(0, TCSAFLUSH, &quiet) == 0 else { return nil }
    var reader = LineReader(fd: 0)
    var lines: [String] = []
    while lines.isEmpty && !reader.closed { lines = reader.readLines() }
    _ = tcsetattr(0, TCSAFLUSH, &saved)
    writeError("\n")
    guard let line = lines.first, !line.contains("\u{3}") else { return nil }
    return line
  }

  /// Replaces the stored identity with an imported one, after asking when there is another one and the
  /// replacement was not `confirmed`, as `identity new` does. Nil when it was replaced, else the exit status.
  private static func importing(_ identity: Identity, into store: IdentityStore, confirmed: Bool) throws -> Int32? {
    if let old = try store.load(), old.fingerprint != identity.fingerprint, !confirmed,
      !confirmReplacing(old, with: identity)
    {
      writeError(
        "tictactoe: your identity was kept (\(old.fingerprint)). To replace it, answer y at a terminal or "
          + "run the same `tictactoe identity import` with --yes.\n")
      return ExitStatus.failure
    }
    sayKept(try store.replace(with: identity))
    return nil
  }

  /// Where the identity a replacement replaced was kept, and how to take it back.
  private static func sayKept(_ kept: String?) {
    guard let kept else { return }
    writeError(
      "tictactoe: the identity it replaced is kept in \(kept); `tictactoe identity import \(kept) \(kept)` takes "
        + "it back.\n")
  }

  static func run(_ command: IdentityCommand, profile: Profile) -> Int32 {
    let store = IdentityStore(directory: profile.identityDirectory)
    do {
      switch command {
      case .show:
        let (identity, created) = try store.loadOrCreate(commonName: profile.name)
        writeAll(1, "\(identity.fingerprint)\n")
        writeAll(1, "read aloud: \(identity.fingerprint.readAloud)\n")
        writeAll(1, "name: \(VisibleText.escaping(identity.commonName))\n")
        writeText(1, "certificate: \(store.certificatePath)\(created ? " (new)" : "")\n")
      case .new(let confirmed):
        return try replaceIdentity(in: store, profile: profile, confirmed: confirmed)
      case .importPEM(let certificate, let key, let confirmed):
        let identity = try Identity(certificatePEM: try text(certificate), privateKeyPEM: try text(key))
        if let status = try importing(identity, into: store, confirmed: confirmed) { return status }
        writeAll(1, "\(identity.fingerprint)\nimported \(VisibleText.escaping(identity.commonName))\n")
      case .importPKCS12(let file, let passwordFile, let confirmed):
        return try importPKCS12(file, passwordFile: passwordFile, into: store, confirmed: confirmed)
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

  /// `identity new`: a new key under the same name, after the player confirms replacing the old one (or with
  /// `--yes`); the old identity is kept aside.
  private static func replaceIdentity(in store: IdentityStore, profile: Profile, confirmed: Bool) throws -> Int32 {
    let old = try store.load()
    // The name stays the one friends know; only the key changes.
    let name = old?.commonName ?? profile.name
    if let old, !confirmed, !confirmReplacing(old, with: nil) {
      writeError(
        "tictactoe: your identity was kept (\(old.fingerprint)). To replace it, answer y at a terminal or "
          + "run `tictactoe identity new --yes`.\n")
      return ExitStatus.failure
    }
    let identity = try Identity.generate(commonName: name)
    sayKept(try store.replace(with: identity))
    writeAll(1, "\(identity.fingerprint)\n")
    writeAll(1, "read aloud: \(identity.fingerprint.readAloud)\n")
    writeMessage(
      1,
      "A new identity for \(PeerText(name)). Every friend who knew the old key will see KEY CHANGED when you "
        + "next play: tell them by another way, and give them the new fingerprint.\n")
    return ExitStatus.ok
  }

  /// `identity import` of a PKCS#12 file: its password from `passwordFile`, or asked for at the terminal when the
  /// file needs one.
  private static func importPKCS12(
    _ file: String, passwordFile: String?, into store: IdentityStore, confirmed: Bool
  ) throws -> Int32 {
    guard let data = FileSystem.contents(file) else {
      throw FileError.unreadable(file)
    }
    let password = try passwordFile.map { try text($0).trimmingNewlines() }
    var opened = Result { () throws(SecurityError) in
      try Identity(pkcs12: data, password: password, passwordFile: passwordFile)
    }
    // A file with no password (or an empty one) needs no question; any other is asked for at the terminal.
    if case .failure(.passwordNeeded) = opened, isatty(0) == 1 {
      guard let typed = askPassword(for: file) else {
        writeError(
          "tictactoe: nothing was imported: no password was typed (Ctrl-C, or the input ended). Run it again "
            + "to type it, or give it with --password-file F.\n")
        return ExitStatus.failure
      }
      opened = Result { () throws(SecurityError) in try Identity(pkcs12: data, password: typed) }
    }
    let identity = try opened.get()
    if let status = try importing(identity, into: store, confirmed: confirmed) { return status }
    writeAll(1, "\(identity.fingerprint)\nimported \(VisibleText.escaping(identity.commonName))\n")
    return ExitStatus.ok
  }

  static func run(_ command: PeersCommand, profile: Profile) -> Int32 {
    let file = KnownPeersFile(path: profile.knownPeersPath)
    do {
      if case .list = command { return list(try file.load(), profile: profile) }
      // A change is read, made and written under the file's lock, so concurrent ones are not lost.
      return try file.locked { try change(command, file: file) }
    } catch {
      writeError("tictactoe: \(error)\n")
      return ExitStatus.badFile
    }
  }

  /// The line above the list of peers, naming its columns (separated by tabs, as the lines are).
  static let peersHeader = "NAME\tFINGERPRINT\tSINCE\tYOUR RECORD (WON–LOST)\n"

  private static func list(_ peers: KnownPeers, profile: Profile) -> Int32 {
    if peers.entries.isEmpty {
      writeText(1, "No known peers yet (\(profile.knownPeersPath)).\n")
    } else {
      writeAll(1, peersHeader)
    }
    let records = OpponentRecords.load(profile)
    for entry in peers.entries {
      // The record against that key, from the saved games, when there are any.
      let tally = records.byFingerprint[entry.fingerprint].map { "\t\($0)" } ?? ""
      writeAll(1, "\(PeerText(entry.name))\t\(entry.fingerprint)\tsince \(entry.added)\(tally)\n")
    }
    if let line = records.computerLine { writeText(1, line + "\n") }
    return ExitStatus.ok
  }

  private static func change(_ command: PeersCommand, file: KnownPeersFile) throws -> Int32 {
    var peers = try file.load()
    switch command {
    case .list: break
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
    guard let data = FileSystem.contents(path) else {
      throw FileError.unreadable(path)
    }
    return String(decoding: data, as: UTF8.self)
  }
}

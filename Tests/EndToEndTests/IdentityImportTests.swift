import Foundation
import Security
import Testing

/// `identity import` replaces a player's key as `identity new` does: only after a yes at the terminal (or
/// --yes), keeping the replaced identity; a PKCS#12 password not given in a file is asked for, unseen.
@Suite struct IdentityImportTests {
  /// A home with an identity of its own, and an identity of another key to import, as PKCS#12 with a password
  /// (and its password file) and as PEM.
  private struct Setup {
    /// `identity import` of the PKCS#12 file in a terminal, once it asks for the password.
    func importAtATerminal() throws -> TmuxSession {
      let tmux = try TmuxSession(
        command: "sh -c '\(Binary.path) identity import \(p12); echo EXIT=$?; sleep 30'",
        environment: home.environment, width: 200)
      try tmux.waitFor(text: "(not shown):")
      return tmux
    }

    var home: (root: String, environment: [String: String])
    let before: String
    let imported: Identity
    let p12: String
    let passwordFile: String
    let certificate: String
    let keyFile: String

    init(password: String) throws {
      home = try Binary.sandbox()
      home.environment["USER"] = "alice"
      let shown = try Binary.run(["identity"], environment: home.environment)
      before = String(shown.stdout.prefix { $0 != "\n" })
      imported = try Identity.generate(commonName: "carol")
      p12 = home.root + "/carol.p12"
      passwordFile = home.root + "/carol.password"
      certificate = home.root + "/carol.crt"
      keyFile = home.root + "/carol.key"
      try Data(try imported.pkcs12(password: password)).write(to: URL(fileURLWithPath: p12))
      try (password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
      try imported.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
      try imported.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
    }

    func key() throws -> String {
      String(try Binary.run(["identity"], environment: home.environment).stdout.prefix { $0 != "\n" })
    }

    var previous: String { home.root + "/data/tictactoe/identity/identity.previous" }
  }

  @Test func withoutATerminalOrYesTheIdentityIsKept() throws {
    let setup = try Setup(password: "pw")
    defer { try? FileManager.default.removeItem(atPath: setup.home.root) }
    for words in [
      ["identity", "import", setup.p12, "--password-file", setup.passwordFile],
      ["identity", "import", setup.certificate, setup.keyFile],
    ] {
      let refused = try Binary.run(words, environment: setup.home.environment)
      #expect(refused.status == 1, "\(words): \(refused.stdout)\(refused.stderr)")
      #expect(refused.stderr.contains("your identity was kept (\(setup.before))"), "\(refused.stderr)")
      #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
      #expect(try setup.key() == setup.before)
    }
  }

  @Test func withYesItReplacesAndKeepsTheOldIdentity() throws {
    let setup = try Setup(password: "pw")
    defer { try? FileManager.default.removeItem(atPath: setup.home.root) }
    let replaced = try Binary.run(
      ["identity", "import", setup.p12, "--password-file", setup.passwordFile, "--yes"],
      environment: setup.home.environment)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try setup.key() == "\(setup.imported.fingerprint)")
    #expect(replaced.stderr.contains("kept in \(setup.previous)"), "\(replaced.stderr)")
    let text = try String(contentsOfFile: setup.previous, encoding: .utf8)
    #expect("\(try Identity(certificatePEM: text, privateKeyPEM: text).fingerprint)" == setup.before)
    // What the message says takes it back does.
    let back = try Binary.run(
      ["identity", "import", setup.previous, setup.previous, "--yes"], environment: setup.home.environment)
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try setup.key() == setup.before)
  }

  /// No password file and no terminal: the file's password is said to be missing, with no word of a
  /// --password-file that was never given.
  @Test func withoutAPasswordFileOrATerminalThePasswordIsSaidToBeMissing() throws {
    let setup = try Setup(password: "pw")
    defer { try? FileManager.default.removeItem(atPath: setup.home.root) }
    let refused = try Binary.run(["identity", "import", setup.p12, "--yes"], environment: setup.home.environment)
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("protected by a password, and none was given"), "\(refused.stderr)")
    #expect(!refused.stderr.contains("Check the file given with --password-file"), "\(refused.stderr)")
    #expect(try setup.key() == setup.before)
  }

  /// At a terminal the password is asked for and not shown as it is typed; then the replacement is asked about.
  @Test func atATerminalThePasswordIsAskedForUnseenThenTheReplacement() throws {
    let setup = try Setup(password: "s3cret-horse")
    defer { try? FileManager.default.removeItem(atPath: setup.home.root) }
    let tmux = try setup.importAtATerminal()
    try tmux.send("s3cret-horse", "Enter")
    let asked = try tmux.waitFor(text: "[y/N]")
    #expect(!asked.contains("s3cret-horse"), "the password was shown:\n\(asked)")
    // Messages are broken between words at 80 columns, even on this wider terminal (issue 29 item 10).
    let said = asked.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(said.contains("Replace your identity \(setup.before) with \(setup.imported.fingerprint)"), "\(asked)")
    #expect(asked.split(separator: "\n").allSatisfy { $0.count <= 80 || !$0.contains(" ") }, "\(asked)")
    try tmux.send("y", "Enter")
    let done = try tmux.waitFor(text: "EXIT=")
    #expect(done.contains("EXIT=0"), "\(done)")
    #expect(try setup.key() == "\(setup.imported.fingerprint)")
    // The terminal echoes again afterwards.
    try tmux.send("echoed-again")
    try tmux.waitFor(text: "echoed-again")
  }

  /// A wrong password typed at the terminal is said to be wrong in words that fit typing.
  @Test func aWrongTypedPasswordIsRefusedWithoutMentioningAPasswordFile() throws {
    let setup = try Setup(password: "s3cret-horse")
    defer { try? FileManager.default.removeItem(atPath: setup.home.root) }
    let tmux = try setup.importAtATerminal()
    try tmux.send("battery-staple", "Enter")
    let done = try tmux.waitFor(text: "EXIT=")
    #expect(done.contains("EXIT=65") && done.contains("password for the PKCS#12 file is wrong"), "\(done)")
    #expect(!done.contains("--password-file"), "\(done)")
    #expect(try setup.key() == setup.before)
  }
}

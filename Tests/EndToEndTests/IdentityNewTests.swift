import Foundation
import GameCore
import GameRecords
import PlayerFiles
import Security
import Testing

/// `identity new` replaces a player's key only when asked twice: it asks at the terminal (or takes --yes),
/// keeps the name friends know, and says that they will see a changed key.
@Suite struct IdentityNewTests {
  /// The fingerprint `identity` prints on its first line.
  private func key(_ environment: [String: String]) throws -> String {
    String(try Binary.run(["identity"], environment: environment).stdout.prefix { $0 != "\n" })
  }

  @Test func withoutATerminalOrYesTheIdentityIsKept() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    let before = try key(home.environment)
    let refused = try Binary.run(["identity", "new"], environment: home.environment)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("your identity was kept") && refused.stderr.contains("--yes"), "\(refused.stderr)")
    #expect(try key(home.environment) == before)
    #expect(try Binary.run(["identity", "new", "extra"], environment: home.environment).status == 64)
  }

  @Test func withYesTheKeyChangesAndTheNameStays() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    let before = try key(home.environment)
    home.environment["USER"] = "somebody-else"  // the login changed: the name friends know does not
    let replaced = try Binary.run(["identity", "new", "--yes"], environment: home.environment)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(replaced.stdout.contains("KEY CHANGED"), "\(replaced.stdout)")
    #expect(try key(home.environment) != before)
    let after = try Binary.run(["identity"], environment: home.environment).stdout
    #expect(after.contains("name: alice"), "\(after)")
  }

  @Test func atATerminalOnlyYesReplaces() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    let before = try key(home.environment)
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) identity new; echo EXIT=$?; sleep 30'", environment: home.environment)
    try tmux.waitFor(text: "Replace your identity \(before)?")
    try tmux.send("n", "Enter")
    try tmux.waitFor(text: "EXIT=1")
    #expect(try key(home.environment) == before)
    let again = try TmuxSession(
      command: "sh -c '\(Binary.path) identity new; echo EXIT=$?; sleep 30'", environment: home.environment)
    try again.waitFor(text: "[y/N]")
    try again.send("y", "Enter")
    try again.waitFor(text: "EXIT=0")
    #expect(try key(home.environment) != before)
  }
}

/// A private key others could read, or one in a directory others can write, is refused with the command
/// that fixes it, as OpenSSH refuses such keys.
@Suite struct ExposedKeyTests {
  @Test func aKeyReadableByOthersIsRefusedWithTheChmodToRun() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    #expect(try Binary.run(["identity"], environment: home.environment).status == 0)
    let directory = home.root + "/data/tictactoe/identity"
    let key = directory + "/identity.key"
    #expect(chmod(key, 0o644) == 0)
    let refused = try Binary.run(["identity"], environment: home.environment)
    #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
    #expect(refused.stderr.contains("can be read by others (mode 644)"), "\(refused.stderr)")
    #expect(refused.stderr.contains("chmod 600 \(key)"), "\(refused.stderr)")
    let host = try Binary.run(["host", "--ui", "plain", "--port", "0"], environment: home.environment)
    #expect(host.status == 65 && host.stderr.contains("chmod 600"), "\(host.stderr)")
    #expect(chmod(key, 0o600) == 0 && chmod(directory, 0o777) == 0)
    let folder = try Binary.run(["identity"], environment: home.environment)
    #expect(folder.status == 65 && folder.stderr.contains("chmod 700 \(directory)"), "\(folder.stderr)")
    #expect(chmod(directory, 0o700) == 0)
    #expect(try Binary.run(["identity"], environment: home.environment).status == 0)
  }
}

/// Issue 29, item 4, on the binary: after `identity new`, a game the old key played is still the player's in
/// `games` and in the record `peers` shows against that opponent.
@Suite struct IdentityNewKeepsOldGamesTests {
  @Test func aGameOfTheReplacedKeyIsStillYours() throws {
    var home = try Binary.sandbox()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "alice"
    _ = try Binary.run(["identity"], environment: home.environment)
    let data = try #require(home.environment["XDG_DATA_HOME"]) + "/tictactoe"
    let old = try #require(try IdentityStore(directory: data + "/identity").load()?.publicKeyBase64)
    let bob = try Identity.generate(commonName: "bob")
    let bobKey = try #require(bob.publicKeyBase64)
    let moves = [1, 4, 2, 5, 3].compactMap { Position(cellNumber: $0, rules: .standard) }
    let record = GameRecord(
      rules: .standard, black: .init(name: "alice", publicKey: old), white: .init(name: "bob", publicKey: bobKey),
      date: "2026-12-01", result: .won(.x, .line), moves: moves)
    try FileManager.default.createDirectory(atPath: data + "/games", withIntermediateDirectories: true)
    try record.sgf.write(
      toFile: data + "/games/"
        + RecordDirectory.fileName(
          year: 2026, month: 12, day: 1, secondOfDay: 36_000, millisecond: 0, random: 1), atomically: true,
      encoding: .utf8)
    try "bob \(bob.fingerprint) 2026-12-01\n".write(toFile: data + "/known_peers", atomically: true, encoding: .utf8)
    chmod(data + "/known_peers", 0o600)
    let before = try Binary.run(["games"], environment: home.environment).stdout
    #expect(before.contains("  bob  ") && before.contains("  won  "), "\(before)")
    let replaced = try Binary.run(["identity", "new", "--yes"], environment: home.environment)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let after = try Binary.run(["games"], environment: home.environment).stdout
    #expect(after.contains("  bob  ") && after.contains("  won  ") && !after.contains(" vs "), "\(after)")
    let peers = try Binary.run(["peers"], environment: home.environment).stdout
    #expect(peers.contains("bob\t\(bob.fingerprint)\tsince 2026-12-01\t1–0"), "\(peers)")
  }
}

import Foundation
import TestSupport
import Testing

/// Two real `tictactoe` processes over loopback, in plain mode: games, trust on first use, pins, changed keys,
/// refusals, and every failure named with its own exit status. Changed keys, forgotten peers, pins, busy hosts and
/// declines, and servers that are not tictactoe hosts are checked on the real shells in memory (`InMemoryTrustTests`,
/// `InMemoryMatchTests`, `InMemoryWrongServerTests`).
@Suite(.serialized) struct NetworkTests {
  /// A player's private directories; the same sandbox keeps its identity and known peers across runs.
  struct Home {
    let environment: [String: String]
    init(_ name: String) throws {
      var environment = try Binary.sandbox().environment
      environment["USER"] = name
      self.environment = environment
    }

    func fingerprint() throws -> String {
      let result = try Binary.run(["identity"], environment: environment)
      return String(result.stdout.prefix { $0 != "\n" })
    }
  }

  private func host(_ home: Home, _ extra: [String] = [], port: Int = 0) throws -> (Player, Int) {
    let player = try Player(["host", "--port", "\(port)", "--ui", "plain"] + extra, environment: home.environment)
    let port = try #require(player.announcedPort(), "host did not start: \(player.errors)")
    return (player, port)
  }

  private func join(_ home: Home, _ address: String, _ extra: [String] = []) throws -> Player {
    try Player(["join", address, "--ui", "plain"] + extra, environment: home.environment)
  }

  /// A host's deny list (in its settings) closes a connection from a listed address before TLS, says so in the
  /// log, and keeps hosting for everyone else.
  @Test func theHostsDenyListClosesAListedAddressBeforeTLS() throws {
    let alice = try Home("alice")
    let config = try #require(alice.environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "deny = 127.0.0.0/8\n".write(toFile: config + "/settings.conf", atomically: true, encoding: .utf8)
    let (host, port) = try host(alice)
    // The joiner only sees its connection closed (during the handshake, 14, or cut, 31): it is told nothing more.
    let denied = try join(try Home("mallory"), "127.0.0.1:\(port)", ["--accept-new"])
    #expect([14, 31].contains(denied.exitStatus()), "\(denied.output)\(denied.errors)")
    let log = try String(
      contentsOfFile: try #require(alice.environment["XDG_STATE_HOME"]) + "/tictactoe/tictactoe.log", encoding: .utf8)
    #expect(log.contains("refused a connection from 127.0.0.1:") && log.contains("deny list"), "\(log)")
    #expect(!host.output.contains("mallory"), "\(host.output)")
    // Over IPv6 the host is not denied: it still serves.
    let joiner = try join(try Home("bob"), "[::1]:\(port)", ["--accept-new"])
    #expect(host.waitFor("bob ("), "\(host.output)")
    host.send("y")
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(host.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(host.exitStatus() == 30)
  }

  @Test func aWholeMatchOverIPv4WithTrustOnFirstUseOnBothSides() throws {
    let alice = try Home("alice")
    let bob = try Home("bob")
    let (host, port) = try host(alice)
    let joiner = try join(bob, "127.0.0.1:\(port)")
    #expect(joiner.waitFor("The host alice is new to you: \(try alice.fingerprint()). Trust it?"))
    joiner.send("y")
    #expect(host.waitFor("bob (\(try bob.fingerprint())) wants to join — accept?"))
    host.send(try bob.fingerprint())  // pasting the fingerprint accepts too
    #expect(host.waitFor("game 1: 3×3, 3 in a row"))
    #expect(joiner.waitFor("game 1: 3×3, 3 in a row"))
    joiner.send("chat good luck")
    #expect(host.waitFor("bob says: good luck"))
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)\n\(joiner.output)")
    #expect(host.output.contains("match: you "))
    host.send("quit")
    #expect(host.exitStatus() == 0)
    #expect(joiner.exitStatus() == 30)
    #expect(joiner.errors.contains("Your opponent left the game."), "\(joiner.errors)")
    // Both remember each other now: a second match asks nothing.
    let (again, port2) = try self.host(alice)
    let joiner2 = try join(bob, "127.0.0.1:\(port2)")
    #expect(again.waitFor("game 1:") && joiner2.waitFor("game 1:"))
    #expect(!joiner2.output.contains("Trust it?") && !again.output.contains("wants to join"))
    joiner2.send("quit")
    #expect(joiner2.exitStatus() == 0)
    #expect(again.exitStatus() == 30)
  }

  @Test func aMatchOverIPv6() throws {
    let (host, port) = try host(try Home("alice"), ["--accept-new"])
    let joiner = try join(try Home("bob"), "[::1]:\(port)", ["--accept-new"])
    #expect(joiner.waitFor("Connected to [::1]:\(port) over TLSv1.3"))
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"))
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: "), "\(host.output)")
    host.send("quit")
    #expect(host.exitStatus() == 0)
  }

  /// `--pin` takes a certificate file and pins its key, and may be given twice (a backup key): any is accepted,
  /// and a refusal names every pin tried.
  @Test func aCertificateFileAndABackupKeyCanBePinned() throws {
    let alice = try Home("alice")
    let (host, port) = try host(alice, ["--accept-new"])
    let directory = try TestDirectory.make("pin")
    let certificate = directory + "/alice.crt"
    try Binary.run(["identity", "export"], environment: alice.environment).stdout
      .write(toFile: certificate, atomically: false, encoding: .utf8)
    let backup = "SHA256:" + String(repeating: "A", count: 43)
    let pinned = try join(try Home("carol"), "127.0.0.1:\(port)", ["--pin", backup, "--pin", certificate])
    #expect(pinned.waitFor("game 1:"), "\(pinned.output)\(pinned.errors)")
    #expect(!pinned.output.contains("Trust it?"))
    pinned.send("quit")
    #expect(pinned.exitStatus() == 0)
    #expect(host.exitStatus() == 30)
    let (other, otherPort) = try self.host(try Home("mallory"), ["--accept-new"])
    let refused = try join(try Home("dave"), "127.0.0.1:\(otherPort)", ["--pin", backup, "--pin", certificate])
    #expect(refused.exitStatus() == 20)
    #expect(refused.errors.contains("\(backup) (--pin)"), "\(refused.errors)")
    #expect(refused.errors.contains("(the key in \(certificate))"), "\(refused.errors)")
    other.signal(SIGTERM)
  }

  @Test func aHostBoundToOneAddressOffersOnlyThatAddress() throws {
    let (host, port) = try host(try Home("alice"), ["--bind", "127.0.0.1"])
    let line = host.output.split(separator: "\n").first { $0.hasPrefix("Friends join with:") } ?? ""
    #expect(line.hasSuffix("ADDRESS one of 127.0.0.1:\(port)"), "\(host.output)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  @Test func connectionFailuresHaveTheirOwnStatus() throws {
    let home = try Home("bob")
    let refused = try Binary.run(["join", "127.0.0.1:1", "--ui", "plain"], environment: home.environment)
    #expect(refused.status == 10)
    #expect(refused.stderr.contains("Connection refused by 127.0.0.1:1"))
    // A name with an empty label: the C library refuses it without asking a DNS server (a name that merely
    // does not exist, even under .invalid, would be sent to the machine's resolver, off the machine).
    let unknown = try Binary.run(["join", "no-such-host..invalid", "--ui", "plain"], environment: home.environment)
    #expect(unknown.status == 12)
    #expect(unknown.stderr.contains("Host not found: no-such-host..invalid"))
  }

  @Test func weakenedChecksAreShownWhileInForce() throws {
    let (host, port) = try host(try Home("alice"), ["--insecure"])
    #expect(host.output.contains("warning: --insecure: ANY certificate is accepted"))
    let joiner = try join(try Home("bob"), "127.0.0.1:\(port)", ["--insecure"])
    #expect(joiner.waitFor("game 1:"))
    #expect(joiner.output.contains("warning: --insecure"))
    joiner.send("quit")
    #expect(host.exitStatus() == 30)
  }

  @Test func aFrozenPeerIsNoticed() throws {
    let (host, port) = try host(try Home("alice"), ["--accept-new"])
    let joiner = try join(try Home("bob"), "127.0.0.1:\(port)", ["--accept-new"])
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"))
    host.signal(SIGSTOP)
    defer { host.signal(SIGCONT) }
    // The silence limit is 10 s; how long detection takes is the benchmark's "Frozen peer noticed" row, not a
    // test's to assert (a loaded machine is slow): the bound only keeps a missing notice from hanging the test.
    #expect(joiner.waitFor("The connection dropped. Reconnecting", timeout: 30))
    // Thawed, the host notices the silence too, takes the joiner back and the game goes on.
    host.signal(SIGCONT)
    #expect(joiner.waitFor("Reconnected: game 1 goes on at move 1.", timeout: 30), "\(joiner.output)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 1."), "\(host.output)")
    joiner.send("quit")
    #expect(host.exitStatus() == 30)
  }

  @Test func identitiesExportAndImport() throws {
    let alice = try Home("alice")
    let exported = try Binary.run(["identity", "export"], environment: alice.environment)
    #expect(exported.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"))
    // Import certificates made by certs/make-certs.sh, as PEM files and as PKCS#12 with a password.
    let directory = TestDirectory.path("certs")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("certs/make-certs.sh").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = try Tool.run("bash", [script, directory, "carol"])
    let bob = try Home("bob")
    let pem = try Binary.run(
      ["identity", "import", directory + "/carol.crt", directory + "/carol.key"], environment: bob.environment)
    #expect(pem.status == 0, "\(pem.stderr)")
    let shown = try bob.fingerprint()
    #expect(pem.stdout.hasPrefix(shown))
    let dave = try Home("dave")
    let p12 = try Binary.run(
      ["identity", "import", directory + "/carol.p12", "--password-file", directory + "/carol.p12.password"],
      environment: dave.environment)
    #expect(p12.status == 0, "\(p12.stderr)")
    #expect(try dave.fingerprint() == shown)
    let wrong = TestDirectory.path("wrong-password")
    try "not the password\n".write(toFile: wrong, atomically: true, encoding: .utf8)
    let refused = try Binary.run(
      ["identity", "import", directory + "/carol.p12", "--password-file", wrong],
      environment: try Home("eve").environment)
    #expect(refused.status == 65)
    #expect(refused.stderr.lowercased().contains("password"), "\(refused.stderr)")
  }
}

import Foundation
import Security
import TestSupport
import Testing

/// The opponent is shown by the name trust was decided on, never by the name its hello claims: a known key by
/// the player's own name for it, a CA-vouched certificate by its name; the claimed name is marked when it
/// differs ("carol (calls itself bob)").
@Suite(.serialized) struct ShownNameTests {
  typealias Home = NetworkTests.Home

  private func host(_ home: Home, _ extra: [String]) throws -> (Player, UInt16) {
    let player = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain"] + extra, environment: home.environment)
    let port = try #require(player.announcedPort(), "host did not start: \(player.errors)")
    #expect(player.waitFor("Waiting for an opponent"), "\(player.output)")
    return (player, UInt16(port))
  }

  @Test func aKnownKeySayingHelloUnderAnotherNameIsShownByTheKnownName() throws {
    let alice = try Home("alice")
    let carol = try Identity.generate(commonName: "carol")
    let data = try #require(alice.environment["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(
      atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try "carol \(carol.fingerprint) 2026-11-30\n".write(
      toFile: data + "/known_peers", atomically: true, encoding: .utf8)
    let (host, port) = try host(alice, [])
    let client = try HostileClient(port: port, identity: carol)
    try client.send(.hello(versions: [2, 1], name: "bob", software: "hostile 1"))
    #expect(host.waitFor("opponent: carol (calls itself bob)"), "\(host.output)")
    #expect(!host.output.contains("opponent: bob"), "\(host.output)")
    // A known key is let in without asking: the welcome arrives.
    let welcome = client.next { if case .welcome = $0 { true } else { false } }
    #expect(welcome != nil, "\(host.output)")
    #expect(!host.output.contains("wants to join"), "\(host.output)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  @Test func aCertificateFromTheCAIsShownByItsOwnName() throws {
    let directory = try TestDirectory.make("shown-ca")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("certs/make-certs.sh").path
    _ = try Tool.run("bash", [script, directory, "alice", "mallory"])
    let (host, port) = try host(
      try Home("alice"),
      ["--ca", "\(directory)/ca.crt", "--cert", "\(directory)/alice.crt", "--key", "\(directory)/alice.key"])
    let mallory = try Identity(
      certificatePEM: try String(contentsOfFile: "\(directory)/mallory.crt", encoding: .utf8),
      privateKeyPEM: try String(contentsOfFile: "\(directory)/mallory.key", encoding: .utf8))
    let client = try HostileClient(port: port, identity: mallory)
    try client.send(.hello(versions: [2, 1], name: "bob", software: "hostile 1"))
    #expect(host.waitFor("opponent: mallory (calls itself bob)"), "\(host.output)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }
}

import Foundation
import TestSupport
import Testing

/// LAN discovery with the real binary against the avahi-daemon that scripts/test.sh starts (confined to lo),
/// and outside DNS-SD tools (avahi-browse, avahi-publish).
@Suite(.serialized) struct DiscoveryEndToEndTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  private func host(_ name: String, _ extra: [String] = []) throws -> (Player, Int) {
    let player = try Player(
      ["host", "--port", "0", "--ui", "plain", "--name", name] + extra, environment: try home(name))
    let port = try #require(player.announcedPort())
    #expect(player.waitFor("Announced on the local network as \(name)"), "\(player.output)\(player.errors)")
    return (player, port)
  }

  /// The games `list --json` shows, listing again (bounded) until `found` holds for them.
  private func list(
    _ environment: [String: String], until found: @escaping ([[String: Any]]) -> Bool = { _ in true }
  ) throws -> [[String: Any]] {
    let result = try Binary.list(["--json"], environment: environment) { found(Binary.games($0)) }
    #expect(result.status == 0, "\(result.stderr)")
    return Binary.games(result)
  }

  private func unique(_ base: String) -> String { "\(base)-\(UUID().uuidString.prefix(6).lowercased())" }

  @Test func aHostIsListedWithItsRulesStateAndKeyThenWithdrawn() throws {
    let name = unique("alice")
    let (host, port) = try host(name, ["--size", "4", "--k", "3", "--accept-new"])
    let fingerprint = try #require(
      host.output.split(separator: "\n").first { $0.hasPrefix("Your key: ") }?.dropFirst(10))
    let bob = try home("bob")
    // Until it is resolved: a game is listed as soon as it is browsed, before its port and TXT are known.
    let games = try list(bob) { $0.contains { $0["name"] as? String == name && $0["port"] as? Int == port } }
      .filter { $0["name"] as? String == name }
    #expect(games.count == 1)
    let game = try #require(games.first)
    #expect(game["port"] as? Int == port)
    #expect(game["state"] as? String == "waiting")
    #expect(game["trust"] as? String == "new")
    #expect(game["fingerprint"] as? String == String(fingerprint))
    #expect((game["rules"] as? [String: Int]) == ["rows": 4, "columns": 4, "k": 3])
    #expect((game["addresses"] as? [String])?.contains("127.0.0.1") == true)
    // An outside client sees the same TXT record. Read as it comes, until this host's resolved line, rather than
    // `avahi-browse -t`, which waits to resolve every game on the bus and did not finish in 60 s once while the
    // other tests' hosts came and went.
    let report = TestDirectory.path("browse")
    let browser = try ChildProcess(
      "/usr/bin/avahi-browse", ["-rp", "_tictactoe._tcp"], output: .file(report), errors: .file(report + ".err"))
    defer {
      browser.signal(SIGKILL)
      browser.stop()
      unlink(report)
      unlink(report + ".err")
    }
    var browse = ""
    var line: Substring?
    let deadline = Date().addingTimeInterval(30)
    while line == nil && Date() < deadline {
      usleep(50_000)
      browse = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
      line = browse.split(separator: "\n").first { $0.hasPrefix("=") && $0.contains(";\(name);") }
    }
    #expect(line?.contains("\"fp=\(fingerprint)\"") == true, "\(browse)")
    #expect(line?.contains("\"state=waiting\"") == true && line?.contains("\"rules=4x4k3\"") == true)
    // Joining by name: the state becomes playing, and the host's key is now known to bob.
    let joiner = try Player(["join", "--lan", name, "--ui", "plain", "--accept-new"], environment: bob)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    // The updated record takes a moment to spread: look again, within a bound.
    let playing = try list(bob) { games in
      games.contains { $0["name"] as? String == name && $0["state"] as? String == "playing" }
    }.first { $0["name"] as? String == name }
    #expect(playing?["state"] as? String == "playing")
    #expect(playing?["trust"] as? String == "known")
    joiner.send("quit")
    #expect(host.exitStatus() == 30)
    let after = try list(bob) { !$0.contains { $0["name"] as? String == name } }.filter {
      $0["name"] as? String == name
    }
    #expect(after.isEmpty, "the advertisement was not withdrawn")
  }

  /// In CA mode a LAN join checks the chosen game's name against the host's certificate (or --peer-name's),
  /// never the numeric address mDNS handed out: a certificate for the name is let in, one for another name is
  /// refused as a name mismatch.
  @Test func aLANJoinInCAModeChecksTheGamesName() throws {
    let name = unique("alice")
    let directory = try TestDirectory.make("lan-ca")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("certs/make-certs.sh").path
    _ = try Tool.run("bash", [script, directory, name, "bob", "mallory"])
    func trust(_ who: String) -> [String] {
      ["--ca", "\(directory)/ca.crt", "--cert", "\(directory)/\(who).crt", "--key", "\(directory)/\(who).key"]
    }
    let (host, _) = try host(name, trust(name))
    let joiner = try Player(["join", "--lan", name, "--ui", "plain"] + trust("bob"), environment: try home("bob"))
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(host.exitStatus() == 30)
    // mallory's certificate from the same CA, announced under another game name: the name does not match.
    let other = unique("alice")
    let (impostor, _) = try self.host(other, trust("mallory"))
    let fooled = try Player(["join", "--lan", other, "--ui", "plain"] + trust("bob"), environment: try home("bob"))
    #expect(fooled.exitStatus() == 23, "\(fooled.output)\(fooled.errors)")
    #expect(fooled.errors.contains("The certificate is for mallory, not for \(other)."), "\(fooled.errors)")
    impostor.signal(SIGTERM)
    #expect(impostor.exitStatus() == 128 + SIGTERM)
  }

  @Test func anOutsidePublisherWithAMalformedRecordIsListedWithItsProblems() throws {
    let name = unique("outsider")
    let publisher = try Player(
      ["-s", name, "_tictactoe._tcp", "7199", "txtvers=1", "rules=banana", "state=sleeping"],
      environment: try home("x"),
      executable: "/usr/bin/avahi-publish")
    defer { publisher.signal(SIGTERM) }
    #expect(publisher.waitFor("Established", in: \.errors) || publisher.waitFor("Established"))
    let game = try list(try home("bob")) { $0.contains { $0["name"] as? String == name && $0["port"] as? Int == 7199 } }
      .first { $0["name"] as? String == name }
    let problems = try #require(game?["problems"] as? [String], "\(String(describing: game))")
    #expect(problems.contains { $0.contains("rules") })
    #expect(game?["trust"] as? String == "no key advertised")
    let text = try Binary.list([], environment: try home("bob")) { $0.stdout.contains("TXT problems") }
    #expect(text.stdout.contains(name) && text.stdout.contains("TXT problems"))
  }

  @Test func aSpoofedAdvertisementIsRefusedAsAPossibleImpostor() throws {
    let (host, port) = try host(unique("alice"), ["--accept-new"])
    defer { host.signal(SIGTERM) }
    let spoof = unique("alice-spoof")
    let fake = "SHA256:" + String(repeating: "A", count: 43)
    let publisher = try Player(
      [
        "-s", spoof, "_tictactoe._tcp", "\(port)", "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(fake)",
      ],
      environment: try home("x"), executable: "/usr/bin/avahi-publish")
    defer { publisher.signal(SIGTERM) }
    #expect(publisher.waitFor("Established", in: \.errors) || publisher.waitFor("Established"))
    let joiner = try Player(["join", "--lan", spoof, "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.exitStatus() == 28)
    #expect(joiner.errors.contains("The advertisement and the host disagree"), "\(joiner.errors)")
    #expect(joiner.errors.contains(fake))
  }

  /// Discovery works, but no game of that name answers: status 29 and the games seen, not 69 ("discovery is
  /// unavailable").
  @Test func joiningAGameNobodyAnnouncesExits29() throws {
    let joiner = try Player(
      ["join", "--lan", "nosuch-\(getpid())", "--ui", "plain", "--accept-new"], environment: try home("bob"))
    #expect(joiner.exitStatus() == 29, "\(joiner.errors)")
    #expect(joiner.errors.contains("No game called \"nosuch-\(getpid())\" answered"), "\(joiner.errors)")
    #expect(!joiner.errors.contains("unavailable"), "\(joiner.errors)")
  }

  @Test func withoutTheDaemonListSaysWhyAndHowToStartIt() throws {
    var environment = try home("bob")
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    // The game itself must keep Avahi's compatibility banner off the terminal.
    environment.removeValue(forKey: "AVAHI_COMPAT_NOWARN")
    let result = try Binary.run(["list", "--wait", "1"], environment: environment)
    #expect(result.status == 69)
    #expect(result.stderr.contains("LAN discovery is unavailable"), "\(result.stderr)")
    #expect(result.stderr.contains("avahi-daemon"))
    #expect(!result.stderr.contains("WARNING"), "Avahi's banner reached the terminal: \(result.stderr)")
    // Hosting still works, and says it cannot be found on the LAN.
    let host = try Player(["host", "--port", "0", "--ui", "plain"], environment: environment)
    #expect(host.waitFor("Players can still join by address."), "\(host.output)")
    #expect(!host.errors.contains("WARNING"), "Avahi's banner reached the terminal: \(host.errors)")
  }
}

/// The lobby's "Host a network game" is announced on the LAN as `tictactoe host` is (it was not: only the
/// command's host called the announcement), and withdrawn when its player goes back to the lobby.
@Suite(.serialized) struct LobbyHostDiscoveryTests {
  @Test func aHostStartedFromTheLobbyIsListedThenWithdrawn() throws {
    let name = "lobbyhost-\(UUID().uuidString.prefix(6).lowercased())"
    // Port 0: one the system picks; no router is asked or offered.
    let (tmux, environment) = try TmuxSession.hostFromTheLobby(user: name, settings: "port = 0\nmap_port = no\n")
    let hosting = try tmux.waitFor(text: "Waiting for an opponent")
    let port = try TmuxSession.hostedPort(environment)
    #expect(!hosting.contains("LAN discovery is unavailable"), "\(hosting)")
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let listed = try Binary.list(["--json"], environment: bob) { Binary.shows(name, on: port, in: $0) }
    let games = Binary.games(listed)
    let game = try #require(games.first { $0["name"] as? String == name }, "not listed: \(listed.stdout)")
    #expect(game["port"] as? Int == port && game["state"] as? String == "waiting", "\(game)")
    try tmux.send("Escape")
    try tmux.waitFor(text: "Play the computer")
    let after = try Binary.list(["--json"], environment: bob) { !$0.stdout.contains("\"\(name)\"") }
    #expect(!after.stdout.contains("\"\(name)\""), "still listed after the host left: \(after.stdout)")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
  }
}

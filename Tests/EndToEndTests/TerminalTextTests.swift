import Foundation
import Testing

/// Every text the program prints passes the one sanitiser, its own messages included: a settings line, a
/// known_peers line, a file name or a login name holding ESC, BEL, a CSI sequence or a bidirectional override
/// reaches the terminal as visible escapes, never as control.
@Suite struct TerminalTextTests {
  /// An OSC title write, BEL, a CSI clear-screen and a right-to-left override.
  static let poison = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}"
  /// How `poison` looks once escaped.
  static let escaped = "\\x1B]0;pwned\\x07\\x1B[2J\\u{202E}"

  /// No control character (Unicode category Cc) but line ends and tabs, and no format character (Cf: the
  /// bidirectional marks and invisible characters): judged by Unicode's categories, not the sanitiser's list.
  private func expectClean(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let bad = text.unicodeScalars.filter { scalar in
      scalar != "\n" && scalar != "\t"
        && [.control, .format].contains(scalar.properties.generalCategory)
    }
    #expect(
      bad.isEmpty, "\(what) holds \(bad.map { String($0.value, radix: 16) }): \(text)", sourceLocation: sourceLocation)
  }

  private func home() throws -> (root: String, environment: [String: String]) {
    var home = try Binary.sandbox()
    home.environment["USER"] = "alice"
    return home
  }

  private func writeSettings(_ text: String, _ home: (root: String, environment: [String: String])) throws {
    let directory = try #require(home.environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try text.write(toFile: directory + "/settings.conf", atomically: true, encoding: .utf8)
    chmod(directory + "/settings.conf", 0o600)
  }

  @Test func aBadDenyEntryIsShownEscaped() throws {
    let home = try home()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    try writeSettings("deny = 203.0.113.0/24, 198.51.100.7\(Self.poison)\n", home)
    let run = try Binary.run(["identity"], environment: home.environment)
    #expect(run.stderr.contains("198.51.100.7\(Self.escaped)"), "\(run.stderr)")
    expectClean(run.stderr, "stderr")
    expectClean(run.stdout, "stdout")
  }

  @Test func aSettingsNameWithControlsIsRefusedAndShownEscaped() throws {
    let home = try home()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    try writeSettings("name = mallory\(Self.poison)\n", home)
    let run = try Binary.run(["identity"], environment: home.environment)
    #expect(run.stderr.contains("line 1: name must have no control"), "\(run.stderr)")
    #expect(run.stderr.contains("mallory\(Self.escaped)"), "\(run.stderr)")
    expectClean(run.stderr, "stderr")
    expectClean(run.stdout, "stdout")
    let named = try Binary.run(["identity", "--name", "mallory\(Self.poison)"], environment: home.environment)
    #expect(named.status == 64 && named.stderr.contains("--name must have no control"), "\(named.stderr)")
    expectClean(named.stderr, "stderr of --name")
  }

  /// The name a host shows itself by ("Hosting ... as NAME") comes from the login when nothing else gives one.
  @Test func theHostsOwnNameIsShownEscaped() throws {
    var home = try home()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    home.environment["USER"] = "mallory\(Self.poison)"
    let host = try Player(["host", "--port", "0", "--ui", "plain"], environment: home.environment)
    #expect(host.waitFor("Hosting"), "\(host.output)\(host.errors)")
    host.signal(SIGTERM)
    _ = host.exitStatus()
    #expect(host.output.contains("as mallory\(Self.escaped)"), "\(host.output)")
    expectClean(host.output, "stdout")
    expectClean(host.errors, "stderr")
  }

  @Test func aBadKnownPeersLineIsShownEscaped() throws {
    let home = try home()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let directory = try #require(home.environment["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try "bob SHA256:\(Self.poison) 2026-12-01\n".write(
      toFile: directory + "/known_peers", atomically: true, encoding: .utf8)
    chmod(directory + "/known_peers", 0o600)
    let run = try Binary.run(["peers"], environment: home.environment)
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("SHA256:\(Self.escaped)"), "\(run.stderr)")
    expectClean(run.stderr, "stderr")
  }

  @Test func aFileNameIsShownEscaped() throws {
    let home = try home()
    defer { try? FileManager.default.removeItem(atPath: home.root) }
    let missing = home.root + "/\(Self.poison).p12"
    let run = try Binary.run(["identity", "import", missing], environment: home.environment)
    #expect(run.status != 0 && run.stderr.contains(Self.escaped), "\(run.stderr)")
    expectClean(run.stderr, "stderr")
  }
}

import NetworkFacts
import Testing
import Transport

@testable import App
@testable import PlayerFiles

/// Where the player names a relay: `relay = HOST:PORT` in the settings, `host --relay HOST:PORT`. The port must
/// be given; a host that could not go in an invite is refused where it is typed; the bot takes none.
@Suite struct RelaySettingTests {
  @Test func theSettingIsReadWrittenAndChecked() throws {
    var settings = try SettingsFile.parse("relay = relay.example.org:4001\n", path: "s")
    #expect(settings.relay == "relay.example.org:4001")
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    settings.relay = "[2001:db8::1]:4001"
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s").relay == "[2001:db8::1]:4001")
    #expect(try SettingsFile.parse("size = 3\n", path: "s").relay == nil, "no relay unless named")
    for bad in ["relay.example.org", "relay.example.org:0", "0177.0.0.1:4001", "bad host:4001", ":4001"] {
      #expect(throws: FileError.self, "\(bad)") { try SettingsFile.parse("relay = \(bad)\n", path: "s") }
    }
  }

  @Test func hostTakesRelayAndTheBotRefusesIt() throws {
    guard case .host(let request, _, _, _) = try CommandLineParser.parse(["host", "--relay", "127.0.0.1:4001"]) else {
      Issue.record("not a host")
      return
    }
    #expect(request.relay == Endpoint(host: "127.0.0.1", port: 4001))
    guard case .host(let without, _, _, _) = try CommandLineParser.parse(["host"]) else { return }
    #expect(without.relay == nil)
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["host", "--relay", "127.0.0.1"]) }
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["host", "--bot", "easy", "--relay", "h:4001"]) }
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["join", "h", "--relay", "h:4001"]) }
  }
}

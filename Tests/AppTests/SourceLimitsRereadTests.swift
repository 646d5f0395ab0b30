import PlayerSettings
import Testing

@testable import App
@testable import MatchCoordination
@testable import PlayerFiles
@testable import TerminalUI

/// The bot's SIGHUP: the deny list, the exempt addresses and the connections per address read again from the
/// settings, with what was counted so far kept.
@Suite struct SourceLimitsRereadTests {
  @Test func theSettingsFileReadsAndWritesTheConnectionsPerAddress() throws {
    let settings = try SettingsFile.parse("connections_per_address = 3\n", path: "s")
    #expect(settings.connectionsPerAddress == 3)
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    #expect(SourceLimits(settings: settings, now: 0).numbers.connectionsPerAddress == 3)
    #expect(SourceLimits(settings: Settings(), now: 0).numbers.connectionsPerAddress == 32, "the default")
    for bad in ["0", "4097", "many", "-1"] {
      let error = #expect(throws: FileError.self) {
        try SettingsFile.parse("connections_per_address = \(bad)\n", path: "s")
      }
      #expect(error?.reason == "connections_per_address must be a number from 1 to 4096, found \"\(bad)\"")
    }
  }

  @Test func aLowerLimitJudgesTheNextConnectionAndTheOpenOnesStayCounted() throws {
    var limits = SourceLimits(settings: try SettingsFile.parse("connections_per_address = 4\n", path: "s"), now: 0)
    for port in 1...3 { #expect(limits.connected("192.0.2.1:\(port)", now: 0) == nil) }
    limits.reread(try SettingsFile.parse("connections_per_address = 2\n", path: "s"))
    #expect(limits.openConnections(from: "192.0.2.1:9") == 3, "nobody is cut off")
    #expect(limits.connected("192.0.2.1:4", now: 0) == .tooManyConnections(2))
    #expect(limits.connected("192.0.2.2:1", now: 0) == nil)
    limits.disconnected("192.0.2.1:1")
    limits.disconnected("192.0.2.1:2")
    #expect(limits.connected("192.0.2.1:5", now: 0) == nil, "below the new limit again")
  }

  @Test func aNewDenyEntryRefusesTheNextConnectionAndOneRemovedLetsItIn() throws {
    var limits = SourceLimits(settings: Settings(), now: 0)
    #expect(limits.connected("198.51.100.7:1", now: 0) == nil)
    limits.reread(try SettingsFile.parse("deny = 198.51.100.0/24\n", path: "s"))
    #expect(limits.connected("198.51.100.7:2", now: 0) == .denied)
    #expect(limits.connected("[2001:db8::1]:2", now: 0) == nil)
    limits.reread(try SettingsFile.parse("deny = 2001:db8::/32\n", path: "s"))
    #expect(limits.connected("198.51.100.7:3", now: 0) == nil)
    #expect(limits.connected("[2001:db8::1]:3", now: 0) == .denied)
  }

  @Test func theRatesCountedSoFarAreNotGivenBackByAReread() throws {
    var limits = SourceLimits(settings: Settings(), now: 0)
    var allowed = 0
    for port in 0..<100 where limits.connected("192.0.2.1:\(port)", now: 0) == nil {
      allowed += 1
      limits.disconnected("192.0.2.1:\(port)")
    }
    #expect(allowed == Int(SourceLimits.Numbers().connectionBurst))
    limits.reread(Settings())
    #expect(limits.connected("192.0.2.1:200", now: 0) == .connectingTooOften, "no fresh burst")
  }

  @Test func anAddressMadeExemptForgetsItsCountAndOneNoLongerExemptStartsFromNone() throws {
    var limits = SourceLimits(settings: try SettingsFile.parse("connections_per_address = 1\n", path: "s"), now: 0)
    #expect(limits.connected("192.0.2.1:1", now: 0) == nil)
    #expect(limits.connected("[2001:db8:1:2::5]:1", now: 0) == nil)
    limits.reread(
      try SettingsFile.parse("connections_per_address = 1\nlimits_exempt = 192.0.2.1, 2001:db8:1::/48\n", path: "s"))
    #expect(limits.openConnections(from: "192.0.2.1:1") == 0)
    #expect(limits.connected("192.0.2.1:2", now: 0) == nil && limits.connected("192.0.2.1:3", now: 0) == nil)
    #expect(limits.connected("[2001:db8:1:2::6]:2", now: 0) == nil)
    limits.reread(try SettingsFile.parse("connections_per_address = 1\nlimits_exempt = none\n", path: "s"))
    #expect(limits.openConnections(from: "[2001:db8:1:2::5]:1") == 0, "its count was forgotten while exempt")
    #expect(limits.connected("127.0.0.1:1", now: 0) == nil)
    #expect(limits.connected("127.0.0.1:2", now: 0) == .tooManyConnections(1), "loopback is limited now")
  }
}

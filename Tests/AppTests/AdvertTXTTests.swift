import Discovery
import GameCore
import Testing

@testable import App

/// What a host's and the practice bot's LAN adverts say of their terms (docs/DISCOVERY.md): the rule variant as
/// `rule=` (protocol version 4) and the clock as `clock=`, each only when it is not the usual; version 4 listed.
@Suite struct AdvertTXTTests {
  static let key = "SHA256:" + String(repeating: "A", count: 43)

  @Test func aRenjuHostSaysItsRuleAndVersionFour() throws {
    let rules = try Rules(size: 15, k: 5, variant: .renju)
    let txt = try #require(
      LANAnnouncement.txt(
        name: "alice", rules: rules, timeControl: .fischer(base: 300_000, increment: 3_000),
        fingerprint: Self.key))
    let strings = String(decoding: txt.encoded, as: UTF8.self)
    #expect(strings.contains("rule=renju") && strings.contains("clock=5+3") && strings.contains("proto=2,3,4"))
    let read = ServiceTXT(decoding: txt.encoded)
    #expect(read.rule == "renju" && read.problems.isEmpty && read.rules?.description == "15x15k5")
  }

  @Test func freestyleAndNoClockSayNeither() throws {
    let txt = try #require(
      LANAnnouncement.txt(
        name: "robo", rules: try Rules(size: 9, k: 5), timeControl: .none, fingerprint: Self.key, bot: "easy"))
    #expect(txt.rule == nil && txt.clock == nil && txt.bot == "easy")
    let exact = try #require(
      LANAnnouncement.txt(
        name: "robo", rules: try Rules(size: 9, k: 5, variant: .exactFive), timeControl: .none,
        fingerprint: Self.key, bot: "easy"))
    #expect(exact.rule == "exact5")
  }
}

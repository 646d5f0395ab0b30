import Discovery
import GameCore
import Testing

@testable import App
@testable import NetworkShell

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

  /// A host offering Swap2 says `opening=swap2`, read back by the lobby's side; the usual opening says nothing.
  @Test func aSwap2HostSaysItsOpening() throws {
    let rules = try Rules(size: 15, k: 5)
    let txt = try #require(
      LANAnnouncement.txt(name: "alice", rules: rules, timeControl: .none, fingerprint: Self.key, opening: .swap2))
    #expect(String(decoding: txt.encoded, as: UTF8.self).contains("opening=swap2"))
    let read = ServiceTXT(decoding: txt.encoded)
    #expect(read.opening == "swap2" && read.problems.isEmpty)
    let usual = try #require(LANAnnouncement.txt(name: "a", rules: rules, timeControl: .none, fingerprint: Self.key))
    #expect(usual.opening == nil)
    var bad = read
    bad.opening = "Swap 2!"
    #expect(ServiceTXT(decoding: bad.encoded).opening == nil)
  }
}

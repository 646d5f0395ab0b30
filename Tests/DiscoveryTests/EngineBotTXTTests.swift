import Testing

@testable import Discovery

/// A practice bot that an outside engine plays for says so on the LAN: `bot=engine` (a word an older reader takes
/// for a level, so it still sees a bot) and `engine=NAME`, the program's name with no control, format or
/// line-breaking character, at most 32 bytes; a received `engine` that breaks those rules is a problem, not a name.
@Suite struct EngineBotTXTTests {
  static let fingerprint = ServiceTXTTests.fingerprint

  static func strings(_ extra: [String]) -> [UInt8] {
    ServiceTXTTests.record(
      ["txtvers=1", "proto=4", "rules=15x15k5", "state=waiting", "fp=\(fingerprint)", "name=robo"] + extra)
  }

  static func published(engine: String) -> ServiceTXT {
    ServiceTXT(
      protocolVersions: [4], rules: ServiceTXT.Rules(rows: 15, columns: 15, k: 5)!, state: .waiting,
      fingerprint: fingerprint, displayName: "robo", bot: ServiceTXT.engineBot, engine: engine)
  }

  @Test func anEngineBotIsPublishedAsBotEngineWithItsNameAndReadBack() {
    let txt = Self.published(engine: "brain.py")
    #expect(txt.encoded == Self.strings(["bot=engine", "engine=brain.py"]))
    let read = ServiceTXT(decoding: txt.encoded)
    #expect(read == txt && read.problems.isEmpty)
    #expect(read.bot == "engine" && read.engine == "brain.py")
    // A level bot has no `engine` key.
    #expect(ServiceTXTTests.sample().engine == nil)
    #expect(ServiceTXT(decoding: Self.strings(["bot=perfect"])).engine == nil)
  }

  @Test(arguments: [
    ("brain\u{1b}]2;owned\u{07}.py", "brain]2;owned.py"),
    ("a\u{202e}txt.exe", "atxt.exe"),
    ("line\u{2028}break\nnext\r", "linebreaknext"),
    ("k=v=w", "k=v=w"),
    (String(repeating: "x", count: 40), String(repeating: "x", count: 32)),
    (String(repeating: "é", count: 20), String(repeating: "é", count: 16)),
  ])
  func aHostileNameIsCleanedAndCutWhenPublished(name: String, kept: String) {
    let txt = Self.published(engine: name)
    #expect(txt.engine == kept)
    #expect(txt.engine.map { $0.utf8.count <= ServiceTXT.engineNameBytes } == true)
    let read = ServiceTXT(decoding: txt.encoded)
    #expect(read.engine == kept && read.problems.isEmpty, "\(read.problems)")
  }

  @Test func aNameOfOnlyControlsIsNotPublished() {
    #expect(Self.published(engine: "\u{1b}\u{07}\u{200f}").engine == nil)
  }

  @Test(arguments: [
    "", "brain\u{1b}[2J", "a\u{202e}b", "x\ny", String(repeating: "n", count: 33), String(repeating: "é", count: 17),
  ])
  func aHostileReceivedNameIsAProblem(value: String) {
    let read = ServiceTXT(decoding: Self.strings(["bot=engine", "engine=\(value)"]))
    #expect(read.engine == nil)
    #expect(read.bot == "engine")
    #expect(read.problems == [.invalidValue(key: "engine", value: value)], "\(read.problems)")
  }
}

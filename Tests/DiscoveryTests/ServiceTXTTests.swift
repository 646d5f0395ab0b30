import TestSupport
import Testing

@testable import Discovery

/// The `_tictactoe._tcp` TXT record: our layout, RFC 6763's rules, and foreign records that are wrong.
@Suite("ServiceTXT")
struct ServiceTXTTests {
  static let fingerprint = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"

  static func sample(state: ServiceTXT.GameState = .waiting, name: String? = "Alice") -> ServiceTXT {
    ServiceTXT(
      protocolVersions: [1], rules: ServiceTXT.Rules(rows: 3, columns: 3, k: 3)!, state: state,
      fingerprint: fingerprint, displayName: name)
  }

  /// Builds TXT data from strings, the way another publisher would.
  static func record(_ strings: [String]) -> [UInt8] {
    TXTRecordStrings.encode(strings.map { Array($0.utf8) })
  }

  @Test("encodes each field as a length-prefixed key=value string, without host or port")
  func encodesOurLayout() {
    let expected = Self.record([
      "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "name=Alice",
    ])
    #expect(Self.sample().encoded == expected)
    let text = String(decoding: Self.sample().encoded, as: UTF8.self)
    #expect(!text.contains("port") && !text.contains("host"))
  }

  @Test("decodes what it encodes, with no problems")
  func roundTrip() {
    for state in ServiceTXT.GameState.allCases {
      for name in [nil, "Alice", "Zoë 🎲", "a=b=c"] {
        let txt = Self.sample(state: state, name: name)
        let decoded = ServiceTXT(decoding: txt.encoded)
        #expect(decoded == txt)
        #expect(decoded.problems.isEmpty)
      }
    }
  }

  @Test("a practice bot is marked with bot=LEVEL after the other keys; a bad level is a problem, not fatal")
  func botKey() {
    var txt = Self.sample()
    txt.bot = "perfect"
    let expected = Self.record([
      "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "name=Alice", "bot=perfect",
    ])
    #expect(txt.encoded == expected)
    #expect(ServiceTXT(decoding: txt.encoded) == txt)
    #expect(ServiceTXT(decoding: Self.sample().encoded).bot == nil)
    for bad in ["", "Perfect", "very-strong", String(repeating: "a", count: 17)] {
      let decoded = ServiceTXT(
        decoding: Self.record([
          "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "bot=\(bad)",
        ]))
      #expect(decoded.bot == nil)
      #expect(decoded.problems == [.invalidValue(key: "bot", value: bad)], "\(bad)")
      #expect(decoded.rules != nil && decoded.fingerprint != nil)
    }
  }

  @Test("a timed game says clock=CONTROL last; a value outside the grammar's characters is a problem, not fatal")
  func clockKey() {
    var txt = Self.sample()
    txt.clock = "5+3"
    let expected = Self.record([
      "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "name=Alice", "clock=5+3",
    ])
    #expect(txt.encoded == expected)
    #expect(ServiceTXT(decoding: txt.encoded) == txt)
    #expect(ServiceTXT(decoding: Self.sample().encoded).clock == nil)
    for good in ["move:20s", "30s+2", "1.5+0"] {
      txt.clock = good
      #expect(ServiceTXT(decoding: txt.encoded).clock == good)
    }
    for bad in ["", "5+3\u{1b}[2J", "five", String(repeating: "1", count: 25)] {
      let decoded = ServiceTXT(
        decoding: Self.record([
          "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "clock=\(bad)",
        ]))
      #expect(decoded.clock == nil)
      #expect(decoded.problems == [.invalidValue(key: "clock", value: bad)], "\(bad)")
    }
  }

  @Test("a rule other than freestyle says rule=NAME after the clock; other characters are a problem, not fatal")
  func ruleKey() {
    var txt = Self.sample()
    txt.clock = "5+3"
    txt.rule = "renju"
    let expected = Self.record([
      "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "name=Alice", "clock=5+3",
      "rule=renju",
    ])
    #expect(txt.encoded == expected)
    #expect(ServiceTXT(decoding: txt.encoded) == txt)
    #expect(ServiceTXT(decoding: Self.sample().encoded).rule == nil)
    for bad in ["", "Renju", "renju\u{1b}[2J", "exact 5", String(repeating: "r", count: 17)] {
      let decoded = ServiceTXT(
        decoding: Self.record([
          "txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)", "rule=\(bad)",
        ]))
      #expect(decoded.rule == nil)
      #expect(decoded.problems == [.invalidValue(key: "rule", value: bad)], "\(bad)")
    }
  }

  @Test("an empty record is the single zero byte, and decodes with every required key missing")
  func emptyRecord() {
    #expect(TXTRecordStrings.encode([]) == [0])
    let decoded = ServiceTXT(decoding: [0])
    #expect(decoded.txtVersion == nil && decoded.rules == nil && decoded.fingerprint == nil)
    #expect(
      decoded.problems == ["txtvers", "proto", "rules", "state", "fp"].map { TXTProblem.missingKey($0) })
    #expect(ServiceTXT(decoding: []).problems.count == 5)
  }

  @Test("keys are case-insensitive, unknown keys are ignored, only the first of a repeated key counts")
  func rfc6763KeyRules() {
    let decoded = ServiceTXT(
      decoding: Self.record([
        "TxtVers=1", "PROTO=1,2", "Rules=15x15k5", "STATE=playing", "colour=blue", "flag", "fp=\(Self.fingerprint)",
        "state=waiting", "",
      ]))
    #expect(decoded.txtVersion == 1)
    #expect(decoded.protocolVersions == [1, 2])
    #expect(decoded.rules == ServiceTXT.Rules(rows: 15, columns: 15, k: 5))
    #expect(decoded.state == .playing)
    #expect(decoded.fingerprint == Self.fingerprint)
    #expect(decoded.displayName == nil)
    #expect(decoded.problems == [.duplicateKey("state")])
  }

  @Test("a key without '=' is a boolean attribute: for our keys that is an invalid value")
  func booleanKey() {
    let decoded = ServiceTXT(
      decoding: Self.record(["txtvers=1", "proto=1", "rules", "state=waiting", "fp=\(Self.fingerprint)"]))
    #expect(decoded.rules == nil)
    #expect(decoded.problems == [.invalidValue(key: "rules", value: "")])
  }

  @Test(
    "invalid values leave the field nil and are listed",
    arguments: [
      ("rules", "banana"), ("rules", "3x3"), ("rules", "0x3k3"), ("rules", "3x3k3x"), ("rules", "1000x3k3"),
      ("rules", "-3x3k3"), ("rules", " 3x3k3"), ("proto", ""), ("proto", "1,,2"), ("proto", "0"), ("proto", "one"),
      ("state", "asleep"), ("fp", "MD5:abc"), ("fp", "SHA256:short"),
      ("fp", "SHA256:" + String(repeating: "!", count: 43)),
    ])
  func invalidValues(key: String, value: String) {
    var strings = ["txtvers=1", "proto=1", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)"]
    strings.removeAll { $0.hasPrefix(key + "=") }
    strings.append("\(key)=\(value)")
    let decoded = ServiceTXT(decoding: Self.record(strings))
    #expect(decoded.problems == [.invalidValue(key: key, value: value)])
    switch key {
    case "rules": #expect(decoded.rules == nil)
    case "proto": #expect(decoded.protocolVersions == nil)
    case "state": #expect(decoded.state == nil)
    default: #expect(decoded.fingerprint == nil)
    }
  }

  @Test("a truncated length byte, non-UTF-8 values, keyless and non-ASCII keys are reported, not fatal")
  func malformedBytes() {
    var bytes = Self.sample().encoded
    bytes += [40] + Array("name=cut".utf8)
    let truncated = ServiceTXT(decoding: bytes)
    #expect(truncated.problems == [.truncated(offset: Self.sample().encoded.count)])
    #expect(truncated.rules == Self.sample().rules)

    let notUTF8 = ServiceTXT(
      decoding: [9] + Array("txtvers=".utf8) + [0xFF] + [4] + Array("=abc".utf8) + [3, 0xC3, 0xA9, 0x3D])
    #expect(notUTF8.txtVersion == nil)
    #expect(notUTF8.problems.contains(.notUTF8(key: "txtvers")))
    #expect(notUTF8.problems.contains(.emptyKey))
    #expect(notUTF8.problems.contains(.invalidKey))
  }

  @Test("an unknown txtvers is reported and the fields we know are still read")
  func unknownVersion() {
    let decoded = ServiceTXT(
      decoding: Self.record(["txtvers=2", "proto=3", "rules=3x3k3", "state=waiting", "fp=\(Self.fingerprint)"]))
    #expect(decoded.txtVersion == nil)
    #expect(decoded.protocolVersions == [3])
    #expect(decoded.problems == [.unknownTXTVersion("2")])
  }

  @Test("a display name too long for one TXT string is shortened at a character boundary")
  func longName() {
    let txt = Self.sample(name: String(repeating: "é", count: 200))
    #expect(txt.displayName?.utf8.count == 250)
    let decoded = ServiceTXT(decoding: txt.encoded)
    #expect(decoded.displayName == txt.displayName)
    #expect(decoded.problems.isEmpty)
  }

  @Test("random bytes never crash, and every field decoded from them is valid")
  func randomBytes() {
    var generator = SeededGenerator(seed: 0x7171_7AC7)
    let alphabet = Array("txtvers=proto=rules=3x3k3,state=waiting|playing fp=SHA256:name=".utf8)
    for round in 0..<20_000 {
      let count = Int.random(in: 0...300, using: &generator)
      let bytes: [UInt8] = (0..<count).map { _ in
        round % 2 == 0
          ? UInt8.random(in: 0...255, using: &generator)
          : Bool.random(using: &generator)
            ? UInt8.random(in: 0...20, using: &generator) : alphabet.randomElement(using: &generator) ?? 0
      }
      let decoded = ServiceTXT(decoding: bytes)
      if let rules = decoded.rules { #expect(ServiceTXT.Rules(parsing: rules.description) == rules) }
      if let versions = decoded.protocolVersions { #expect(!versions.isEmpty && versions.allSatisfy { $0 > 0 }) }
      if let fingerprint = decoded.fingerprint { #expect(fingerprint.utf8.count == 50) }
      if decoded.problems.isEmpty { #expect(ServiceTXT(decoding: decoded.encoded) == decoded) }
    }
  }

  @Test("random valid records survive a round trip, each string within 255 bytes")
  func randomRoundTrips() {
    var generator = SeededGenerator(seed: 42)
    for _ in 0..<2_000 {
      let rules = ServiceTXT.Rules(
        rows: Int.random(in: 1...999, using: &generator), columns: Int.random(in: 1...999, using: &generator),
        k: Int.random(in: 1...999, using: &generator))!
      let versions = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
        Int.random(in: 1...9999, using: &generator)
      }
      let scalars = (0..<Int.random(in: 0...120, using: &generator)).compactMap { _ in
        Unicode.Scalar(UInt32.random(in: 0x20...0x2FFF, using: &generator))
      }
      let name = String(String.UnicodeScalarView(scalars))
      let txt = ServiceTXT(
        protocolVersions: versions, rules: rules, state: Bool.random(using: &generator) ? .waiting : .playing,
        fingerprint: ServiceTXTTests.fingerprint, displayName: name)
      let (strings, truncated) = TXTRecordStrings.decode(txt.encoded)
      #expect(truncated == nil && strings.allSatisfy { $0.count <= 255 })
      #expect(ServiceTXT(decoding: txt.encoded) == txt)
    }
  }
}

/// Valid records with random damage: the decoder keeps what is intact.
@Suite("ServiceTXT mutations")
struct ServiceTXTMutationTests {
  @Test("flipped, dropped, inserted and truncated bytes never crash and never yield an invalid field")
  func mutations() {
    var generator = SeededGenerator(seed: 2026)
    let original = ServiceTXTTests.sample().encoded
    for _ in 0..<20_000 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        guard !bytes.isEmpty else { break }
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
        case 1: bytes.remove(at: index)
        case 2: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
        default: bytes.removeSubrange(index...)
        }
      }
      let decoded = ServiceTXT(decoding: bytes)
      if let rules = decoded.rules { #expect(ServiceTXT.Rules(parsing: rules.description) == rules) }
      if let fingerprint = decoded.fingerprint { #expect(fingerprint.hasPrefix("SHA256:")) }
      if let state = decoded.state { #expect(ServiceTXT.GameState.allCases.contains(state)) }
      if decoded.problems.isEmpty {
        #expect(decoded.txtVersion == 1 && decoded.rules != nil && decoded.fingerprint != nil)
      }
    }
  }
}

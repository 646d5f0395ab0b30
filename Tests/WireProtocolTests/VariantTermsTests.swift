import GameCore
import Testing

@testable import WireProtocol

/// Version 4's terms (PROTOCOL.md, "Version 4: rule variants and openings"): the rule variant in field 6 of the
/// host's hello and the opening in field 7 round trip, a freestyle host's hello is version 3's bytes, and a value
/// no version defines is refused by name.
@Suite struct VariantTermsTests {
  static let renju = try! Rules(size: 15, k: 5, variant: .renju)
  static let exact = try! Rules(rows: 9, columns: 11, k: 5, variant: .exactFive)

  static let samples: [HostTerms] = [
    HostTerms(rules: renju),
    HostTerms(rules: exact, timeControl: .fischer(base: 60_000, increment: 2_000)),
    HostTerms(rules: renju, opening: .swap2, keptGame: 3),
    HostTerms(rules: try! Rules(size: 15, k: 5), opening: .swap2),
  ]

  @Test(arguments: samples) func theTermsRoundTrip(terms: HostTerms) throws {
    let message = Message.hello(versions: [4, 3, 2], name: "Alice", software: "t", terms: terms)
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == message)
    let tags = try Fields(decoding: frame.payload, kind: .hello).all.map(\.tag)
    #expect(tags == tags.sorted(), "fields go out in increasing tag order")
  }

  /// The documented bytes: after the rules (tag 4), tag 6 holds 2 for renju and tag 7 holds 1 for swap2.
  @Test func theBytesAreTheDocumentedOnes() {
    let terms = HostTerms(rules: Self.renju, opening: .swap2)
    let bytes = Message.hello(versions: [4], name: "A", software: "t", terms: terms).bytes
    #expect(hex(Array(bytes.suffix(6 + 4 + 4))) == "04 00 03 0f 0f 05 06 00 01 02 07 00 01 01")
    let exact = Message.hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: Self.exact)).bytes
    #expect(hex(Array(exact.suffix(4))) == "06 00 01 01")
  }

  /// Freestyle and no opening are left out: such a host's hello is the bytes version 3 sent, so an older joiner
  /// reads exactly what it always did.
  @Test func aFreestyleHostSendsVersionThreesBytes() {
    let plain = HostTerms(rules: try! Rules(size: 15, k: 5), timeControl: .perMove(20_000))
    let hello = Message.hello(versions: [3], name: "A", software: "t", terms: plain).frame
    #expect(try! Fields(decoding: hello.payload, kind: .hello).all.map(\.tag) == [1, 2, 3, 4, 5])
    #expect(plain.minimumVersion == 2 && !plain.needsVersion4 && plain.version4Terms == nil)
  }

  /// An older reader skips tags it does not know; so does this one, for tags after 7 that no term here has.
  @Test func unknownTagsAmongTheTermsAreSkipped() throws {
    let hello = Message.hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: Self.renju)).frame
    let decoded = try Message.decode(hello.replacing(tag: 9, with: [1, 2, 3]))
    #expect(decoded == .hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: Self.renju)))
  }

  @Test func whatNeedsVersionFourIsNamed() {
    #expect(HostTerms(rules: Self.renju).minimumVersion == 4)
    #expect(HostTerms(rules: Self.renju).version4Terms == "the renju rule")
    #expect(
      HostTerms(rules: Self.exact, opening: .swap2).version4Terms == "the exact5 rule and the swap2 opening")
    #expect(HostTerms(rules: .standard, opening: .swap2).minimumVersion == 4)
    #expect(HostTerms(rules: Self.exact).asksConsent, "an untimed game under another rule is put to the joiner")
  }

  @Test func badVariantsAndOpeningsAreRefusedByName() {
    let hello = Message.hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: Self.renju)).frame
    #expect(
      throws: WireError.badValue("rule variant", reason: "it is 3, not 0 (freestyle), 1 (exact five) or 2 (renju)")
    ) { try Message.decode(hello.replacing(tag: 6, with: [3])) }
    #expect(throws: WireError.badValue("opening", reason: "it is 2, not 0 (none) or 1 (swap2)")) {
      try Message.decode(hello.replacing(tag: 7, with: [2]))
    }
    #expect(throws: WireError.badValue("rule variant", reason: "2 bytes, expected 1")) {
      try Message.decode(hello.replacing(tag: 6, with: [0, 2]))
    }
    #expect(
      throws: WireError.badValue(
        "rules",
        reason: "the renju rule is for five in a row, not 4: "
          + "play it with k = 5 on a board of at least 5×5, or choose the freestyle rule")
    ) { try Message.decode(hello.replacing(tag: 4, with: [15, 15, 4])) }
    let bare = Message.hello(versions: [4], name: "A", software: "t").frame
    #expect(throws: WireError.badValue("rule variant", reason: "renju without the rules it varies (field 4)")) {
      try Message.decode(bare.replacing(tag: 6, with: [2]))
    }
    // 0 is freestyle written out: allowed, and read as the absent field.
    #expect(
      (try? Message.decode(hello.replacing(tag: 6, with: [0])))
        == .hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: try! Rules(size: 15, k: 5))))
  }
}

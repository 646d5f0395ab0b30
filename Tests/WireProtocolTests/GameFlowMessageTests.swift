import GameCore
import Testing

@testable import WireProtocol

/// Version 3's messages (PROTOCOL.md, "The terms" and rules 14 to 17): each round trips through the codec, the
/// host's terms ride in its hello where an older reader skips them, and malformed values are refused by name.
@Suite struct GameFlowMessageTests {
  static let samples: [Message] = [
    .hello(
      versions: [3, 2], name: "Alice", software: "t",
      terms: HostTerms(rules: try! Rules(size: 15, k: 5), timeControl: .fischer(base: 300_000, increment: 3_000))),
    .hello(
      versions: [3], name: "Alice", software: "t", terms: HostTerms(rules: .standard, timeControl: .perMove(20_000))),
    .hello(versions: [3], name: "Alice", software: "t", terms: HostTerms(rules: .standard)),
    .hello(versions: [3], name: "Alice", software: "t", terms: HostTerms(rules: nil, timeControl: .perMove(1))),
    .move(ply: 7, position: Position(row: 3, column: 4), clock: MoveClock(thinking: 12_345, echo: 678)),
    .move(ply: 1, position: Position(row: 0, column: 0), clock: MoveClock(thinking: 0, echo: nil)),
    .move(ply: 9, position: Position(row: 1, column: 1), clock: MoveClock(thinking: Int(UInt32.max), echo: 0)),
    .drawOffer, .drawAccept, .drawDecline,
    .takebackRequest(ply: 4), .takebackAccept(ply: 4), .takebackDecline(ply: 0),
    .abort(seen: 0), .abort(seen: 1),
    .flagClaim(ply: 12, timeLeft: 9_000, observed: 10_001),
    .flagAnswer(ply: 12, disputed: false, thinking: 9_500), .flagAnswer(ply: 12, disputed: true, thinking: 100),
    .bye(.termsDeclined, text: "no clock for me"),
  ]

  @Test(arguments: samples) func roundTrips(message: Message) throws {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == message)
    let tags = try Fields(decoding: frame.payload, kind: .hello).all.map(\.tag)
    #expect(tags == tags.sorted(), "fields go out in increasing tag order")
  }

  /// The documented layout of the terms: tag 4 the rules, tag 5 kind, base and increment in milliseconds.
  @Test func theTermsBytesAreTheDocumentedOnes() {
    let terms = HostTerms(rules: try! Rules(size: 15, k: 5), timeControl: .fischer(base: 300_000, increment: 3_000))
    let bytes = Message.hello(versions: [3], name: "A", software: "t", terms: terms).bytes
    let tail = Array(bytes.suffix(6 + 12))
    #expect(hex(tail) == "04 00 03 0f 0f 05 05 00 09 01 00 04 93 e0 00 00 0b b8")
  }

  /// An older reader knows tags 1 to 3 of hello only: the same bytes without the terms say the same to it.
  @Test func aReaderOfTheOldFieldsSeesTheSameHello() throws {
    let terms = HostTerms(rules: .standard, timeControl: .perMove(20_000))
    let withTerms = Message.hello(versions: [3, 2], name: "Alice", software: "t", terms: terms).frame
    let fields = try Fields(decoding: withTerms.payload, kind: .hello).all
    var writer = FrameWriter(type: withTerms.type)
    for field in fields where field.tag <= 3 { writer.field(field.tag, bytes: field.value) }
    let old = try Message.decode(Frame(type: withTerms.type, payload: Array(writer.finish()[3...])))
    #expect(old == .hello(versions: [3, 2], name: "Alice", software: "t", terms: nil))
    // And a move's clock fields are skipped the same way: an untimed reader sees the bare move.
    let timed = Message.move(ply: 2, position: Position(row: 1, column: 1), clock: MoveClock(thinking: 5, echo: 6))
    #expect(
      Array(timed.bytes[3..<16]) == Array(Message.move(ply: 2, position: Position(row: 1, column: 1)).bytes[3...]))
  }

  @Test func onlyATimedGameAsksTheJoinersConsent() {
    #expect(HostTerms(rules: .standard, timeControl: .perMove(20_000)).asksConsent)
    #expect(!HostTerms(rules: .standard).asksConsent)
  }

  @Test func theNewestVersionBothSpeakIsChosen() {
    #expect(ProtocolVersion.supported == [4, 3, 2])
    #expect(ProtocolVersion.choose(theirs: [3, 2]) == 3)
    #expect(ProtocolVersion.choose(theirs: [2]) == 2)
    #expect(ProtocolVersion.choose(theirs: [4, 3]) == 4)
    #expect(ProtocolVersion.choose(theirs: [5, 4, 3]) == 4)
    #expect(ProtocolVersion.choose(theirs: [5, 3]) == 3)
    #expect(ProtocolVersion.choose(theirs: [1]) == nil)
    #expect(
      Message.drawOffer.minimumVersion == 3
        && Message.flagAnswer(ply: 0, disputed: true, thinking: 0).minimumVersion == 3)
    #expect(Message.resign.minimumVersion == 1 && Message.coinKept(hostPlaysX: true).minimumVersion == 2)
  }

  static func hello(timeControl bytes: [UInt8]) -> Frame {
    Message.hello(versions: [3], name: "A", software: "t").frame.replacing(tag: 5, with: bytes)
  }

  static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

  @Test(arguments: [
    ([UInt8](repeating: 0, count: 8), "time control: 8 bytes, expected 9"),
    ([3] + u32(1_000) + u32(0), "time control: kind 3 with base 1000 ms and increment 0 ms"),
    ([0] + u32(1_000) + u32(0), "time control: kind 0 with base 1000 ms and increment 0 ms"),
    ([2] + u32(1_000) + u32(5), "time control: kind 2 with base 1000 ms and increment 5 ms"),
    ([1] + u32(0) + u32(5), "time control: the base time is 0"),
    ([2] + u32(0) + u32(0), "time control: the time per move is 0"),
    ([1] + u32(86_400_001) + u32(0), "time control: the base time is longer than a day"),
    ([1] + u32(60_000) + u32(86_400_001), "time control: the increment is longer than a day"),
  ])
  func aBadTimeControlIsRefused(bytes: [UInt8], reason: String) {
    #expect(throws: WireError.self) { try Message.decode(Self.hello(timeControl: bytes)) }
    do {
      _ = try Message.decode(Self.hello(timeControl: bytes))
    } catch {
      #expect(error.description == "a bad \(reason)")
    }
  }

  @Test func otherMalformedFieldsAreRefusedByName() {
    let hello = Message.hello(versions: [3], name: "A", software: "t").frame
    #expect(throws: WireError.badValue("rules", reason: "board side 16 is out of range: it must be from 3 to 15")) {
      try Message.decode(hello.replacing(tag: 4, with: [16, 16, 5]))
    }
    #expect(throws: WireError.badValue("rules", reason: "2 bytes, expected 3")) {
      try Message.decode(hello.replacing(tag: 4, with: [3, 3]))
    }
    let move = Message.move(ply: 1, position: Position(row: 0, column: 0)).frame
    #expect(throws: WireError.missingField("thinking time", in: "move")) {
      try Message.decode(move.replacing(tag: 5, with: Self.u32(7)))
    }
    #expect(throws: WireError.badValue("thinking time", reason: "3 bytes, expected 4")) {
      try Message.decode(move.replacing(tag: 4, with: [0, 0, 7]))
    }
    #expect(throws: WireError.badValue("moves seen", reason: "an abort after 2 moves (at most 1)")) {
      try Message.decode(Frame(type: 0x2A, payload: [1, 0, 2, 0, 2]))
    }
    #expect(throws: WireError.badValue("verdict", reason: "it is 3, not 1 (conceded) or 2 (disputed)")) {
      try Message.decode(Frame(type: 0x2C, payload: [1, 0, 2, 0, 1, 2, 0, 1, 3, 3, 0, 4, 0, 0, 0, 1]))
    }
    #expect(throws: WireError.missingField("ply", in: "takebackRequest")) {
      try Message.decode(Frame(type: 0x27, payload: []))
    }
    #expect(throws: WireError.missingField("time seen", in: "flagClaim")) {
      try Message.decode(Frame(type: 0x2B, payload: [1, 0, 2, 0, 1, 2, 0, 4, 0, 0, 0, 1]))
    }
    #expect(throws: WireError.truncatedField(tag: 1)) { try Message.decode(Frame(type: 0x28, payload: [1, 0, 2, 0])) }
  }
}

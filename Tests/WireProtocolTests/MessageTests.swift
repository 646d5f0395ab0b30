import Foundation
import GameCore
import Testing

@testable import WireProtocol

@Suite struct MessageTests {
  static let samples: [Message] = [
    .hello(versions: [1], name: "Alice", software: "tictactoe 0.1.0"),
    .welcome(version: 1, rules: .standard),
    .refuse(.busy, text: "the host is in a game"),
    .coinCommit(digest: Array(repeating: 0xAB, count: 32)),
    .coinShare(bytes: Array(0..<32)),
    .coinReveal(secret: Array(repeating: 7, count: 32)),
    .move(ply: 0, position: Position(row: 1, column: 1)),
    .move(ply: 224, position: Position(row: 14, column: 14)),
    .resign, .rematchOffer, .rematchAccept, .heartbeat,
    .chat("gg ✌️"),
    .bye(.quit, text: "Alice left"),
    .error(text: "move out of turn"),
    .recordSignature(game: 3, date: "2026-12-01", signature: Array(repeating: 0x30, count: 71)),
  ]

  @Test func aRecordSignatureNeedsADateAndASignatureOfSensibleSize() throws {
    func decode(_ message: Message) throws -> Message? { try Message.decode(message.frame) }
    for date in ["2026-12-1", "2026/12/01", "20261201xx", ""] {
      #expect(throws: WireError.self) { try decode(.recordSignature(game: 1, date: date, signature: [1])) }
    }
    #expect(throws: WireError.self) { try decode(.recordSignature(game: 1, date: "2026-12-01", signature: [])) }
    let big = Array(repeating: UInt8(1), count: 1025)
    #expect(throws: WireError.self) { try decode(.recordSignature(game: 1, date: "2026-12-01", signature: big)) }
    #expect(Message.recordSignature(game: 1, date: "2026-12-01", signature: [9]).frame.type == 0x70)
  }

  @Test(arguments: samples)
  func everyMessageRoundTrips(message: Message) throws {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == message)
    #expect(try decoder.next() == nil)
  }

  /// `bytes` is written in one pass and `frame` cut from it: both must describe the same frame, field by field.
  @Test(arguments: samples)
  func theFrameAndTheBytesAgree(message: Message) throws {
    let frame = message.frame
    #expect(frame.bytes == message.bytes)
    #expect(frame.type == message.bytes[2])
    let fields = try Fields(decoding: frame.payload, kind: .hello).all
    #expect(fields.map(\.tag) == fields.map(\.tag).sorted(), "fields go out in increasing tag order")
  }

  @Test func aRepeatedFieldIsRefusedWhereverItIs() {
    // Tag 2 twice, with tag 1 between: the second 2 is the duplicate.
    let payload: [UInt8] = [2, 0, 1, 9, 1, 0, 0, 2, 0, 1, 9]
    #expect(throws: WireError.duplicateField(tag: 2)) { try Fields(decoding: payload, kind: .move) }
  }

  /// The example dump in docs/PROTOCOL.md.
  @Test func moveBytesMatchTheDocumentedDump() {
    let bytes = Message.move(ply: 4, position: Position(row: 2, column: 0)).bytes
    #expect(bytes == [0x00, 0x0E, 0x20, 0x01, 0x00, 0x02, 0x00, 0x04, 0x02, 0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00])
    let hello = Message.hello(versions: [2], name: "Bob", software: "tictactoe 0.2.0").bytes
    #expect(
      hex(hello) == "00 1e 01 01 00 02 00 02 02 00 03 42 6f 62 03 00 0f 74 69 63 74 61 63 74 6f 65 20 30 2e 32 2e 30")
    let welcome = Message.welcome(version: 2, rules: .standard).bytes
    #expect(hex(welcome) == "00 12 02 01 00 02 00 02 02 00 01 03 03 00 01 03 04 00 01 03")
  }

  /// A clock's four-byte fields, big-endian, after a two-byte one (the writer appends them byte by byte).
  @Test func aFlagClaimsBytesMatchTheLayout() {
    let bytes = Message.flagClaim(ply: 7, timeLeft: 0x0102_0304, observed: 300).bytes
    #expect(
      hex(bytes) == "00 14 2b 01 00 02 00 07 02 00 04 01 02 03 04 03 00 04 00 00 01 2c")
  }

  @Test func framesSurviveAnySplitOfTheStream() throws {
    let stream = MessageTests.samples.flatMap(\.bytes)
    for chunk in [1, 2, 3, 7, 64, stream.count] {
      var decoder = FrameDecoder()
      var decoded: [Message] = []
      var index = 0
      while index < stream.count {
        decoder.feed(Array(stream[index..<min(index + chunk, stream.count)]))
        index += chunk
        while let frame = try decoder.next() {
          if let message = try Message.decode(frame) { decoded.append(message) }
        }
      }
      #expect(decoded == MessageTests.samples)
      #expect(decoder.pendingCount == 0)
    }
  }

  @Test func anOversizeLengthIsRefusedFromItsHeaderAlone() throws {
    var decoder = FrameDecoder()
    decoder.feed([0xFF, 0xFF])
    #expect(throws: WireError.oversize(length: 65535, maximum: 4096)) { try decoder.next() }
    var atLimit = FrameDecoder()
    atLimit.feed([0x10, 0x00, 0x30])
    #expect(try atLimit.next() == nil)  // 4096 is allowed: waits for the rest
    var overLimit = FrameDecoder()
    overLimit.feed([0x10, 0x01])
    #expect(throws: WireError.oversize(length: 4097, maximum: 4096)) { try overLimit.next() }
  }

  @Test func anEmptyFrameIsMalformed() {
    var decoder = FrameDecoder()
    decoder.feed([0x00, 0x00])
    #expect(throws: WireError.emptyFrame) { try decoder.next() }
  }

  @Test func unknownMessageTypesAreIgnoredAndUnknownFieldsSkipped() throws {
    #expect(try Message.decode(Frame(type: 0x7F, payload: [1, 2, 3])) == nil)
    // A move with an extra field 9 that a later version might add.
    let payload: [UInt8] = [1, 0, 2, 0, 3, 2, 0, 1, 1, 3, 0, 1, 2, 9, 0, 2, 0xDE, 0xAD]
    #expect(
      try Message.decode(Frame(type: 0x20, payload: payload)) == .move(ply: 3, position: Position(row: 1, column: 2)))
  }

  @Test func malformedMessagesSayWhatIsWrong() {
    #expect(throws: WireError.missingField("ply", in: "move")) { try Message.decode(Frame(type: 0x20, payload: [])) }
    #expect(throws: WireError.truncatedField(tag: 1)) { try Message.decode(Frame(type: 0x30, payload: [1, 0, 9, 65])) }
    #expect(throws: WireError.duplicateField(tag: 1)) {
      try Message.decode(Frame(type: 0x30, payload: [1, 0, 1, 65, 1, 0, 1, 66]))
    }
    #expect(throws: WireError.invalidUTF8(field: "chat text")) {
      try Message.decode(Frame(type: 0x30, payload: [1, 0, 2, 0xC3, 0x28]))
    }
    #expect(throws: WireError.badValue("coin share", reason: "3 bytes, expected 32")) {
      try Message.decode(Frame(type: 0x11, payload: [1, 0, 3, 1, 2, 3]))
    }
    let long = Array(repeating: UInt8(65), count: 501)
    #expect(throws: WireError.fieldTooLong("chat text", length: 501, maximum: 500)) {
      try Message.decode(Frame(type: 0x30, payload: [1, 0x01, 0xF5] + long))
    }
    #expect(throws: WireError.badValue("rules", reason: "board side 20 is out of range: it must be from 3 to 15")) {
      try Message.decode(Message.welcome(version: 1, rules: .standard).frame.replacing(tag: 2, with: [20]))
    }
    #expect(throws: WireError.badValue("player name", reason: "it is empty")) {
      try Message.decode(Message.hello(versions: [1], name: "x", software: "s").frame.replacing(tag: 2, with: []))
    }
  }

  /// Random bytes from a seeded generator: a new seed each run (or `TICTACTOE_TEST_SEED`), printed before the
  /// first case (a crash reports nothing afterwards) and with every failure, so any run can be replayed.
  @Test func randomBytesNeverCrashTheDecoder() throws {
    let seed =
      ProcessInfo.processInfo.environment["TICTACTOE_TEST_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    print("randomBytesNeverCrashTheDecoder: seed \(seed) (replay with TICTACTOE_TEST_SEED=\(seed))")
    var generator = SplitMix(seed: seed)
    for index in 0..<20_000 {
      let count = Int.random(in: 0..<40, using: &generator)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var decoder = FrameDecoder()
      decoder.feed(bytes)
      while let frame = try? decoder.next() {
        // What decodes says the same thing when written again.
        guard let message = try? Message.decode(frame) else { continue }
        let again = try? Message.decode(Frame(type: message.frame.type, payload: message.frame.payload))
        #expect(again == message, "TICTACTOE_TEST_SEED=\(seed), case \(index): \(hex(bytes))")
      }
    }
  }

  @Test func versionNegotiation() {
    #expect(ProtocolVersion.choose(ours: [1, 2], theirs: [2, 3]) == 2)
    #expect(ProtocolVersion.choose(ours: [1], theirs: [2, 3]) == nil)
    #expect(ProtocolVersion.describe([3, 2]) == "2-3")
    #expect(ProtocolVersion.describe([1]) == "1")
    #expect(ProtocolVersion.describe([1, 3]) == "1, 3")
  }
}

func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }.joined(separator: " ")
}

extension Frame {
  /// The same frame with field `tag` set to `value` (for building malformed messages).
  func replacing(tag: UInt8, with value: [UInt8]) -> Frame {
    var fields = ((try? Fields(decoding: payload, kind: .hello))?.all ?? []).filter { $0.tag != tag }
    fields.append((tag, value))
    var writer = FrameWriter(type: type)
    for field in fields.sorted(by: { $0.tag < $1.tag }) { writer.field(field.tag, bytes: field.value) }
    return Frame(type: type, payload: Array(writer.finish()[3...]))
  }
}

/// `coin kept` (protocol version 2): its one field, and values it may not have.
@Suite struct CoinKeptMessageTests {
  @Test func roundTripsAndRefusesOtherValues() throws {
    for hostPlaysX in [true, false] {
      let message = Message.coinKept(hostPlaysX: hostPlaysX)
      #expect(message.bytes == [0x00, 0x05, 0x13, 0x01, 0x00, 0x01, hostPlaysX ? 0x01 : 0x02])
      #expect(try Message.decode(message.frame) == message)
    }
    #expect(throws: WireError.badValue("first player", reason: "it is 3, not 1 (the host) or 2 (the joiner)")) {
      try Message.decode(Frame(type: 0x13, payload: [0x01, 0x00, 0x01, 0x03]))
    }
  }
}

import Testing

@testable import WireProtocol

/// `watch record` (0x86, PROTOCOL.md rule 28): a record's text is cut into parts that each fit a frame, the last
/// marked, and read back whole; parts out of bounds are refused by name.
@Suite struct WatchRecordMessageTests {
  static func decoded(_ message: Message) throws -> Message? {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    return try Message.decode(try #require(try decoder.next()))
  }

  @Test(arguments: [1, 3999, 4000, 4001, 9000, 12_000]) func aRecordTravelsInPartsThatFitAFrame(_ length: Int) throws {
    // A text with characters of 1 to 4 bytes, so that parts end inside a character too.
    let pieces = ["a", "é", "€", "😀"]
    var text = ""
    while text.utf8.count < length { text += pieces[text.utf8.count % 4] }
    let frames = Message.watchRecordFrames(game: 7, text: text)
    #expect(frames.count == (text.utf8.count + 3999) / 4000)
    var gathered: [UInt8] = []
    for (index, frame) in frames.enumerated() {
      #expect(frame.bytes.count - 2 <= Frame.maximumLength, "frame \(index) is \(frame.bytes.count) bytes")
      guard case .watchRecord(let game, let part, let last) = try Self.decoded(frame) else {
        Issue.record("frame \(index) is not a watch record")
        return
      }
      #expect(game == 7 && last == (index == frames.count - 1))
      gathered += part
    }
    #expect(String(decoding: gathered, as: UTF8.self) == text)
  }

  @Test func partsOutOfBoundsAreRefused() throws {
    var writer = FrameWriter(type: 0x86)
    writer.field(1, u16: 1)
    writer.field(2, bytes: [UInt8](repeating: 65, count: 4001))
    writer.field(3, u8: 1)
    #expect(throws: WireError.self) { try Message.decode(Frame(type: 0x86, payload: Array(writer.finish()[3...]))) }
    for (part, last): ([UInt8], UInt8) in [([], 1), ([65], 2)] {
      var writer = FrameWriter(type: 0x86)
      writer.field(1, u16: 1)
      writer.field(2, bytes: part)
      writer.field(3, u8: last)
      #expect(throws: WireError.self) { try Message.decode(Frame(type: 0x86, payload: Array(writer.finish()[3...]))) }
    }
  }
}

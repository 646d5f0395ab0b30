import Testing

@testable import WireProtocol

/// `deciding` (0x41, PROTOCOL.md rule 13): a joiner's note that its player is deciding about the host's key. It
/// must pass an older reader unharmed, as `record signature` does: an unknown type is skipped.
@Suite struct DecidingMessageTests {
  /// The message types a version-2 reader knew before `deciding` was added (2026-12-02).
  static let knownBefore: Set<UInt8> = [
    0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23, 0x30, 0x40, 0x50, 0x51, 0x60, 0x61, 0x70,
  ]

  @Test func itIsThreeBytesOfTypeHexFortyOneAndReadsBack() throws {
    #expect(Message.deciding.bytes == [0x00, 0x01, 0x41])
    #expect(try Message.decode(Frame(type: 0x41, payload: [])) == .deciding)
    // Later fields are skipped, as for every message.
    #expect(try Message.decode(Frame(type: 0x41, payload: [9, 0, 1, 7])) == .deciding)
  }

  @Test func anOlderReaderSkipsItAndReadsTheHelloAfterIt() throws {
    #expect(!DecidingMessageTests.knownBefore.contains(0x41))
    // What an older reader does with a type it does not know, shown with one still unknown today: the frame is
    // cut whole, decoded as nothing (ignored), and the next message is read.
    let unknown: UInt8 = 0x42
    #expect(Message.Kind(rawValue: unknown) == nil)
    let hello = Message.hello(versions: [2], name: "bob", software: "tictactoe 0.2.0")
    var decoder = FrameDecoder()
    decoder.feed([0x00, 0x01, unknown] + Message.deciding.bytes + hello.bytes)
    let first = try #require(try decoder.next())
    #expect(first.type == unknown && first.payload.isEmpty)
    #expect(try Message.decode(first) == nil)
    // The same frame with deciding's type: cut the same way, so an older reader skips it the same way.
    let deciding = try #require(try decoder.next())
    #expect(deciding == Frame(type: 0x41, payload: []))
    let next = try #require(try decoder.next())
    #expect(try Message.decode(next) == hello)
  }
}

import GameCore
import Testing

@testable import WireProtocol

/// A host of several games' list for spectators (`watch games`, 0x84; PROTOCOL.md rule 27): a list round trips
/// whole across as many frames as it needs, each within a frame's 4 KiB; a malformed game is refused by name.
@Suite struct WatchGameListTests {
  static func decoded(_ message: Message) throws -> Message? {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    return try Message.decode(try #require(try decoder.next()))
  }

  static func games(_ count: Int, name: (Int) -> String = { "player \($0)" }) -> [ListedGame] {
    (0..<count).map {
      ListedGame(
        number: UInt16($0 * 3 + 1), joinerName: name($0), hostPlaysX: [nil, true, false][$0 % 3],
        moves: UInt16($0 % 226))
    }
  }

  @Test(arguments: [0, 1, 58, 59, 700, 1000])
  func aListRoundTripsAcrossFramesEachWithinFourKiB(count: Int) throws {
    // Names of 64 bytes (16 four-byte characters) make the longest entries.
    let listed = Self.games(count) { String(repeating: "😀", count: 15) + String(format: "%04d", $0) }
    let frames = GameListPart.frames(listed, total: count + 5)
    var read: [ListedGame] = []
    for (index, frame) in frames.enumerated() {
      #expect(frame.bytes.count - 2 <= 4096, "frame \(index) has \(frame.bytes.count) bytes")
      guard case .watchGames(let part) = try Self.decoded(frame) else {
        Issue.record("not a list: \(frame)")
        return
      }
      #expect(part.last == (index == frames.count - 1))
      #expect(part.total == UInt16(count + 5))
      read += part.games
    }
    #expect(read == listed)
    // 58 of the longest games fit in a frame.
    #expect(frames.count == max(1, (count + 57) / 58), "\(frames.count) frames")
  }

  @Test func noMoreThanAThousandGamesAreListed() throws {
    let frames = GameListPart.frames(Self.games(1500), total: 1500)
    var read: [ListedGame] = []
    for frame in frames { if case .watchGames(let part) = try Self.decoded(frame) { read += part.games } }
    #expect(read == Array(Self.games(1500).prefix(GameListPart.maximumListed)))
  }

  /// Builds a `watch games` frame from raw entry bytes.
  static func frame(_ entries: [UInt8], last: UInt8 = 1) -> Frame {
    var payload: [UInt8] = [1, UInt8(entries.count >> 8), UInt8(entries.count & 0xFF)] + entries
    payload += [2, 0, 2, 0, 3, 3, 0, 1, last]
    return Frame(type: 0x84, payload: payload)
  }

  @Test(
    arguments: [
      ([0, 0, 1, 0, 3, 3] + Array("bob".utf8), "game 0"),  // number 0 is the host's one game, never listed
      ([0, 1, 3, 0, 3, 3] + Array("bob".utf8), "first player 3"),
      ([0, 1, 1, 0, 226, 3] + Array("bob".utf8), "226 moves"),
      ([0, 1, 1, 0, 3, 0], "an empty name"),
      ([0, 1, 1, 0, 3, 9] + Array("bob".utf8), "a name longer than its bytes"),
      ([0, 1, 1, 0, 3], "a game cut short"),
      ([0, 1, 1, 0, 3, 4] + [0x1B] + Array("[2J".utf8), "an escape in a name"),
      ([0, 1, 1, 0, 3, 4] + Array("bob".utf8) + [0xE2, 0x80, 0xAE].prefix(1), "a name that is not UTF-8"),
      ([0, 1, 1, 0, 3, 6] + Array("b\u{202E}ob".utf8).prefix(6), "a bidirectional control"),
    ] as [([UInt8], String)])
  func aMalformedGameIsRefused(entries: [UInt8], what: String) {
    #expect(throws: WireError.self, "\(what)") { try Message.decode(Self.frame(entries)) }
  }

  @Test func aWellFormedRawListIsRead() throws {
    let entries: [UInt8] = [0, 7, 2, 0, 4, 3] + Array("bob".utf8) + [255, 255, 0, 0, 0, 1] + Array("c".utf8)
    let message = try Message.decode(Self.frame(entries, last: 0))
    let expected = GameListPart(
      games: [
        ListedGame(number: 7, joinerName: "bob", hostPlaysX: false, moves: 4),
        ListedGame(number: 65_535, joinerName: "c", hostPlaysX: nil, moves: 0),
      ], total: 3, last: false)
    #expect(message == .watchGames(expected))
    #expect(throws: WireError.self) { try Message.decode(Self.frame([], last: 2)) }
  }
}

import GameCore
import Session
import SessionTestSupport
import Testing
import WireProtocol

@testable import MatchCoordination

/// Spectators of a game that opens with Swap2 (PROTOCOL.md rule 23): every choice of the opening resends the
/// snapshot, which carries the choices so far (field 10), so a spectator holds the opening's step and, once the
/// colours are settled, who plays X; stones are sent as moves.
@Suite struct WatchSwap2Tests {
  static let key = [UInt8](repeating: 2, count: 32)
  static let three = [Position(row: 7, column: 7), Position(row: 7, column: 8), Position(row: 8, column: 8)]

  /// The host's game as its spectators see it.
  static func view(_ pair: SessionPair) throws -> WatchView {
    try #require(WatchView(session: pair.host, key: key))
  }

  @Test func eachChoiceResendsTheSnapshotWithTheChoicesAndTheColours() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: try Rules(size: 15, k: 5), opening: .swap2)
    pair.startMatch()
    var told = try Self.view(pair)
    for cell in Self.three { try pair.hostPlays(cell) }
    pair.settle()
    let stones = try Self.view(pair)
    #expect(stones.messages(after: told, watchers: 1).count == 3, "stones go as moves")
    told = stones
    pair.deliver(fromJoiner: try pair.joiner.choose(.placeTwo, now: 0))
    let two = try Self.view(pair)
    #expect(two.messages(after: told, watchers: 1) == [.watchSnapshot(two.snapshot(watchers: 1))])
    #expect(two.snapshot(watchers: 1).choices == [.placeTwo] && two.hostPlaysX, "the host places first")
    told = two
    for cell in [Position(row: 6, column: 6), Position(row: 9, column: 9)] { try pair.joinerPlays(cell) }
    pair.settle()
    told = try Self.view(pair)
    // The first player (the host) takes white: the snapshot again, now with the host as O.
    pair.deliver(fromHost: try pair.host.choose(.white, now: 0))
    let white = try Self.view(pair)
    let sent = white.messages(after: told, watchers: 1)
    #expect(sent == [.watchSnapshot(white.snapshot(watchers: 1))])
    #expect(white.snapshot(watchers: 1).choices == [.placeTwo, .white] && !white.hostPlaysX)
    // Across the wire, the choices come through.
    let bytes = Message.watchSnapshot(white.snapshot(watchers: 1)).bytes
    var decoder = FrameDecoder()
    decoder.feed(bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == .watchSnapshot(white.snapshot(watchers: 1)))
  }
}

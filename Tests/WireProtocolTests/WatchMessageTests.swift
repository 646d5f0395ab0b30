import GameCore
import Testing

@testable import WireProtocol

/// Version 4's watching (PROTOCOL.md, "Version 4: watching"): a spectator's hello (field 17), the host's word that
/// its game may be watched (terms field 8), and the spectators' messages round trip through the codec; malformed
/// values are refused by name.
@Suite struct WatchMessageTests {
  static let moves = [Position(row: 1, column: 1), Position(row: 0, column: 14), Position(row: 14, column: 0)]
  static let snapshot = WatchSnapshot(
    joinerName: "Bob", joinerKey: Array(0..<32), game: 2, hostPlaysX: false, moves: moves,
    times: [.init(charged: 0, left: 60_000), .init(charged: 0, left: 60_000), .init(charged: 1_234, left: 58_766)],
    score: [1, 258, 0], end: WatchedEnd(.line, mark: .o), watchers: 100)
  static let samples: [Message] = [
    .watchSnapshot(snapshot),
    .watchSnapshot(
      WatchSnapshot(
        joinerName: "Bob", joinerKey: Array(repeating: 7, count: 32), game: 0, hostPlaysX: true, moves: [],
        score: [0, 0, 0], watchers: 1)),
    .watchMove(game: 1, ply: 0, position: Position(row: 2, column: 2)),
    .watchMove(game: 65_535, ply: 224, position: Position(row: 14, column: 14), time: .init(charged: 9, left: 10)),
    .watchEnd(game: 1, end: WatchedEnd(.fullBoard), score: [0, 0, 1]),
    .watchEnd(game: 3, end: WatchedEnd(.resigned, mark: .x), score: [2, 1, 0]),
    .watchEnd(game: 3, end: WatchedEnd(.disputed, mark: .o), score: [2, 1, 0]),
    .watchers(count: 0), .watchers(count: 65_535),
    .refuse(.notWatchable, text: "no"), .refuse(.notKnown, text: ""), .refuse(.tooManySpectators, text: "x"),
  ]

  static func decoded(_ message: Message) throws -> Message? {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    return try Message.decode(try #require(try decoder.next()))
  }

  @Test(arguments: samples) func roundTrips(_ message: Message) throws {
    #expect(try Self.decoded(message) == message)
  }

  @Test func aSpectatorsHelloSaysWhichGameItWatches() throws {
    for watch: UInt16? in [nil, 0, 3] {
      let hello = Message.hello(versions: [4, 3, 2], name: "Carol", software: "t", watch: watch)
      guard case .hello(_, _, _, let terms, let decoded, _) = try Self.decoded(hello) else {
        Issue.record("not a hello")
        continue
      }
      #expect(decoded == watch && terms == nil)
      // Field 17, after the name and software: an older host skips the tag.
      #expect(hello.bytes.contains(17) == (watch != nil))
    }
  }

  /// Field 18 (rule 12): a joiner that checks batch record signatures says so; absent, or any value without bit 0,
  /// it does not. Written after field 17, so an older host skips it.
  @Test func aJoinersHelloSaysWhetherItChecksBatchSignatures() throws {
    for batch in [false, true] {
      let hello = Message.hello(versions: [4, 3, 2], name: "Bob", software: "t", batchSignatures: batch)
      #expect(try Self.decoded(hello) == hello)
      let without = Message.hello(versions: [4, 3, 2], name: "Bob", software: "t").bytes
      #expect(hello.bytes.count == without.count + (batch ? 4 : 0))
      #expect(!batch || Array(hello.bytes.suffix(4)) == [18, 0, 1, 1], "tag 18, length 1, value 1, last")
    }
    var bytes = Message.hello(versions: [4], name: "Bob", software: "t", batchSignatures: true).bytes
    bytes[bytes.count - 1] = 2  // bit 0 clear: a form this program does not know
    var decoder = FrameDecoder()
    decoder.feed(bytes)
    guard case .hello(_, _, _, _, _, let batch) = try Message.decode(try #require(try decoder.next())) else {
      Issue.record("not a hello")
      return
    }
    #expect(!batch)
  }

  @Test func theTermsSayWhetherTheGameMayBeWatched() throws {
    let rules = try Rules(size: 3, k: 3)
    for watchable: Bool? in [nil, false, true] {
      let hello = Message.hello(
        versions: [4], name: "Alice", software: "t", terms: HostTerms(rules: rules, watchable: watchable))
      guard case .hello(_, _, _, let terms, _, _) = try Self.decoded(hello) else {
        Issue.record("not a hello")
        continue
      }
      #expect(terms?.watchable == watchable && terms?.rules == rules)
    }
    // Field 8 is 0 or 1.
    var frame = Message.hello(versions: [4], name: "A", software: "t", terms: HostTerms(rules: rules)).bytes
    frame += [8, 0, 1, 2]
    frame[1] += 4
    var decoder = FrameDecoder()
    decoder.feed(frame)
    #expect(throws: WireError.badValue("watchable", reason: "it is 2, not 0 or 1")) {
      _ = try Message.decode(try #require(try decoder.next()))
    }
  }

  /// Each field of a spectator's message that breaks its rule is refused, naming it.
  @Test func malformedWatchingIsRefused() throws {
    var bad = Self.snapshot
    bad.joinerName = "Bob\u{1B}[2J"
    #expect(throws: WireError.self) { _ = try Self.decoded(.watchSnapshot(bad)) }
    bad = Self.snapshot
    bad.joinerKey = [1, 2, 3]
    #expect(throws: WireError.badValue("joiner's key", reason: "3 bytes, expected 32")) {
      _ = try Self.decoded(.watchSnapshot(bad))
    }
    bad = Self.snapshot
    bad.times = [.init(charged: 1, left: 2)]  // one time for three moves
    #expect(throws: WireError.badValue("move times", reason: "8 bytes, expected 24")) {
      _ = try Self.decoded(.watchSnapshot(bad))
    }
    // A draw that names a winner, a line that names none, a mark that is no mark.
    for end in [WatchedEnd(.fullBoard, mark: .x), WatchedEnd(.line)] {
      #expect(throws: WireError.self) { _ = try Self.decoded(.watchEnd(game: 1, end: end, score: [0, 0, 0])) }
    }
    var frame = Message.watchEnd(game: 1, end: WatchedEnd(.line, mark: .x), score: [0, 0, 0]).bytes
    frame[frame.count - 10] = 3  // field 2's mark byte (then field 3: tag, length, 6 bytes)
    var decoder = FrameDecoder()
    decoder.feed(frame)
    #expect(throws: WireError.badValue("end", reason: "mark 3, not 0, 1 (X) or 2 (O)")) {
      _ = try Message.decode(try #require(try decoder.next()))
    }
  }

  @Test func watchingIsVersionFour() {
    #expect(ProtocolVersion.supported.first == 4)
    for message in Self.samples where !{ if case .refuse = $0 { true } else { false } }(message) {
      #expect(message.minimumVersion == 4, "\(message)")
    }
  }
}

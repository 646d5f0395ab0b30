import GameCore
import Testing

@testable import WireProtocol

/// `game offer` and `game taken` (PROTOCOL.md rule 19): each round trips through the codec, and malformed values are
/// refused by name.
@Suite struct KeptGameMessageTests {
  static let moves = [Position(row: 7, column: 7), Position(row: 0, column: 14), Position(row: 14, column: 0)]
  static let samples: [Message] = [
    .gameOffer(game: 1, hostPlaysX: true, moves: [], timeLeft: []),
    .gameOffer(game: 3, hostPlaysX: false, moves: moves, timeLeft: [12_345, UInt32.max]),
    .gameOffer(game: 65_535, hostPlaysX: true, moves: moves, timeLeft: []),
    .gameOffer(
      game: 2, hostPlaysX: true, moves: moves, timeLeft: [1, 2],
      times: [
        .init(charged: 0, left: 60_000), .init(charged: 0, left: 60_000), .init(charged: 4_321, left: UInt32.max),
      ]),
    .gameOffer(game: 4, hostPlaysX: false, moves: [], timeLeft: [], score: [1, 258, 0]),
    .gameTaken(.taken, text: ""), .gameTaken(.declined, text: "no journal"),
    .gameTaken(.disagrees, text: "move 3 differs"), .gameTaken(.taken, text: "", readAll: true),
    .gameTaken(.noJournal, text: "no journal here"),
  ]

  /// A restarted host's word in its hello (field 16): the game its journal keeps, 0 for none, absent for a host
  /// that takes no kept game back; the terms beside it read as before.
  @Test func theHelloSaysWhichKeptGameTheHostTakesBack() throws {
    let rules = try Rules(size: 15, k: 5)
    for kept: UInt16? in [nil, 0, 7] {
      let hello = Message.hello(
        versions: [2, 3], name: "Alice", software: "t", terms: HostTerms(rules: rules, keptGame: kept))
      var decoder = FrameDecoder()
      decoder.feed(hello.bytes)
      let decoded = try Message.decode(try #require(try decoder.next()))
      guard case .hello(_, _, _, let terms, _, _) = decoded else {
        Issue.record("\(decoded)")
        continue
      }
      #expect(terms?.keptGame == kept && terms?.rules == rules && terms?.timeControl == TimeControl.none)
    }
    let tail = Array(
      Message.hello(versions: [3], name: "A", software: "", terms: HostTerms(rules: rules, keptGame: 258)).bytes.suffix(
        5))
    #expect(tail == [16, 0, 2, 1, 2])
  }

  @Test(arguments: samples) func roundTrips(message: Message) throws {
    var decoder = FrameDecoder()
    decoder.feed(message.bytes)
    let frame = try #require(try decoder.next())
    #expect(try Message.decode(frame) == message)
    #expect(message.minimumVersion == 3)
  }

  /// The documented bytes: tag 1 the game, 2 who plays X, 3 the moves two bytes each, 4 the two times.
  @Test func theOfferBytesAreTheDocumentedOnes() {
    let bytes = Message.gameOffer(game: 2, hostPlaysX: false, moves: Self.moves, timeLeft: [1, 258]).bytes
    #expect(bytes[2] == 0x62)
    #expect(
      Array(bytes[3...])
        == [1, 0, 2, 0, 2, 2, 0, 1, 2, 3, 0, 6, 7, 7, 0, 14, 14, 0, 4, 0, 8, 0, 0, 0, 1, 0, 0, 1, 2])
  }

  /// Field 5, each move's agreed charge and time left, 8 bytes a move after the two times.
  @Test func theMoveTimesAreFieldFiveEightBytesAMove() {
    let times = [OfferedTime(charged: 0, left: 60_000), OfferedTime(charged: 258, left: 1)]
    let bytes = Message.gameOffer(
      game: 1, hostPlaysX: true, moves: Array(Self.moves.prefix(2)), timeLeft: [1, 2], times: times
    ).bytes
    #expect(Array(bytes.suffix(19)) == [5, 0, 16, 0, 0, 0, 0, 0, 0, 0xEA, 0x60, 0, 0, 1, 2, 0, 0, 0, 1])
  }

  /// Field 6, the score of the games before: won by the host, by the joiner, drawn, u16 each.
  @Test func theScoreIsFieldSixThreeNumbers() {
    let bytes = Message.gameOffer(game: 3, hostPlaysX: true, moves: [], timeLeft: [], score: [2, 258, 1]).bytes
    #expect(Array(bytes.suffix(9)) == [6, 0, 6, 0, 2, 1, 2, 0, 1])
  }

  static func frame(_ type: UInt8, _ fields: [(UInt8, [UInt8])]) -> Frame {
    var payload: [UInt8] = []
    for (tag, value) in fields { payload += [tag, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value }
    return Frame(type: type, payload: payload)
  }

  @Test func malformedOffersAndAnswersAreRefusedByName() {
    let cases: [(Frame, String)] = [
      (Self.frame(0x62, [(1, [0, 0]), (2, [1]), (3, [])]), "game number"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [3]), (3, [])]), "first player"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1]), (3, [1, 2, 3])]), "moves"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1]), (3, Array(repeating: 1, count: 452))]), "moves"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1]), (3, []), (4, [0, 0, 0, 1])]), "time left"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1]), (3, [1, 1]), (5, Array(repeating: 0, count: 16))]), "move times"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1]), (3, []), (6, [0, 1, 0, 2])]), "score"),
      (Self.frame(0x62, [(1, [0, 1]), (2, [1])]), "moves"),
      (Self.frame(0x63, [(1, [5]), (2, [])]), "verdict"), (Self.frame(0x63, [(1, [0]), (2, [])]), "verdict"),
      (Self.frame(0x63, [(1, [1]), (2, Array(repeating: 0x41, count: 501))]), "text"),
    ]
    for (frame, field) in cases {
      #expect(throws: WireError.self, "\(field)") { try Message.decode(frame) }
      do {
        _ = try Message.decode(frame)
      } catch {
        #expect("\(error)".contains(field), "\(error)")
      }
    }
  }
}

import GameCore
import GameRecords
import PeerTrust
import Security
import Testing
import UntrustedText
import WireProtocol

@testable import MatchCoordination

/// A spectator keeps the record its host sends (PROTOCOL.md rule 28) only when it is the game it watched end,
/// between the host its TLS met and the joiner the host named, signed by both: each check is broken once here.
@Suite struct WatchedRecordTests {
  static let rules = try! Rules(size: 3, k: 3)
  static let moves = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)].map { Position(row: $0.0, column: $0.1) }

  struct Table {
    let alice: Identity
    let bob: Identity
    let carol: Identity
    init() throws {
      alice = try Identity.generate(commonName: "alice")
      bob = try Identity.generate(commonName: "bob")
      carol = try Identity.generate(commonName: "carol")
    }

    /// The record of the game, black `x` and white `o`, signed by `signers` (by default both).
    func record(x: Identity, o: Identity, signers: [Identity]? = nil, moves: [Position] = moves) throws -> GameRecord {
      var record = GameRecord(
        rules: rules, black: .init(name: "alice", publicKey: x.publicKeyBase64),
        white: .init(name: "bob", publicKey: o.publicKeyBase64), date: "2026-12-03", result: .won(.x, .line),
        moves: moves)
      record.signedVersion = 2
      let bytes = record.signedBytes
      for (mark, player) in [(Mark.x, x), (.o, o)] where (signers ?? [x, o]).contains(where: { $0 === player }) {
        record.setSignature(Base64.encode(try player.sign(bytes)), of: mark)
      }
      return record
    }

    /// The game as alice's spectator saw it end: alice hosts and plays X, bob joined.
    func watched(number: Int = 1, ended: Bool = true) throws -> WatchedGame {
      WatchedGame(
        hostName: PeerText("alice"), joinerName: PeerText("bob"), joinerKey: bob.fingerprint, timeControl: .none,
        gameNumber: number, hostPlaysX: true, game: try Game(rules: rules, moves: moves), times: [],
        score: [1, 0, 0], end: ended ? WatchedEnd(.line, mark: .x) : nil)
    }

    func check(_ text: [UInt8], game: Int = 1, watched: WatchedGame?) -> Result<GameRecord, WatchedRecord.Refusal> {
      WatchedRecord.check(
        text, game: game, watched: watched, hostKey: alice.fingerprint, sha256: Digest.sha256,
        verify: { RecordSignature.verify($0, of: $1, publicKeyBase64: $2) })
    }

    func refusal(_ text: [UInt8], game: Int = 1, watched: WatchedGame?) -> String? {
      if case .failure(let refusal) = check(text, game: game, watched: watched) { refusal.reason } else { nil }
    }
  }

  @Test func theRecordSignedByBothIsKeptAsItWas() throws {
    let table = try Table()
    let record = try table.record(x: table.alice, o: table.bob)
    let kept = try table.check(Array(record.sgf.utf8), watched: try table.watched()).get()
    #expect(kept == record)
  }

  @Test(arguments: [Mark.x, .o]) func aSignatureWithAByteFlippedIsNotKept(_ mark: Mark) throws {
    let table = try Table()
    var record = try table.record(x: table.alice, o: table.bob)
    var signature = try #require(record.player(mark).signature.flatMap(Base64.decode))
    signature[signature.count - 1] ^= 1
    record.setSignature(Base64.encode(signature), of: mark)
    let why = table.refusal(Array(record.sgf.utf8), watched: try table.watched())
    #expect(why?.contains("(\(mark)) signature does not verify") == true, "\(why ?? "kept")")
  }

  @Test func aRecordOneSideNeverSignedIsNotKept() throws {
    let table = try Table()
    let record = try table.record(x: table.alice, o: table.bob, signers: [table.alice])
    let why = table.refusal(Array(record.sgf.utf8), watched: try table.watched())
    #expect(why?.contains("(O) signature is missing") == true, "\(why ?? "kept")")
  }

  @Test func anotherJoinersKeyOrAnotherGameIsNotKept() throws {
    let table = try Table()
    // Signed by both of its keys, but carol is not the joiner the host named.
    let carols = try table.record(x: table.alice, o: table.carol)
    #expect(table.refusal(Array(carols.sgf.utf8), watched: try table.watched())?.contains("keys") == true)
    // Another game between the same two: its moves are not those watched.
    let other = [(0, 0), (2, 2), (0, 1), (2, 1), (0, 2)].map { Position(row: $0.0, column: $0.1) }
    let elsewhere = try table.record(x: table.alice, o: table.bob, moves: other)
    #expect(table.refusal(Array(elsewhere.sgf.utf8), watched: try table.watched())?.contains("moves") == true)
    // The right record, but of a game not seen to its end, or said to be of another game.
    let good = Array(try table.record(x: table.alice, o: table.bob).sgf.utf8)
    #expect(table.refusal(good, watched: try table.watched(ended: false)) != nil)
    #expect(table.refusal(good, game: 2, watched: try table.watched()) != nil)
    #expect(table.refusal(good, watched: nil) != nil)
    #expect(table.refusal([0xFF, 0xFE], watched: try table.watched())?.contains("UTF-8") == true)
    #expect(table.refusal(Array("(;GM[1])".utf8), watched: try table.watched())?.contains("does not read") == true)
  }

  @Test func partsAreGatheredUntilTheLastAndBounded() throws {
    var parts = WatchedRecord()
    #expect(try parts.add(game: 3, part: [1, 2], last: false) == nil)
    let whole = try parts.add(game: 3, part: [3], last: true)
    #expect(whole?.0 == 3 && whole?.1 == [1, 2, 3])
    // A part of another game before the last one is a violation.
    #expect(try parts.add(game: 4, part: [1], last: false) == nil)
    #expect(throws: WatchViolation.self) { try parts.add(game: 5, part: [2], last: true) }
    // More than a record can be is a violation.
    var long = WatchedRecord()
    let part = [UInt8](repeating: 65, count: Message.maximumRecordPartBytes)
    #expect(throws: WatchViolation.self) {
      for _ in 0...(Message.maximumWatchedRecordBytes / part.count) {
        _ = try long.add(game: 1, part: part, last: false)
      }
    }
  }
}

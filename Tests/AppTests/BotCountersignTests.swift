import GameCore
import GameRecords
import PeerTrust
import Security
import Testing
import WireProtocol

@testable import MatchCoordination

/// The practice bot's record of a watched game, completed by its joiner's signature for the spectators
/// (PROTOCOL.md rules 12 and 28): only a signature by the joiner's key, over that game's record and the bot's day,
/// completes it; the spectators of that game, and no other, are sent it in parts.
@Suite struct BotCountersignTests {
  static let moves = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)].map { Position(row: $0.0, column: $0.1) }

  struct Table {
    let bot: Identity
    let joiner: Identity
    let stranger: Identity
    /// The bot's record of game 2, the bot playing O, signed by the bot.
    let kept: BotCountersign

    init() throws {
      bot = try Identity.generate(commonName: "robo")
      joiner = try Identity.generate(commonName: "bob")
      stranger = try Identity.generate(commonName: "mallory")
      var record = GameRecord(
        rules: .standard, black: .init(name: "bob", publicKey: joiner.publicKeyBase64),
        white: .init(name: "robo", publicKey: bot.publicKeyBase64), date: "2026-12-03", result: .won(.x, .line),
        moves: BotCountersignTests.moves)
      record.signedVersion = 2
      record.setSignature(Base64.encode(try bot.sign(record.signedBytes)), of: .o)
      kept = BotCountersign(record: record, game: 2, botMark: .o)
    }

    func countersigned(by signer: Identity, game: Int = 2, date: String = "2026-12-03", flip: Bool = false) throws
      -> GameRecord?
    {
      var signature = try signer.sign(kept.record.signedBytes)
      if flip { signature[signature.count / 2] ^= 1 }
      return kept.countersigned(
        game: game, date: date, signature: signature,
        verify: { RecordSignature.verify($0, of: $1, publicKeyBase64: $2) })
    }
  }

  @Test func theJoinersSignatureCompletesTheRecord() throws {
    let table = try Table()
    let record = try #require(try table.countersigned(by: table.joiner))
    #expect(record.black.signature != nil && record.white.signature == table.kept.record.white.signature)
    // Both signatures verify over the record as it is sent: what a spectator checks.
    let bytes = record.signedBytes
    for (side, key) in [(record.black, table.joiner.publicKeyBase64), (record.white, table.bot.publicKeyBase64)] {
      let signature = try #require(side.signature.flatMap(Base64.decode))
      #expect(RecordSignature.verify(signature, of: bytes, publicKeyBase64: try #require(key)))
    }
  }

  @Test func anythingElseCompletesNothing() throws {
    let table = try Table()
    #expect(try table.countersigned(by: table.stranger) == nil, "another key")
    #expect(try table.countersigned(by: table.bot) == nil, "the bot's own key")
    #expect(try table.countersigned(by: table.joiner, flip: true) == nil, "a byte flipped")
    #expect(try table.countersigned(by: table.joiner, game: 1) == nil, "another game")
    #expect(try table.countersigned(by: table.joiner, date: "2026-12-04") == nil, "another day")
  }

  @Test func theRecordGoesToThatGamesSpectatorsInParts() throws {
    var spectators = BotSpectators()
    _ = BotSpectatorsTests.hello(&spectators, 40, game: 3)
    _ = BotSpectatorsTests.hello(&spectators, 41, game: 8)
    let sgf = String(repeating: "C[a comment of some length]", count: 200)
    let commands = spectators.record(3, game: 2, sgf: sgf, now: 1)
    let sent = commands.compactMap { command -> (Int32, [Message])? in
      if case .send(let fd, let messages) = command { (fd, messages) } else { nil }
    }
    #expect(sent.map(\.0) == [40], "only game 3's spectator")
    let parts = sent.flatMap(\.1)
    #expect(parts == Message.watchRecordFrames(game: 2, text: sgf) && parts.count == 2)
    #expect(spectators.record(5, game: 1, sgf: sgf, now: 1).isEmpty, "a game nobody watches")
  }
}

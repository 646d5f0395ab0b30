import GameCore
import GameRecords
import PeerTrust

/// The practice bot's record of a watched game, signed by the bot, waiting for its joiner's signature (PROTOCOL.md
/// rules 12 and 28). The bot's own collection keeps the bot's signature only (it is written when the game ends),
/// but the game's spectators are sent the record signed by both, as a host's are: the joiner's signature comes
/// back over the same bytes, is checked with the joiner's key the record names, and completes this copy. Kept
/// only for a game someone watched as it ended, so an unwatched game costs nothing more. Pure: the checking is
/// given.
public struct BotCountersign {
  /// The game's number on its connection (1, then one per rematch), as the signatures name it.
  public let game: Int
  /// The record with the bot's keys, day and signature.
  public private(set) var record: GameRecord
  let botMark: Mark

  public init(record: GameRecord, game: Int, botMark: Mark) {
    self.record = record
    self.game = game
    self.botMark = botMark
  }

  /// The record signed by both, when the joiner's `signature` is over this game's record, made with the bot's
  /// day `date`, and verifies with the joiner's key; nil otherwise (another game, another day, a record the bot
  /// did not sign, a signature that does not verify: the spectators are then sent nothing, as a host sends them
  /// nothing for a signature that did not cross).
  public func countersigned(
    game: Int, date: String, signature: [UInt8],
    verify: (_ signature: [UInt8], _ bytes: [UInt8], _ publicKey: String) -> Bool
  ) -> GameRecord? {
    let joiner = botMark.opponent
    guard game == self.game, date == record.date, record.player(botMark).signature != nil,
      let key = record.player(joiner).publicKey
    else { return nil }
    let bytes = record.signedBytes
    guard verify(signature, bytes, key) else { return nil }
    var signed = record
    signed.setSignature(Base64.encode(signature), of: joiner)
    return signed
  }
}

import GameCore
import GameRecords
import PeerTrust
import UntrustedText
import WireProtocol

/// The record of a watched game as its host sends it (`watch record`, PROTOCOL.md rule 28): the parts gathered,
/// then the whole checked before a spectator keeps it. Pure: the hash and the signature check are given.
public struct WatchedRecord {
  /// The game whose parts are being gathered, and the bytes so far.
  private var gathering: (game: UInt16, bytes: [UInt8])?

  public init() {}

  /// Adds a part of game `game`'s record: the whole text once the last part came, nil before. A record longer
  /// than `Message.maximumWatchedRecordBytes`, or a part of another game before the last one, is a violation.
  public mutating func add(game: UInt16, part: [UInt8], last: Bool) throws(WatchViolation) -> (Int, [UInt8])? {
    var bytes = part
    if let (earlier, held) = gathering {
      guard earlier == game else {
        throw WatchViolation("a part of game \(game)'s record before the end of game \(earlier)'s")
      }
      bytes = held + part
    }
    guard bytes.count <= Message.maximumWatchedRecordBytes else {
      throw WatchViolation("a record of more than \(Message.maximumWatchedRecordBytes) bytes")
    }
    gathering = last ? nil : (game, bytes)
    return last ? (Int(game), bytes) : nil
  }

  /// Why a record a host sent is not kept, in words for the spectator's player.
  public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
  }

  /// The record in `text` of game `game`, if it is the game `watched` ended (its rules and every move) between
  /// the host whose certificate's key is `hostKey` and the joiner the host named (`watched.joinerKey`), and each
  /// of the two signed it: `verify` checks a signature over the signed bytes with a key (base64 DER).
  public static func check(
    _ text: [UInt8], game: Int, watched: WatchedGame?, hostKey: Fingerprint?,
    sha256: ([UInt8]) -> [UInt8], verify: (_ signature: [UInt8], _ bytes: [UInt8], _ key: String) -> Bool
  ) -> Result<GameRecord, Refusal> {
    func refused(_ why: String) -> Result<GameRecord, Refusal> { .failure(Refusal(reason: why)) }
    guard let watched, watched.gameNumber == game, watched.end != nil else {
      return refused("it is of game \(game), which is not a game seen to its end here")
    }
    guard let sgf = String(validating: text, as: UTF8.self) else { return refused("it is not UTF-8 text") }
    let record: GameRecord
    do throws(SGFError) { record = try GameRecord.parse(sgf) } catch {
      return refused("it does not read as a record: \(VisibleText.escaping(error.description))")
    }
    guard record.rules == watched.game.rules, record.moves == watched.game.history else {
      return refused("its rules or moves are not those of the game watched")
    }
    let keys = Mark.allCases.map { record.player($0).publicKey }
    let fingerprints = keys.map { $0.flatMap(Base64.decode).flatMap { Fingerprint(bytes: sha256($0)) } }
    guard let hostKey, let joinerKey = watched.joinerKey, Set(fingerprints) == [hostKey, joinerKey] else {
      return refused("its keys are not the host's and the joiner's")
    }
    let bytes = record.signedBytes
    for mark in Mark.allCases {
      let player = record.player(mark)
      guard let signature = player.signature.flatMap(Base64.decode), let key = player.publicKey,
        verify(signature, bytes, key)
      else {
        let who = VisibleText.escaping(player.name)
        return refused("\(who)'s (\(mark)) signature \(player.signature == nil ? "is missing" : "does not verify")")
      }
    }
    return .success(record)
  }
}

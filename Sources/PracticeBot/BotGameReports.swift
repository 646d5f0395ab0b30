import GameCore
import GameRecords
import MatchCoordination
import PlayerFiles
import Security
import Transport
import WireProtocol

/// What the bot does with each game that ends: one line in the log, and the record signed, its signature
/// sent to the joiner (docs/PROTOCOL.md rule 12) and the record appended to the day's collection.
package final class BotGameReports {
  private let identity: Identity
  private let log: Log
  /// Where the bot's games are recorded (nil: not recorded).
  var collection: BotCollection?
  /// Games played to their end (a line, a draw or a resignation).
  private(set) var gamesPlayed = 0
  /// The bot's public key as records carry it, worked out once.
  private let botKey: String?
  /// Records that wait to be signed together (`signWaiting`), in the order their games ended.
  private var waiting: [(record: GameRecord, game: Int, botMark: Mark)] = []
  /// Whether the bot's key signs in batches: its batch signatures fit a record signature message (an imported
  /// RSA key of 6,144 bits or more would not).
  private let batches: Bool

  init(identity: Identity, log: Log) {
    self.identity = identity
    self.log = log
    botKey = identity.publicKeyBase64
    batches =
      identity.maximumSignatureBytes + RecordBatchSignature.maximumOverhead <= Message.maximumSignatureBytes
  }

  /// What reporting a reaction's games gives the shell: the record signatures to send the joiner, and, when the
  /// game is watched, the last signed record to complete with the joiner's signature for its spectators.
  struct Reported {
    var signatures: [Message] = []
    var watched: BotCountersign?
    /// The places in the waiting batch of the games whose signatures wait for it (`batch`), in order.
    var waiting: [Int] = []
  }

  /// Records waiting for the batch's signature.
  var waitingCount: Int { waiting.count }

  /// Who plays on `connection`, its public key as records carry it and whether it takes batch signatures: the same
  /// for all its games once it said hello, so a link keeps them (`BotLink.reportedAs`) instead of working them out
  /// again for each game (reading the optional seat copied it whole, 2 kB, each time).
  func who(seat: BotSeat?, on connection: PeerConnection) -> BotLink.Reported {
    BotLink.Reported(
      peer: peer(seat: seat, on: connection), key: connection.tls.peerCertificate?.publicKeyBase64,
      takesBatches: seat?.session.peerTakesBatchSignatures == true)
  }

  /// Who plays on `connection`, as the log names it: by the name trust was decided on (a known key's known name),
  /// with the claimed one beside it.
  func peer(seat: BotSeat?, on connection: PeerConnection) -> BotGameRecord.Peer {
    let certificate = connection.tls.peerCertificate
    let claimed = seat?.session.peerName?.unsanitised ?? "?"
    let decided = ShownName.decided(connection.tls.trustDecision, certificate: certificate, known: nil)
    return BotGameRecord.Peer(
      name: decided ?? claimed, fingerprint: certificate?.fingerprint.description ?? "?",
      address: connection.peerAddress, claimed: decided.map { $0 == claimed ? nil : claimed } ?? nil)
  }

  /// Reports `games` played by `peer` (whose public key is `peerKey`); returns the signatures for the joiner when
  /// it is still there (`toJoiner`; a kept game claimed after its joiner went away is signed and kept only).
  @discardableResult
  func report(
    _ games: [BotGameRecord], peer: BotGameRecord.Peer, peerKey: String?, toJoiner: Bool, watched: Bool = false,
    batch: Bool = false
  ) -> Reported {
    var reported = Reported()
    for game in games {
      if case .unfinished = game.outcome {} else { gamesPlayed += 1 }
      log.write(game.logLine(peer: peer))
      if var record = game.record, let collection {
        record.addKeys(bot: botKey, peer: peerKey, botMark: game.botMark)
        record.date = RecordOfGame.today()
        // A watched game's record is signed at once: its spectators are sent it when the joiner countersigns.
        if batch && batches && toJoiner && !watched && waiting.count < RecordBatchSignature.maximumCount {
          reported.waiting.append(waiting.count)
          waiting.append((record, game.number, game.botMark))
          continue
        }
        if let signature = sign(&record, game: game.number, botMark: game.botMark), toJoiner {
          reported.signatures.append(signature)
          if watched { reported.watched = BotCountersign(record: record, game: game.number, botMark: game.botMark) }
        }
        collection.keep(record, day: record.date)
      }
    }
    return reported
  }

  /// Signs every waiting record with one signature (one record alone: the plain signature; more: the batch form,
  /// docs/RECORDS.md), keeps each in the day's collection, and returns each one's signature message by its place.
  func signWaiting() -> [Message?] {
    guard !waiting.isEmpty else { return [] }
    let batch = waiting
    waiting.removeAll(keepingCapacity: true)
    let signatures = try? identity.sign(batch: batch.map(\.record.signedBytes))
    return batch.enumerated().map { index, entry in
      var record = entry.record
      var message: Message?
      if let signature = signatures?[index] {
        record.setSignature(RecordBase64.encode(signature), of: entry.botMark)
        message = UInt16(exactly: entry.game).map {
          .recordSignature(game: $0, date: record.date, signature: signature)
        }
      }
      collection?.keep(record, day: record.date)
      return message
    }
  }

  /// Signs the bot's record, as a host does, and returns the signature's message, so the joiner's record carries
  /// it; the joiner's answer is not waited for (the day's collection is only appended to). On the loop, at once:
  /// the signature goes out with the game's last messages, in the same write, before a goodbye that may follow
  /// them (signed on a worker it came too late for a joiner that leaves as soon as the game ends).
  private func sign(_ record: inout GameRecord, game: Int, botMark: Mark) -> Message? {
    guard let signature = try? identity.sign(record.signedBytes) else { return nil }
    record.setSignature(RecordBase64.encode(signature), of: botMark)
    guard let number = UInt16(exactly: game) else { return nil }
    return .recordSignature(game: number, date: record.date, signature: signature)
  }
}

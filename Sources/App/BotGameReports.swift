import GameCore
import GameRecords
import Security
import Transport

/// What the bot does with each game that ends: one line in the log, and the record signed, its signature
/// sent to the joiner (docs/PROTOCOL.md rule 12) and the record appended to the day's collection.
final class BotGameReports {
  private let identity: Identity
  private let log: Log
  /// Where the bot's games are recorded (nil: not recorded).
  var collection: BotCollection?
  /// Runs work on a worker thread and its completion on the loop (`EventLoop.perform`): the records are signed
  /// there, an ECDSA signature each (a fifth of the loop's time at 1000 games when it was done on it). Nil: at
  /// once.
  var run: ((@escaping @Sendable () -> [[UInt8]?], @escaping ([[UInt8]?]) -> Void) -> Void)?
  /// Told of a connection a signature was sent on (its reply may now wait for the socket to take it).
  var sent: ((PeerConnection) -> Void)?
  /// Records waiting to be signed, and whether a batch is being signed.
  private var unsigned: [Unsigned] = []
  private var signing = false

  private struct Unsigned {
    var record: GameRecord
    let game: Int
    let botMark: Mark
    let connection: PeerConnection
  }
  /// Games played to their end (a line, a draw or a resignation).
  private(set) var gamesPlayed = 0
  /// The bot's public key as records carry it, worked out once.
  private let botKey: String?
  /// The public keys of the joiners playing, by fingerprint: reading one out of its certificate parses the
  /// certificate again (about 50% of the bot's time at 1000 games, when it was done for every game).
  private var peerKeys: [Fingerprint: String] = [:]
  static let peerKeysKept = 4096

  init(identity: Identity, log: Log) {
    self.identity = identity
    self.log = log
    botKey = identity.publicKeyBase64
  }

  /// `certificate`'s public key, from the cache when it was read before.
  private func publicKey(of certificate: PeerCertificate?) -> String? {
    guard let certificate else { return nil }
    if let known = peerKeys[certificate.fingerprint] { return known }
    guard let key = certificate.publicKeyBase64 else { return nil }
    if peerKeys.count >= BotGameReports.peerKeysKept { peerKeys.removeAll(keepingCapacity: true) }
    peerKeys[certificate.fingerprint] = key
    return key
  }

  /// Reports `games`, played by the joiner on `connection` whose seat is `seat`.
  func report(_ games: [BotGameRecord], seat: BotSeat?, on connection: PeerConnection) {
    guard !games.isEmpty else { return }
    // Logged by the name trust was decided on (a known key's known name), with the claimed one beside it.
    let certificate = connection.tls.peerCertificate
    let claimed = seat?.session.peerName?.unsanitised ?? "?"
    let decided = ShownName.decided(connection.tls.trustDecision, certificate: certificate) { nil }
    let peer = BotGameRecord.Peer(
      name: decided ?? claimed, fingerprint: certificate?.fingerprint.description ?? "?",
      address: connection.peerAddress, claimed: decided.map { $0 == claimed ? nil : claimed } ?? nil)
    for game in games {
      if case .unfinished = game.outcome {} else { gamesPlayed += 1 }
      log.write(game.logLine(peer: peer))
      if var record = game.record, let collection {
        record.addKeys(bot: botKey, peer: publicKey(of: certificate), botMark: game.botMark)
        record.date = RecordOfGame.today()
        unsigned.append(Unsigned(record: record, game: game.number, botMark: game.botMark, connection: connection))
      }
    }
    signNext()
  }

  /// Whether records are still being signed: a bot that is stopping waits for them.
  var isSigning: Bool { signing || !unsigned.isEmpty }

  /// Signs the records waiting (off the loop with a worker), then for each sends the signature, as a host
  /// does, so the joiner's record carries it (the joiner's answer is not waited for), and keeps the record.
  private func signNext() {
    guard !signing, !unsigned.isEmpty else { return }
    let batch = unsigned
    unsigned = []
    let identity = self.identity
    let bytes = batch.map(\.record.signedBytes)
    let work: @Sendable () -> [[UInt8]?] = { bytes.map { try? identity.sign($0) } }
    guard let run else { return finish(batch, signatures: work()) }
    signing = true
    run(work) { [weak self] signatures in
      guard let self else { return }
      signing = false
      finish(batch, signatures: signatures)
      signNext()
    }
  }

  private func finish(_ batch: [Unsigned], signatures: [[UInt8]?]) {
    for (var item, signature) in zip(batch, signatures) {
      if let signature {
        item.record.setSignature(RecordBase64.encode(signature), of: item.botMark)
        if !item.connection.isClosed, let number = UInt16(exactly: item.game) {
          try? item.connection.send(.recordSignature(game: number, date: item.record.date, signature: signature))
          sent?(item.connection)
        }
      }
      collection?.keep(item.record, day: item.record.date)
    }
  }
}

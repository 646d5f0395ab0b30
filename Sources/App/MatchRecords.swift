import GameCore
import GameRecords
import Security
import Session
import WireProtocol

/// The records of a networked match's games: when each game began, the signing exchange, and where each
/// record is kept. The writing itself is given (`keep`), so the coordinator stays free of files.
struct MatchRecords {
  private var exchange: RecordExchange
  /// This side's public key (base64 DER), written in each record.
  let myKey: String?
  /// Writes a record (to the file given, when it replaces one) and says where it went.
  let keep: (GameRecord, _ replacing: String?) -> String?
  /// The UTC day now, `YYYY-MM-DD`.
  let today: () -> String
  /// The day the current game started.
  private var gameDate: String?

  init(
    exchange: RecordExchange, myKey: String?, keep: @escaping (GameRecord, String?) -> String?,
    today: @escaping () -> String
  ) {
    self.exchange = exchange
    self.myKey = myKey
    self.keep = keep
    self.today = today
  }

  /// The records of a match signed by `identity` and kept in `archive`.
  init(signedBy identity: Identity, isHost: Bool, keptIn archive: GameArchive) {
    let exchange = RecordExchange(
      isHost: isHost, sign: { bytes in try? identity.sign(bytes) },
      verify: { signature, bytes, key in RecordSignature.verify(signature, of: bytes, publicKeyBase64: key) })
    self.init(
      exchange: exchange, myKey: identity.publicKeyBase64, keep: { archive.keep($0, replacing: $1) },
      today: RecordOfGame.today)
  }

  /// What the match must do after a record step: a signature to send, a problem to tell.
  struct Outcome {
    var send: Message?
    var problem: String?
  }

  /// Something the session said: a game starting sets the day, a game ending writes its record.
  mutating func after(_ output: SessionOutput, session: NetSession, peerKey: String?) -> Outcome? {
    if case .gameStarted = output { gameDate = today() }
    guard
      let record = RecordOfGame.network(
        after: output, session: session, myKey: myKey, peerKey: peerKey, date: gameDate ?? today())
    else { return nil }
    return carry(exchange.ended(record, game: session.gameNumber, myMark: session.myMark ?? .x))
  }

  /// The peer's signature over the record of `game`.
  mutating func received(game: Int, date: String, signature: [UInt8]) -> Outcome {
    carry(exchange.received(game: game, date: date, signature: signature))
  }

  private mutating func carry(_ step: RecordExchange.Step) -> Outcome {
    if let record = step.write, let path = keep(record, step.path), let game = step.game {
      exchange.written(game: game, to: path)
    }
    return Outcome(send: step.send, problem: step.problem)
  }
}

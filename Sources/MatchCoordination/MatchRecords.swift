import GameCore
import GameRecords
import Session
import WireProtocol

/// The records of a networked match's games: when each game began and the signing exchange. A record to write
/// is an `Outcome` the match turns into a command (`MatchCommand.keepRecord`): the shell writes it off the loop,
/// so the coordinator stays free of files.
public struct MatchRecords {
  private var exchange: RecordExchange
  /// This side's public key (base64 DER), written in each record.
  public let myKey: String?
  /// The UTC day now, `YYYY-MM-DD`.
  public let today: () -> String
  /// The day the current game started.
  private var gameDate: String?

  public init(exchange: RecordExchange, myKey: String?, today: @escaping () -> String) {
    self.exchange = exchange
    self.myKey = myKey
    self.today = today
  }

  /// What the match must do after a record step: a record to write (to this match's record file `file`, which
  /// it replaces when it was written before), a signature to send, a problem to tell.
  public struct Outcome {
    public var write: (record: GameRecord, file: Int)?
    public var send: Message?
    public var problem: String?
  }

  /// Something the session said: a game starting sets the day, a game ending writes its record.
  public mutating func after(_ output: SessionOutput, session: NetSession, peerKey: String?) -> Outcome? {
    if case .gameStarted = output { gameDate = today() }
    guard
      let record = RecordOfGame.network(
        after: output, session: session, myKey: myKey, peerKey: peerKey, date: gameDate ?? today())
    else { return nil }
    return outcome(of: exchange.ended(record, game: session.gameNumber, myMark: session.myMark ?? .x))
  }

  /// Whether `signature` over `bytes` verifies with `key` (base64 DER): a spectator's check of a watched record.
  public func verifies(_ signature: [UInt8], of bytes: [UInt8], key: String) -> Bool {
    exchange.verify(signature, bytes, key)
  }

  /// The peer's signature over the record of `game`.
  public mutating func received(game: Int, date: String, signature: [UInt8]) -> Outcome {
    outcome(of: exchange.received(game: game, date: date, signature: signature))
  }

  private func outcome(of step: RecordExchange.Step) -> Outcome {
    let write = step.write.flatMap { record in step.file.map { (record, $0) } }
    return Outcome(write: write, send: step.send, problem: step.problem)
  }
}

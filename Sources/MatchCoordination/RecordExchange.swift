import GameCore
import GameRecords
import PeerTrust
import UntrustedText
import WireProtocol

/// The signing of a network match's records (docs/RECORDS.md, "Signatures"). The host signs each record as its
/// game ends, with the day it started the game, and sends the signature; the joiner, which first signs its own
/// record with its own day, takes the host's day when that signature comes, checks it, signs the same bytes and
/// sends its own back; each side then writes the record with both signatures, byte for byte the same. Pure: the
/// signing and checking are given.
public struct RecordExchange {
  /// The records of this match's games, by game number, with the file each is written to (`Step.file`).
  private var records: [Int: (record: GameRecord, myMark: Mark, file: Int, sent: Bool)] = [:]
  /// The file the next game's record goes to: one per game ended, so a new match's game 1 never replaces an
  /// earlier game 1's record.
  private var nextFile = 1
  /// The games whose peer signature was kept: another for the same game changes nothing (a peer repeating a
  /// good one would otherwise cost a rewrite of the record each time).
  private var kept: Set<Int> = []
  /// The games a refused peer signature was reported for: later refusals are not reported again (a peer
  /// sending bad ones would otherwise fill the screen and the log). A good one after them is still kept.
  private var reported: Set<Int> = []
  /// A signature for a game this side has no record of was reported (once a match).
  private var reportedUnknown = false
  public let isHost: Bool
  public let sign: ([UInt8]) -> [UInt8]?
  public let verify: (_ signature: [UInt8], _ bytes: [UInt8], _ publicKey: String) -> Bool

  public init(
    isHost: Bool, sign: @escaping ([UInt8]) -> [UInt8]?,
    verify: @escaping (_ signature: [UInt8], _ bytes: [UInt8], _ publicKey: String) -> Bool
  ) {
    self.isHost = isHost
    self.sign = sign
    self.verify = verify
  }

  /// What to do: write this record, send this message.
  public struct Step {
    /// The game the step is about.
    public var game: Int?
    public var write: GameRecord?
    /// Which of this match's record files `write` goes to: a record written again (now signed by both) replaces
    /// the file it was first written to. The writer keeps the files' paths.
    public var file: Int?
    public var send: Message?
    /// Something the player should know (a signature that does not verify).
    public var problem: String?
  }

  /// A game ended: its record, signed by this side; the host also sends its signature.
  public mutating func ended(_ record: GameRecord, game: Int, myMark: Mark) -> Step {
    var signed = record
    let signature = sign(record.signedBytes)
    signed.setSignature(signature.map(Base64.encode), of: myMark)
    var step = Step(game: game, write: signed, file: nextFile)
    nextFile += 1
    if isHost, let signature, let number = UInt16(exactly: game) {
      step.send = .recordSignature(game: number, date: record.date, signature: signature)
    }
    records[game] = (signed, myMark, step.file!, step.send != nil)
    return step
  }

  /// The peer's signature over the record of `game`, made with the day `date`.
  public mutating func received(game: Int, date: String, signature: [UInt8]) -> Step {
    guard var entry = records[game] else {
      defer { reportedUnknown = true }
      return reportedUnknown
        ? Step() : Step(problem: "Your opponent signed game \(game), which this side has no record of.")
    }
    guard !kept.contains(game) else { return Step() }
    var record = entry.record
    let peer = entry.myMark.opponent
    if let problem = Self.dayProblem(date, ownDay: record.date) {
      return refused(game, "Your opponent signed game \(game) with \(problem): the signature is not kept.")
    }
    if !isHost && record.date != date {
      // The host's day is the record's: sign again with it.
      record.date = date
      record.setSignature(sign(record.signedBytes).map(Base64.encode), of: entry.myMark)
    }
    guard let key = record.player(peer).publicKey, verify(signature, record.signedBytes, key) else {
      return refused(game, "Your opponent's signature on the record of game \(game) does not verify: it is not kept.")
    }
    kept.insert(game)
    record.setSignature(Base64.encode(signature), of: peer)
    var step = Step(game: game, write: record, file: entry.file)
    if !entry.sent, let mine = record.player(entry.myMark).signature.flatMap(Base64.decode),
      let number = UInt16(exactly: game)
    {
      step.send = .recordSignature(game: number, date: date, signature: mine)
      entry.sent = true
    }
    entry.record = record
    records[game] = entry
    return step
  }

  /// A refused signature of `game`: `problem` the first time, nothing after.
  private mutating func refused(_ game: Int, _ problem: String) -> Step {
    reported.insert(game).inserted ? Step(problem: problem) : Step()
  }
}

extension RecordExchange {
  /// Why `date`, the day a peer signed with, cannot be a record's: not a calendar day (`0000-00-00`), or more
  /// than a day from `ownDay`, the day this side signed with (the two clocks may straddle midnight, no more).
  public static func dayProblem(_ date: String, ownDay: String) -> String? {
    guard let day = CalendarDay(parsing: date) else {
      return "the day \(VisibleText.escaping(date)), which is not a calendar day"
    }
    guard let own = CalendarDay(parsing: ownDay) else { return nil }
    let apart = abs(day.daysSince1970 - own.daysSince1970)
    guard apart <= 1 else { return "the day \(day), \(apart) days from this side's \(own)" }
    return nil
  }
}

extension GameRecord {
  public mutating func setSignature(_ signature: String?, of mark: Mark) {
    if mark == .x { black.signature = signature } else { white.signature = signature }
  }
}

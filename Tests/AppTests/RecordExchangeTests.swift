import GameCore
import GameRecords
import Security
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination

/// Both sides sign the same bytes and end with the same record: the host's day wins, a bad signature is refused.
@Suite struct RecordExchangeTests {
  static let alice = try! Identity.generate(commonName: "alice")
  static let bob = try! Identity.generate(commonName: "bob")

  static func exchange(_ identity: Identity, host: Bool) -> RecordExchange {
    RecordExchange(
      isHost: host, sign: { try? identity.sign($0) },
      verify: { RecordSignature.verify($0, of: $1, publicKeyBase64: $2) })
  }

  /// Alice hosts and plays X; each side's record as it would make it, with its own day.
  static func record(date: String) -> GameRecord {
    GameRecord(
      rules: .standard, black: .init(name: "alice", publicKey: alice.publicKeyBase64),
      white: .init(name: "bob", publicKey: bob.publicKeyBase64), date: date, result: .won(.x, .line),
      moves: [1, 2, 4, 5, 7].map { Position(cellNumber: $0, rules: .standard)! })
  }

  @Test func bothSidesEndWithTheSameRecordSignedTwiceOnTheHostsDay() throws {
    var host = Self.exchange(Self.alice, host: true)
    var joiner = Self.exchange(Self.bob, host: false)
    let hostEnd = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    let joinerEnd = joiner.ended(Self.record(date: "2026-12-02"), game: 1, myMark: .o)
    #expect(joinerEnd.send == nil, "the joiner waits for the host's day")
    #expect(joinerEnd.write?.white.signature != nil && joinerEnd.write?.black.signature == nil)
    guard case .recordSignature(1, "2026-12-01", let hostSignature) = hostEnd.send else {
      Issue.record("the host sent \(String(describing: hostEnd.send))")
      return
    }
    let joinerStep = joiner.received(game: 1, date: "2026-12-01", signature: hostSignature)
    #expect(joinerStep.problem == nil && joinerStep.file == joinerEnd.file, "the signed record replaces the first")
    guard case .recordSignature(1, "2026-12-01", let joinerSignature) = joinerStep.send else {
      Issue.record("the joiner sent \(String(describing: joinerStep.send))")
      return
    }
    let hostStep = host.received(game: 1, date: "2026-12-01", signature: joinerSignature)
    let hostRecord = try #require(hostStep.write)
    let joinerRecord = try #require(joinerStep.write)
    #expect(hostStep.send == nil, "the host has already sent its signature")
    #expect(hostRecord == joinerRecord && hostRecord.sgf == joinerRecord.sgf)
    #expect(hostRecord.date == "2026-12-01")
    for mark in Mark.allCases {
      let player = hostRecord.player(mark)
      let signature = try #require(player.signature.flatMap(RecordBase64.decode))
      #expect(RecordSignature.verify(signature, of: hostRecord.signedBytes, publicKeyBase64: player.publicKey!))
    }
  }

  /// A new match on the same connection numbers its games from 1 again: its game 1 is another file.
  @Test func eachGameEndedGoesToAFileOfItsOwn() {
    var host = Self.exchange(Self.alice, host: true)
    let first = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    let again = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    #expect(first.file != nil && again.file != nil && first.file != again.file)
  }

  @Test func aSignatureThatDoesNotVerifyIsNotKept() throws {
    var host = Self.exchange(Self.alice, host: true)
    _ = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    // Bob signs other moves than were played.
    var other = Self.record(date: "2026-12-01")
    other.moves.removeLast()
    let forged = try Self.bob.sign(other.signedBytes)
    let step = host.received(game: 1, date: "2026-12-01", signature: forged)
    #expect(step.write == nil && step.send == nil)
    #expect(step.problem == "Your opponent's signature on the record of game 1 does not verify: it is not kept.")
    #expect(host.received(game: 2, date: "2026-12-01", signature: forged).problem?.contains("no record of") == true)
  }

  /// The joiner signs first with its own day; the host's signature comes with another day. A signature that
  /// does not verify on the host's day is not kept, in what is written or in what a later signature is added to.
  @Test func aJoinerKeepsNoHostSignatureItCouldNotVerifyWhenTheDaysDiffer() throws {
    var host = Self.exchange(Self.alice, host: true)
    var joiner = Self.exchange(Self.bob, host: false)
    let hostEnd = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    _ = joiner.ended(Self.record(date: "2026-12-02"), game: 1, myMark: .o)
    guard case .recordSignature(1, "2026-12-01", let genuine) = hostEnd.send else {
      Issue.record("the host sent \(String(describing: hostEnd.send))")
      return
    }
    // Signatures that do not verify on the host's day: over the joiner's day, over other moves, or noise.
    var otherMoves = Self.record(date: "2026-12-01")
    otherMoves.moves.removeLast()
    let forgeries = [
      try Self.alice.sign(Self.record(date: "2026-12-02").signedBytes), try Self.alice.sign(otherMoves.signedBytes),
      [UInt8](repeating: 7, count: 72),
    ]
    for (index, forged) in forgeries.enumerated() {
      let step = joiner.received(game: 1, date: "2026-12-01", signature: forged)
      // Said once a game (RecordSignatureRepeatTests).
      let said = "Your opponent's signature on the record of game 1 does not verify: it is not kept."
      #expect(step.problem == (index == 0 ? said : nil))
      #expect(step.write == nil && step.send == nil, "\(step)")
    }
    // The genuine one still verifies, and the record then written carries it and not a forgery.
    let step = joiner.received(game: 1, date: "2026-12-01", signature: genuine)
    #expect(step.problem == nil)
    let record = try #require(step.write)
    #expect(record.date == "2026-12-01")
    #expect(record.black.signature == RecordBase64.encode(genuine))
    let joinerSignature = try #require(record.white.signature.flatMap(RecordBase64.decode))
    let bobKey = try #require(Self.bob.publicKeyBase64)
    #expect(RecordSignature.verify(joinerSignature, of: record.signedBytes, publicKeyBase64: bobKey))
  }

  /// A hostile host signs, with its real key, a day that is not a calendar day or one far from the joiner's own:
  /// the joiner keeps its record as it was (its own day, its own signature) and sends nothing back.
  @Test(arguments: [
    ("0000-00-00", "not a calendar day"), ("2026-02-30", "not a calendar day"), ("2026-12-1", "not a calendar day"),
    ("2026-11-29", "3 days from this side's 2026-12-02"), ("2027-12-02", "365 days from this side's 2026-12-02"),
  ])
  func aDayThatIsNoCalendarDayOrFarFromOursIsRefused(day: String, why: String) throws {
    var joiner = Self.exchange(Self.bob, host: false)
    let own = joiner.ended(Self.record(date: "2026-12-02"), game: 1, myMark: .o)
    let signature = try Self.alice.sign(Self.record(date: day).signedBytes)
    let step = joiner.received(game: 1, date: day, signature: signature)
    #expect(step.write == nil && step.send == nil, "\(day)")
    #expect(step.problem?.contains(why) == true, "\(String(describing: step.problem))")
    // The record stays the joiner's own: a later honest signature with a near day is still taken.
    #expect(own.write?.date == "2026-12-02")
    let honest = try Self.alice.sign(Self.record(date: "2026-12-03").signedBytes)
    let next = joiner.received(game: 1, date: "2026-12-03", signature: honest)
    #expect(next.problem == nil && next.write?.date == "2026-12-03")
  }

  /// The host takes the joiner's signature only over a day near its own too (the joiner signs the host's day).
  @Test func theHostRefusesAFarDayAsWell() throws {
    var host = Self.exchange(Self.alice, host: true)
    _ = host.ended(Self.record(date: "2026-12-01"), game: 1, myMark: .x)
    let far = try Self.bob.sign(Self.record(date: "0000-00-00").signedBytes)
    #expect(host.received(game: 1, date: "0000-00-00", signature: far).problem?.contains("calendar day") == true)
  }

  /// `verify` says NOT verified for a record whose day is not a calendar day, even when both signatures over it
  /// are good (as a hostile host and an older joiner could make).
  @Test func verifyRefusesARecordWhoseDayIsNoCalendarDay() throws {
    var record = Self.record(date: "0000-00-00")
    record.black.signature = RecordBase64.encode(try Self.alice.sign(record.signedBytes))
    record.white.signature = RecordBase64.encode(try Self.bob.sign(record.signedBytes))
    let verdict = VerifyCommand.verdict(record)
    #expect(!verdict.ok)
    #expect(verdict.lines.contains { $0.hasPrefix("date: WRONG: \"0000-00-00\" is not a calendar day") })
    record.date = "2026-12-01"
    record.black.signature = RecordBase64.encode(try Self.alice.sign(record.signedBytes))
    record.white.signature = RecordBase64.encode(try Self.bob.sign(record.signedBytes))
    #expect(VerifyCommand.verdict(record).ok)
  }

  @Test func theSignedBytesAreTheDocumentedLines() {
    let record = Self.record(date: "2026-12-01")
    let text = String(decoding: record.signedBytes, as: UTF8.self)
    #expect(
      text == """
        tictactoe game record signature v1
        rules 3 3 3
        black \(Self.alice.publicKeyBase64!)
        white \(Self.bob.publicKeyBase64!)
        date 2026-12-01
        moves aa ba ab bb ac
        result B+

        """)
    // A signature over the bytes does not pass for one over the same bytes without the context.
    let signature = try! Self.alice.sign(record.signedBytes)
    let bare = Array(text.dropFirst(GameRecord.signatureContext.count + 1).utf8)
    #expect(!RecordSignature.verify(signature, of: bare, publicKeyBase64: Self.alice.publicKeyBase64!))
  }
}

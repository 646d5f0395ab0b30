import GameCore
import GameRecords
import Session
import SessionTestSupport
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import Session

/// The records both sides of a version-3 game write (docs/RECORDS.md): two sessions on a clock the test moves,
/// through the wire codec, each side's record made from its own session. The two must be the same record, with
/// the same signed bytes, or the signatures would not cross: the echo makes the charges agree, and a move no echo
/// followed is recorded at its mover's own time on both sides.
@Suite struct TimedRecordOfGameTests {
  static let gomoku = try! Rules(size: 15, k: 5)

  /// Cells that make no line of 5 in the first 44 moves (rows filled in turn).
  static func cell(_ index: Int) -> Position { Position(row: index / 15, column: index % 15) }

  /// Host X (equal coin bytes: the host starts), joiner O.
  static func match(_ control: TimeControl, rules: Rules = gomoku) throws -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, timeControl: control)
    pair.startMatch()
    try #require(pair.host.myMark == .x && pair.host.clock != nil)
    return pair
  }

  /// The side to move thinks `think` seconds and plays; its program sends `claim` ms as its thinking time when
  /// given (a liar), and the move arrives `lag` seconds later.
  static func move(
    _ pair: inout SessionPair, _ position: Position, think: Double, lag: Double = 0, claim: Int? = nil
  ) throws {
    pair.now += think
    let hostMoves = pair.host.myTurn
    try pair.moverPlays(position)
    if let claim {
      func lie(_ messages: inout [Message]) {
        guard case .move(let ply, let position, var fields?) = messages.last else { return }
        fields.thinking = claim
        messages[messages.count - 1] = .move(ply: ply, position: position, clock: fields)
      }
      if hostMoves { lie(&pair.toJoiner) } else { lie(&pair.toHost) }
    }
    pair.now += lag
    pair.settle()
  }

  /// Both sides tick once a second until `until`.
  static func wait(_ pair: inout SessionPair, until: Double) {
    while pair.now < until {
      pair.now = min(until, pair.now + 1)
      pair.send(fromHost: pair.host.tick(now: pair.now))
      pair.send(fromJoiner: pair.joiner.tick(now: pair.now))
      pair.settle()
    }
  }

  /// Each side's record of the game that ended, made as the match makes it.
  static func records(_ pair: SessionPair) throws -> (host: GameRecord, joiner: GameRecord) {
    func of(_ events: [SessionOutput], _ session: NetSession, mine: String, theirs: String) -> GameRecord? {
      events.compactMap {
        RecordOfGame.network(after: $0, session: session, myKey: mine, peerKey: theirs, date: "2026-12-02")
      }.last
    }
    return (
      try #require(of(pair.hostEvents, pair.host, mine: "QUxJQ0U=", theirs: "Qk9C")),
      try #require(of(pair.joinerEvents, pair.joiner, mine: "Qk9C", theirs: "QUxJQ0U="))
    )
  }

  /// The same record on both sides, signed bytes and SGF alike, which reads back as itself.
  static func same(_ pair: SessionPair) throws -> GameRecord {
    let (host, joiner) = try records(pair)
    #expect(host == joiner)
    #expect(host.signedBytes == joiner.signedBytes)
    #expect(host.sgf == joiner.sgf)
    #expect(try GameRecord.parse(host.sgf) == host)
    #expect(host.signedVersion == 2)
    #expect(host.timesProblem == nil && host.resultProblem == nil, "\(host.sgf)")
    return host
  }

  /// A flag in a 10-second game, the joiner lying about its times and the moves slowed by the network: both
  /// records say B+T, with the agreed charges and the claim.
  @Test func aLossOnTimeIsTheSameRecordOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 {
      let joiner = !pair.host.myTurn
      try Self.move(&pair, Self.cell(index), think: 1, lag: 0.3, claim: joiner ? 0 : nil)
    }
    Self.wait(&pair, until: pair.now + 11)
    #expect(pair.host.lastResult == .lostOnTime(loser: .o))
    let record = try Self.same(pair)
    #expect(record.result == .won(.x, .time) && record.sgf.contains("RE[B+T]"))
    #expect(record.timeControl == .fischer(base: 10_000, increment: 0) && record.sgf.contains("TM[10]OT[0 fischer]"))
    // The first two moves are free; the joiner's lie (0 s) is charged O − A = 1.6 − 1 s; the host's last move,
    // never echoed, is its own 1 s on both sides.
    #expect(
      record.times == [
        MoveTime(charged: 0, left: 10_000), MoveTime(charged: 0, left: 10_000), MoveTime(charged: 1_000, left: 9_000),
        MoveTime(charged: 600, left: 9_400), MoveTime(charged: 1_000, left: 8_000),
      ])
    let flag = try #require(record.flag)
    #expect(flag.claimant == .x && flag.timeLeft == 9_400 && flag.observed >= 10_400 && flag.thinking >= 9_000)
  }

  /// The game's last move is charged by its receiver only: the liar's own 0 s is what both records keep, though
  /// the receiver charged it more.
  @Test func aLastMoveNoEchoFollowedIsItsMoversOwnTimeOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 2_000), rules: .standard)
    for (index, cell) in [0, 1, 3, 4].enumerated() {
      try Self.move(&pair, Position(cellNumber: cell + 1, rules: .standard)!, think: Double(index + 1))
    }
    try Self.move(&pair, Position(cellNumber: 7, rules: .standard)!, think: 3, lag: 0.2, claim: nil)
    #expect(pair.host.lastResult == .line(winner: .x))
    let record = try Self.same(pair)
    #expect(record.times.map(\.charged) == [0, 0, 3_000, 4_000, 3_000])
    #expect(record.times.map(\.left) == [60_000, 60_000, 59_000, 58_000, 58_000])
    #expect(record.sgf.contains(";B[ac]BL[58]TTQ[3]"), "\(record.sgf)")
  }

  @Test func aSlowLastMoveIsRecordedAtItsMoversTimeOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 0), rules: .standard)
    // The joiner (O) makes the last move, a line, after 3 s; it arrives 1.5 s later: the host charges it
    // 4.5 − A = 3.5 s, but no echo follows, so both records keep the joiner's own 3 s.
    for (index, cell) in [1, 4, 2, 5, 9, 6].enumerated() {
      try Self.move(&pair, Position(cellNumber: cell, rules: .standard)!, think: 3, lag: index == 5 ? 1.5 : 0)
    }
    #expect(pair.host.lastResult == .line(winner: .o))
    #expect(pair.host.clock?.left[.o] == 60_000 - 3_000 - 3_500)
    let record = try Self.same(pair)
    #expect(record.times.last == MoveTime(charged: 3_000, left: 54_000))
  }

  /// A move that crossed the claim is void on both sides; the echo it carried never counted on the claimant's
  /// side, so the move it echoed is recorded at its mover's own time on both.
  @Test func aMoveCrossingTheClaimLeavesTheSameRecord() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<4 { try Self.move(&pair, Self.cell(index), think: 1) }
    try Self.move(&pair, Self.cell(4), think: 1, lag: 1.5)  // the joiner charges the host 1.5 s, not 1
    Self.wait(&pair, until: 14.9)
    try pair.joinerPlays(Self.cell(5))  // with 0.6 s of its 9 left, carrying the echo of 1.5 s; slow to arrive
    pair.now = 15
    pair.send(fromHost: pair.host.tick(now: pair.now))
    #expect(pair.host.flagClaimedAt == 5)
    pair.settle()
    #expect(pair.host.lastResult == .lostOnTime(loser: .o) && pair.joiner.lastResult == .lostOnTime(loser: .o))
    let record = try Self.same(pair)
    #expect(record.moves.count == 5)
    #expect(record.times.last == MoveTime(charged: 1_000, left: 8_000))
  }

  /// A false claim ends the game disputed: RE[?], TTE[disputed], and both sides' numbers in TTF.
  @Test func aDisputedFlagIsMarkedTheSameOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<5 { try Self.move(&pair, Self.cell(index), think: 1) }
    Self.wait(&pair, until: 8)
    pair.host.flagClaimedAt = 5
    pair.host.claimSent = (9_000, 10_000)
    pair.toJoiner.append(.flagClaim(ply: 5, timeLeft: 9_000, observed: 10_000))
    pair.settle()
    let record = try Self.same(pair)
    #expect(record.result == .disputed && record.sgf.contains("RE[?]TTK[5]TTE[disputed]"))
    #expect(record.flag == FlagClaim(claimant: .x, timeLeft: 9_000, observed: 10_000, thinking: 3_000))
    #expect(record.sgf.contains("TTF[B 9 10 3]"))
  }

  /// Takebacks (one ply, then two) leave the moves that stand with the same times on both sides.
  @Test func takebacksLeaveTheSameTimesOnBothSides() throws {
    var pair = try Self.match(.fischer(base: 60_000, increment: 1_000))
    for index in 0..<4 { try Self.move(&pair, Self.cell(index), think: 1) }
    try Self.move(&pair, Self.cell(4), think: 2, lag: 1.5)
    pair.deliver(fromHost: try pair.host.requestTakeback(now: pair.now))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: pair.now))
    try Self.move(&pair, Self.cell(20), think: 1)
    try Self.move(&pair, Self.cell(21), think: 1, lag: 1.4)
    pair.deliver(fromHost: try pair.host.requestTakeback(now: pair.now))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: pair.now))
    // A lying joiner (it claims 0 s) on the last moves: the echo settles its charge on both sides.
    for index in 30..<33 { try Self.move(&pair, Self.cell(index), think: 1, lag: 1.2, claim: index == 31 ? 0 : nil) }
    pair.deliver(fromJoiner: try pair.joiner.resign(now: pair.now))
    let record = try Self.same(pair)
    #expect(record.moves.count == 7 && record.result == .won(.x, .resignation))
  }

  @Test func anAbortAndADrawByAgreementAreRecordedWithTheirReasons() throws {
    var aborted = try Self.match(.perMove(20_000))
    try Self.move(&aborted, Self.cell(0), think: 1)
    aborted.deliver(fromJoiner: try aborted.joiner.abort(now: aborted.now))
    let void = try Self.same(aborted)
    #expect(void.result == .void && void.sgf.contains("RE[Void]TTK[5]TTE[aborted]TM[0]OT[20 simple]"))
    #expect(void.times == [MoveTime(charged: 0, left: 20_000)])

    var drawn = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.gomoku)
    drawn.startMatch()
    for index in 0..<3 { try Self.move(&drawn, Self.cell(index), think: 1) }
    drawn.deliver(fromJoiner: try drawn.joiner.offerDraw(now: drawn.now))
    drawn.deliver(fromHost: try drawn.host.offerDraw(now: drawn.now))
    let draw = try Self.same(drawn)
    #expect(draw.result == .drawn(.agreed) && draw.sgf.contains("RE[0]TTK[5]TTE[agreed]"))
    #expect(draw.timeControl == .none && draw.times.isEmpty && !draw.sgf.contains("TM["))
  }

  /// A hostile peer's echo charges the host more than it had (a false echo is adopted, rule 15): the host's record
  /// shows no time below 0 and still reads back.
  @Test func aFalseEchoLeavesARecordThatStillReads() throws {
    var pair = try Self.match(.fischer(base: 10_000, increment: 0))
    for index in 0..<3 { try Self.move(&pair, Self.cell(index), think: 1) }
    pair.now += 1
    try pair.joinerPlays(Self.cell(3))
    guard case .move(let ply, let position, var fields?) = pair.toHost.last else {
      Issue.record("no move: \(pair.toHost)")
      return
    }
    fields.echo = Int(UInt32.max)
    pair.toHost[pair.toHost.count - 1] = .move(ply: ply, position: position, clock: fields)
    pair.settle()
    pair.deliver(fromHost: try pair.host.resign(now: pair.now))
    let record = try #require(try Self.records(pair).host as GameRecord?)
    #expect(record.times[2] == MoveTime(charged: Int(UInt32.max), left: 0))
    #expect(try GameRecord.parse(record.sgf) == record)
    #expect(record.timesProblem == nil)
  }

  /// With a version-2 peer nothing of version 3 applies: version 1 of the signed bytes, as both programs sign it.
  @Test func aVersionTwoPeersGameIsSignedInVersionOne() throws {
    var pair = SessionPair(
      hostCoin: 1, joinerCoin: 1, timeControl: .fischer(base: 10_000, increment: 0), joinerVersions: [2])
    pair.startMatch()
    for cell in [1, 2, 4, 5, 7] { try pair.play(Position(cellNumber: cell, rules: .standard)!) }
    let (host, joiner) = try Self.records(pair)
    #expect(host == joiner && host.signedVersion == 1 && host.timeControl == .none && host.times.isEmpty)
    #expect(String(decoding: host.signedBytes, as: UTF8.self).hasPrefix("tictactoe game record signature v1\n"))
  }
}

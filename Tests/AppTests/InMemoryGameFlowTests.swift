import GameCore
import Session
import Testing

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// Version 3's game flow through the real shells in memory (issue 24's draw offers, takebacks, abort and flag;
/// issue 23's in-memory seam): a host offering a 10-second clock and a joiner who accepts the terms. The clocks
/// read the table's time, so a flag falls when the test moves the time on, not after ten seconds of waiting.
/// Plain mode's words for the same game stay end to end (GameFlowEndToEndTests, TimedRecordsEndToEndTests).
@Suite(.serialized) struct InMemoryGameFlowTests {
  /// A 10-second game between alice (hosting) and bob, both keys accepted and the terms agreed.
  private static func tenSecondGame(_ table: InMemoryMatch) throws -> (x: MemoryPlayer, o: MemoryPlayer) {
    var options = NetworkOptions()
    options.acceptNew = true
    let host = try table.host(options: options, timeControl: try TimeControl(parsing: "10s+0"))
    let joiner = try table.join(host, options: options)
    #expect(table.run { joiner.askedTerms })
    #expect(host.myMark == nil && joiner.myMark == nil, "the game began before the terms were agreed")
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.myMark != nil && joiner.myMark != nil })
    return host.myMark == .x ? (host, joiner) : (joiner, host)
  }

  /// Each side's first move (free in a timed game): X the centre, O a corner, each seen by the other.
  private static func firstMoves(_ table: InMemoryMatch, _ x: MemoryPlayer, _ o: MemoryPlayer) throws {
    x.take(try x.match.play(Position(row: 1, column: 1)))
    #expect(table.run { o.peerMoves.count == 1 })
    o.take(try o.match.play(Position(row: 0, column: 0)))
    #expect(table.run { x.peerMoves.count == 1 })
  }

  /// A draw offer declined, a takeback granted (the board goes back two plies on both sides), a second offer
  /// refused until the offerer moves again, then a draw by agreement.
  @Test func offersAndATakebackCrossTheShells() throws {
    let table = InMemoryMatch()
    let (x, o) = try Self.tenSecondGame(table)
    try Self.firstMoves(table, x, o)
    o.take(try o.match.offerDraw())
    #expect(table.run { x.flow.contains(.drawOffered) })
    x.take(try x.match.declineOffer())
    #expect(table.run { o.flow.contains(.drawDeclined) })
    x.take(try x.match.play(Position(row: 2, column: 2)))
    #expect(table.run { o.peerMoves.count == 2 })
    o.take(try o.match.takeback())
    #expect(table.run { x.flow.contains { if case .takebackRequested = $0 { true } else { false } } })
    x.take(try x.match.takeback())
    #expect(table.run { o.flow.contains(.tookBack(ply: 1)) && x.flow.contains(.tookBack(ply: 1)) })
    #expect(x.match.view.session?.game?.history.count == 1 && o.match.view.session?.game?.history.count == 1)
    // O's first offer stands for its first move: a second waits for its next move.
    #expect(throws: ActionRefusal.self) { try o.match.offerDraw() }
    o.take(try o.match.play(Position(row: 0, column: 2)))
    #expect(table.run { x.peerMoves.count == 2 })
    x.take(try x.match.offerDraw())
    #expect(table.run { o.flow.filter { $0 == .drawOffered }.count == 1 })
    o.take(try o.match.offerDraw())
    #expect(table.run { x.results == [.drawAgreed] && o.results == [.drawAgreed] })
  }

  /// An abort before both sides moved ends the game as void; the rematch is game 2.
  @Test func anAbortBeforeBothSidesMovedIsVoid() throws {
    let table = InMemoryMatch()
    let (x, o) = try Self.tenSecondGame(table)
    x.take(try x.match.play(Position(row: 1, column: 1)))
    #expect(table.run { o.peerMoves.count == 1 })
    o.take(try o.match.abort())
    #expect(table.run { x.results == [.aborted] && o.results == [.aborted] })
    x.take(try x.match.rematch())
    o.take(try o.match.rematch())
    #expect(table.run { x.myMark != nil && x.sessionOutputs.filter(Self.isStart).count == 2 })
  }

  private static func isStart(_ output: SessionOutput) -> Bool {
    if case .gameStarted = output { true } else { false }
  }

  /// O lets its 10 s run out: nothing ends at 9 s; past 10 s (and the claim's margin) X's side claims the win on
  /// time and O's agrees.
  @Test func aFlagFallsWhenTheClockSaysSo() throws {
    let table = InMemoryMatch()
    let (x, o) = try Self.tenSecondGame(table)
    // Each side's first move is free; O's clock runs from X's second.
    try Self.firstMoves(table, x, o)
    x.take(try x.match.play(Position(row: 2, column: 2)))
    #expect(table.run { o.peerMoves.count == 2 })
    table.advance(by: 9)
    #expect(x.results.isEmpty && o.results.isEmpty, "the flag fell early: \(x.results)")
    table.advance(by: 2.5)
    // Due now: the loop's next rounds claim it (not the machine's own seconds running on meanwhile).
    #expect(table.run(seconds: 2) { x.results == [.lostOnTime(loser: .o)] && o.results == [.lostOnTime(loser: .o)] })
    #expect(x.flow.contains(.flagClaimed))
    #expect(
      MatchWords.gameFlow(.flagClaimed, peer: "bob", keys: .plain) == "bob's time ran out: you claimed the win on time."
    )
  }
}

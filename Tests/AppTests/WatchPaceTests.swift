import GameCore
import Testing
import WireProtocol

@testable import MatchCoordination

/// A delayed game's moves reach spectators at the pace they were played (`WatchPace`), so a spectator's clock runs
/// for the side to move in the position it is shown as long as that side thought, never the live player's time,
/// and each move's time left sets it as it was. On a manual clock: the pure pace, then the host with a timed game.
@Suite struct WatchPaceTests {
  static func view(_ plies: Int, charges: [UInt32]) -> WatchView {
    WatchView(
      joinerName: "bob", joinerKey: [1], game: 1, hostPlaysX: true,
      moves: (0..<plies).map { Position(row: $0 / 3, column: $0 % 3) },
      times: charges.prefix(plies).map { OfferedTime(charged: $0, left: 60_000 - $0) }, score: [0, 0, 0], end: nil)
  }

  @Test func aMoveHeldBackGoesOutItsChargeAfterTheOneBefore() {
    let charges: [UInt32] = [0, 0, 5_000, 2_000, 0]
    let told = Self.view(2, charges: charges)
    // At 100 s the spectators were told two moves; now four may be shown (the live game is further on).
    let eligible = Self.view(4, charges: charges)
    var (view, next) = WatchPace.paced(eligible, told: told, toldAt: 100, now: 101)
    #expect(view.moves.count == 2 && next == 105, "ply 2 took X 5 s: it goes out at 105, not at 101")
    (view, next) = WatchPace.paced(eligible, told: told, toldAt: 100, now: 105)
    #expect(view.moves.count == 3 && view.times.count == 3 && next == 107, "then ply 3 two seconds later")
    (view, next) = WatchPace.paced(eligible, told: view, toldAt: 105, now: 107)
    #expect(view == eligible && next == nil)
    // A move of no charge (each side's first, or a premove) goes out with the one before it.
    (view, next) = WatchPace.paced(Self.view(5, charges: charges), told: eligible, toldAt: 107, now: 107)
    #expect(view.moves.count == 5 && next == nil)
  }

  @Test func whatCannotBePacedGoesOutAtOnce() {
    let charges: [UInt32] = [0, 0, 9_000, 9_000]
    let told = Self.view(2, charges: charges)
    var ended = Self.view(4, charges: charges)
    ended.end = WatchedEnd(.resigned, mark: .o)
    #expect(WatchPace.paced(ended, told: told, toldAt: 100, now: 100).view == ended, "the end shows all")
    let untimed = Self.view(4, charges: [])
    #expect(WatchPace.paced(untimed, told: told, toldAt: 100, now: 100).view == untimed)
    let rematch = Self.view(1, charges: [0])
    #expect(WatchPace.paced(rematch, told: told, toldAt: 100, now: 100).view == rematch, "a new game: a snapshot")
    #expect(WatchPace.paced(told, told: nil, toldAt: 0, now: 100).view == told, "the first words")
  }

  static func moves(_ messages: [Message]) -> [UInt16] {
    messages.compactMap { if case .watchMove(_, let ply, _, _) = $0 { ply } else { nil } }
  }

  /// The clock moves on `seconds`, spectator `id` saying it is there first (it is dropped after 10 s of silence).
  static func advance(_ pair: inout MatchPair, _ seconds: Double, watching id: ConnectionID) {
    pair.hostDid(pair.host.received(id, .heartbeat, now: pair.now))
    pair.advance(seconds)
  }

  @Test func theHostReleasesADelayedMoveWhenItsMoverWouldHaveMoved() throws {
    var pair = MatchPair(clock: .fischer(base: 60_000, increment: 0))
    pair.host.core.configuration.spectators = .anyone
    pair.host.core.configuration.watchDelay = 1
    pair.connect()
    pair.joinerDid(pair.joiner.answer(accept: true, now: pair.now))  // bob plays on the host's clock
    pair.deliver()
    let id = SpectatorCoordinatorTests.watch(&pair)
    try pair.play([0])
    Self.advance(&pair, 1, watching: id)
    try pair.play([3])  // ply 1; ply 0 goes out
    Self.advance(&pair, 5, watching: id)
    try pair.play([1])  // ply 2, X's, after 5 s; ply 1 goes out now
    let releasedAt = pair.now
    #expect(Self.moves(SpectatorCoordinatorTests.sent(pair, to: id)) == [0, 1])
    Self.advance(&pair, 2, watching: id)
    try pair.play([4])  // ply 3, O's, after 2 s: ply 2 may be shown, but X thought 5 s
    #expect(Self.moves(SpectatorCoordinatorTests.sent(pair, to: id)) == [0, 1], "held: X's clock has 3 s to run")
    #expect(pair.host.spectators.paceDue == releasedAt + 5, "the host asks to be woken then")
    Self.advance(&pair, 2.5, watching: id)
    #expect(Self.moves(SpectatorCoordinatorTests.sent(pair, to: id)) == [0, 1])
    Self.advance(&pair, 0.5, watching: id)
    let sent = SpectatorCoordinatorTests.sent(pair, to: id)
    #expect(Self.moves(sent) == [0, 1, 2], "out once X's 5 s have passed")
    // With the move, X's time left as it was: what the spectator's clock is set to.
    let time = sent.compactMap { if case .watchMove(_, 2, _, let time) = $0 { time } else { nil } }.first
    #expect(time.map { (4_900...5_000).contains($0.charged) } == true, "\(String(describing: time))")
    #expect(pair.joiner.session?.game?.history.count == 4, "the players are not delayed")
  }
}

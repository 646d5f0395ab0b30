import GameCore
import MatchCoordination
import PeerTrust
import Session
import SessionTestSupport
import TerminalUI
import Testing

@testable import FrontEnds

/// The full screen's presenter is pure: what it shows comes from the events and the view handed with them, at
/// the time given, never from a match it reaches into or the wall clock.
@Suite struct NetworkPresenterTests {
  /// Bob's key: not Alice's, and named apart from any hello name.
  static let bobsKey = Fingerprint(bytes: Array(repeating: 0xB0, count: 32))!

  /// A started match, from the host's side (Alice's): X to move on a 3×3 board.
  static func started(timeControl: TimeControl = .none) -> SessionPair {
    var pair = SessionPair(timeControl: timeControl)
    pair.startMatch()
    return pair
  }

  @Test func theOpponentsKeyAndAddressComeFromTheViewTheirNameFromTheHello() {
    let pair = Self.started()
    let view = MatchView(session: pair.host, peerFingerprint: Self.bobsKey, peerAddress: "127.0.0.5:40000")
    var net = NetGameState(isHost: true, myName: "Alice")
    NetworkPresenter.apply([.session(.peerHello(name: "Robert", software: "test"))], view: view, now: 0, to: &net)
    #expect(net.peerName?.description == "Robert")
    #expect(net.peerFingerprint == Self.bobsKey.description)
    #expect(net.info.last == "Robert at 127.0.0.5:40000")
  }

  @Test func theBoardShownIsTheViewsAfterAMove() throws {
    var pair = Self.started()
    let mover = pair.host.myTurn ? "host" : "joiner"
    try pair.play(Position(row: 1, column: 1))
    // Seen from the side that did not move: the peer's move arrives with the view after it.
    let session = mover == "host" ? pair.joiner : pair.host
    var net = NetGameState(isHost: mover != "host", myName: "me")
    let view = MatchView(session: session)
    NetworkPresenter.apply([.session(.peerMoved(Position(row: 1, column: 1)))], view: view, now: 0, to: &net)
    #expect(net.game == session.game)
    #expect(net.game?.history == [Position(row: 1, column: 1)])
    #expect(net.myMark == session.myMark)
  }

  @Test func clocksAreReadAtTheTimeGivenNotTheWallClock() throws {
    var pair = Self.started(timeControl: .fischer(base: 300_000, increment: 0))
    // Both first moves are free; from the third the mover's clock runs.
    try pair.play(Position(row: 0, column: 0))
    try pair.play(Position(row: 1, column: 1))
    let view = MatchView(session: pair.host)
    var early = NetGameState(isHost: true, myName: "Alice")
    var late = early
    NetworkPresenter.apply([], view: view, now: pair.now + 1, to: &early)
    NetworkPresenter.apply([], view: view, now: pair.now + 61, to: &late)
    let running = try #require(early.clocks?.running)
    let (before, after) =
      running == .mine ? (early.clocks!.mine, late.clocks!.mine) : (early.clocks!.theirs, late.clocks!.theirs)
    #expect(before - after == 60_000)
  }

  @Test func aDropCountsDownFromTheTimeGiven() {
    let view = MatchView(session: Self.started().host)
    var net = NetGameState(isHost: true, myName: "Alice")
    NetworkPresenter.apply([.session(.connectionLost(until: 1_020))], view: view, now: 1_000, to: &net)
    #expect(net.dropped?.secondsLeft == 20)
  }

  @Test func aNewInviteIsOfferedOnlyWhenTheViewSaysSo() {
    var net = NetGameState(isHost: true, myName: "Alice")
    NetworkPresenter.apply([], view: MatchView(mayMakeNewInvite: true), now: 0, to: &net)
    #expect(net.canMakeNewInvite)
    NetworkPresenter.apply([], view: MatchView(mayMakeNewInvite: false), now: 0, to: &net)
    #expect(!net.canMakeNewInvite)
  }

  /// A spectator's screen is made from what the host sent it: the view's session (none of its own) is not shown.
  @Test func aSpectatorsScreenIgnoresTheSession() {
    var net = NetGameState(isHost: false, myName: "Carol")
    net.watching = NetGameState.Watching()
    NetworkPresenter.apply([], view: MatchView(session: Self.started().joiner), now: 0, to: &net)
    #expect(net.game == nil)
    #expect(net.myMark == nil)
  }
}

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

  /// What the session refuses, `play` as the match would call it; the screen's notice for it.
  static func refused(_ session: inout NetSession, _ position: Position, net: NetGameState) throws -> String {
    do {
      _ = try session.play(position, now: 1)
    } catch {
      return NetworkPresenter.refusal(error, on: net)
    }
    Issue.record("the session took \(position)")
    return ""
  }

  /// The session alone judges a move (the screen no longer checks turn and cell first): each of its refusals
  /// reads as the screen said it before.
  @Test func aRefusedMoveReadsAsTheScreenSaysIt() throws {
    var pair = Self.started()
    var net = NetGameState(isHost: true, myName: "Alice")
    NetworkPresenter.apply(
      [.session(.peerHello(name: "Robert", software: "test"))], view: MatchView(session: pair.host), now: 0, to: &net)
    var waiting = pair.host.myTurn ? pair.joiner : pair.host
    #expect(try Self.refused(&waiting, Position(row: 0, column: 0), net: net) == "Wait for Robert's move.")
    try pair.play(Position(row: 1, column: 1))
    var mover = pair.host.myTurn ? pair.host : pair.joiner
    let taken = try #require(pair.host.game?.board[Position(row: 1, column: 1)])
    #expect(
      try Self.refused(&mover, Position(row: 1, column: 1), net: net)
        == "That cell is taken by \(taken). Choose an empty one.")
    // O, X, O, X: X has the middle column.
    for cell in [Position(row: 0, column: 0), Position(row: 0, column: 1), Position(row: 2, column: 2)] {
      try pair.play(cell)
    }
    try pair.play(Position(row: 2, column: 1))
    try #require(pair.host.game?.isOver == true)
    var over = pair.host
    #expect(
      try Self.refused(&over, Position(row: 2, column: 1), net: net) == "The game is over: press n for a rematch.")
  }

  /// In a Swap2 opening a stone placed when a choice is due is refused with the keys of the choices.
  @Test func aStoneWhenAChoiceIsDueAsksForTheChoice() throws {
    let rules = try Rules(rows: 15, columns: 15, k: 5)
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, opening: .swap2)
    pair.startMatch()
    let (first, second) = pair.host.swap2?.me == .first ? ("host", "joiner") : ("joiner", "host")
    for cell in [Position(row: 7, column: 7), Position(row: 7, column: 8), Position(row: 8, column: 8)] {
      if first == "host" { try pair.hostPlays(cell) } else { try pair.joinerPlays(cell) }
      pair.settle()
    }
    var chooser = second == "host" ? pair.host : pair.joiner
    var net = NetGameState(isHost: second == "host", myName: "me")
    NetworkPresenter.apply([], view: MatchView(session: chooser), now: 0, to: &net)
    try #require(!net.openingChoices.isEmpty)
    let keys = net.openingChoices.map(NetSwap2Words.key).joined(separator: ", ")
    #expect(try Self.refused(&chooser, Position(row: 0, column: 0), net: net) == "Choose first: \(keys).")
  }
}

import GameCore
import PeerTrust
import TerminalUI
import Testing
import UntrustedText
import WireProtocol

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// What a spectator's full screen is told of the game it watches (`WatchPresenter`): the players and their keys
/// shortened, a note when a game begins, the clocks counting down for the side to move, and an unfinished game's
/// reason, which came from the host and reaches the screen only sanitised.
@Suite struct WatchPresenterTests {
  static func watched(moves: [Position], times: [OfferedTime] = [], control: TimeControl = .none) throws
    -> WatchedGame
  {
    WatchedGame(
      hostName: PeerText("alice"), joinerName: PeerText("bob"),
      joinerKey: Fingerprint(bytes: Array(repeating: 7, count: 32)),
      timeControl: control, gameNumber: 1, hostPlaysX: true, game: try Game(rules: .standard, moves: moves),
      times: times, score: [0, 0, 0], end: nil)
  }

  @Test func thePlayersTheirKeysAndANoteWhenTheGameBegins() throws {
    var net = NetGameState(isHost: false, myName: "carol")
    net.watching = NetGameState.Watching()
    let game = try Self.watched(moves: [Position(row: 1, column: 1)])
    WatchPresenter.apply(.position(game), hostKey: "SHA256:abcdefghijklmnopqrstuvwxyz", now: 5, to: &net)
    #expect(net.watching?.host?.key == "SHA256:abcdefghijkl")
    #expect(net.watching?.joiner?.key == NetGameState.Watching.shortKey(game.joinerKey?.description ?? ""))
    #expect(net.game?.history == [Position(row: 1, column: 1)])
    #expect(net.chat == [.note("Game 1: alice (X) against bob (O).")])
  }

  @Test func theClockOfTheSideToMoveRunsFromItsLastMove() throws {
    let times = [OfferedTime(charged: 0, left: 60_000), OfferedTime(charged: 0, left: 50_000)]
    let game = try Self.watched(
      moves: [Position(row: 0, column: 0), Position(row: 1, column: 1)], times: times,
      control: .fischer(base: 60_000, increment: 0))
    let clocks = try #require(WatchPresenter.clocks(game, since: 10, now: 12.5))
    #expect(clocks.running == .mine && clocks.mine == 57_500 && clocks.theirs == 50_000)
    #expect(WatchPresenter.clocks(try Self.watched(moves: []), since: 0, now: 1) == nil, "untimed: no clocks")
  }

  /// The host's goodbye, made of escapes and controls: the note and the status hold none of them.
  @Test func anUnfinishedGamesReasonIsSanitised() throws {
    var net = NetGameState(isHost: false, myName: "carol")
    net.watching = NetGameState.Watching()
    let game = try Self.watched(moves: [Position(row: 0, column: 0)])
    WatchPresenter.apply(.position(game), hostKey: nil, now: 0, to: &net)
    let hostile = PeerText("gone\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}1m\u{202E}\n")
    WatchPresenter.apply(.unfinished(game, why: hostile), hostKey: nil, now: 1, to: &net)
    let said = try #require(net.watching?.unfinished)
    #expect(said.hasPrefix("Game 1 ended unfinished: gone"), "\(said)")
    let shown = said + net.chat.map { $0.shown() }.joined()
    let bad = shown.unicodeScalars.filter { [.control, .format].contains($0.properties.generalCategory) }
    #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
    #expect(net.clocks == nil)
  }
}

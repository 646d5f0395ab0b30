import GameCore
import PeerTrust
import TerminalUI
import Testing
import UntrustedText
import WireProtocol

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// A spectator of a game that opens with Swap2 is told the opening's step as the players' screens say it, each
/// player by name: the full screen's status line and a note for each choice (`WatchPresenter`), and plain mode's
/// line after the board (`PlainWatchWords`); the stones of the opening named by who placed them; what the host
/// sends checked against the opening; every name from the peer sanitised.
@Suite struct WatchSwap2StepTests {
  static let terms = HostTerms(rules: try! Rules(size: 15, k: 5), opening: .swap2)
  static let host = PeerText("alice")
  static func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  // h8, j8, h9; then a1, a2.
  static let stones = [p(7, 7), p(7, 9), p(6, 7), p(14, 0), p(13, 0)]

  static func snapshot(_ plies: Int, choices: [Swap2.Choice], hostPlaysX: Bool = true, joiner: String = "bob")
    -> Message
  {
    .watchSnapshot(
      WatchSnapshot(
        joinerName: joiner, joinerKey: Array(repeating: 2, count: 32), game: 1, hostPlaysX: hostPlaysX,
        moves: Array(stones.prefix(plies)), score: [0, 0, 0], watchers: 1, choices: choices))
  }

  static func move(_ ply: Int) -> Message { .watchMove(game: 1, ply: UInt16(ply), position: stones[ply]) }

  /// The host's messages one after the other, each shown as the full screen shows it (its status line each time)
  /// and as plain mode prints it.
  static func shown(_ messages: [Message]) throws -> (statuses: [String], net: NetGameState, plain: [String]) {
    var net = NetGameState(isHost: false, myName: "carol")
    net.watching = NetGameState.Watching()
    var known: WatchedGame?
    var statuses: [String] = []
    var plain: [String] = []
    for message in messages {
      let update = try WatchedGame.after(message, known, host: host, terms: terms)
      switch update {
      case .position(let game), .moved(let game, _, _), .ended(let game), .unfinished(let game, _): known = game
      }
      WatchPresenter.apply(update, hostKey: nil, now: 0, to: &net)
      let game = try #require(net.game)
      statuses.append(try #require(net.watching).status(game))
      plain.append(PlainWatchWords.lines(update))
    }
    return (statuses, net, plain)
  }

  @Test func eachStepOfTheOpeningIsShownWithThePlayersNames() throws {
    let (statuses, net, plain) = try Self.shown([
      Self.snapshot(1, choices: []), Self.move(1), Self.move(2), Self.snapshot(3, choices: [.placeTwo]),
      Self.move(3), Self.move(4), Self.snapshot(5, choices: [.placeTwo, .white], hostPlaysX: false),
    ])
    #expect(
      statuses == [
        "alice plays h8. Swap2: alice places 3 stones (X, O, X): 1 of 3 down, O next",
        "alice plays j8. Swap2: alice places 3 stones (X, O, X): 2 of 3 down, X next",
        "alice plays h9. Swap2: bob chooses X (black), O (white) or 2 more stones",
        "alice plays h9. Swap2: bob places 2 stones (O, X): 0 of 2 down, O next",
        "bob plays a1. Swap2: bob places 2 stones (O, X): 1 of 2 down, X next",
        "bob plays a2. Swap2: alice chooses X (black) or O (white)",
        // Settled: alice took white, so bob (who placed stone 5) plays X and alice moves.
        "bob plays a2. alice (O) to move.",
      ])
    #expect(
      net.chat == [
        .note("Game 1: alice (X) against bob (O)."), .note("bob places 2 more stones."),
        .note("alice takes O (white)."),
      ])
    #expect(plain[0].hasSuffix("Swap2: alice places 3 stones (X, O, X): 1 of 3 down, O next\n"), "\(plain[0])")
    #expect(plain[1].hasPrefix("alice (O) plays j8\n"), "a stone of the opening is its placer's: \(plain[1])")
    #expect(plain[2].hasSuffix("Swap2: bob chooses X (black), O (white) or 2 more stones\n"), "\(plain[2])")
    #expect(plain[3].hasSuffix("Swap2: bob places 2 stones (O, X): 0 of 2 down, O next\n"), "\(plain[3])")
    #expect(plain[4].hasPrefix("bob (O) plays a1\n"), "\(plain[4])")
    #expect(plain[5].hasSuffix("Swap2: alice chooses X (black) or O (white)\n"), "\(plain[5])")
    #expect(!plain[6].contains("Swap2:"), "settled: no step line")
  }

  @Test func aGameWithoutTheOpeningSaysNoStep() throws {
    var net = NetGameState(isHost: false, myName: "carol")
    net.watching = NetGameState.Watching()
    let plainTerms = HostTerms(rules: Self.terms.rules)
    let update = try WatchedGame.after(Self.snapshot(3, choices: []), nil, host: Self.host, terms: plainTerms)
    WatchPresenter.apply(update, hostKey: nil, now: 0, to: &net)
    #expect(net.watching?.opening == nil)
    #expect(try #require(net.watching).status(try #require(net.game)) == "alice plays h9. bob (O) to move.")
    #expect(!PlainWatchWords.lines(update).contains("Swap2"))
  }

  @Test func aHostileNameReachesTheStepOnlySanitised() throws {
    let hostile = "bob\u{1B}[2J\u{9B}31m\u{202E}\u{07}"
    let (statuses, net, plain) = try Self.shown([
      Self.snapshot(3, choices: [], joiner: hostile), Self.snapshot(3, choices: [.placeTwo], joiner: hostile),
    ])
    let said = statuses.joined() + net.chat.map { $0.shown() }.joined() + plain.joined()
    #expect(said.contains("Swap2: bob"), "\(said)")
    let bad = said.unicodeScalars.filter { $0 != "\n" && [.control, .format].contains($0.properties.generalCategory) }
    #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
  }

  /// A timed game: each stone's time is on its placer's clock (the first player's O stone on X's clock until it
  /// takes white), and the clock of the side that places or chooses runs from the first stone.
  @Test func theClocksAreThePlayersPlacesAndRunFromTheFirstStone() throws {
    let timed = HostTerms(rules: Self.terms.rules, timeControl: .fischer(base: 60_000, increment: 0), opening: .swap2)
    let times = [
      OfferedTime(charged: 0, left: 60_000), OfferedTime(charged: 0, left: 60_000),
      OfferedTime(charged: 5_000, left: 55_000), OfferedTime(charged: 0, left: 60_000),
      OfferedTime(charged: 7_000, left: 53_000),
    ]
    func watched(_ plies: Int, _ choices: [Swap2.Choice], hostPlaysX: Bool = true) throws -> WatchedGame {
      let snapshot = WatchSnapshot(
        joinerName: "bob", joinerKey: Array(repeating: 2, count: 32), game: 1, hostPlaysX: hostPlaysX,
        moves: Array(Self.stones.prefix(plies)), times: Array(times.prefix(plies)), score: [0, 0, 0], watchers: 1,
        choices: choices)
      guard
        case .position(let game) = try WatchedGame.after(.watchSnapshot(snapshot), nil, host: Self.host, terms: timed)
      else { throw WatchViolation("no position") }
      return game
    }
    let first = try #require(WatchPresenter.clocks(try watched(1, []), since: 10, now: 12))
    #expect(first.running == .mine && first.mine == 58_000 && first.theirs == 60_000, "the first stone's turn runs")
    let two = try #require(WatchPresenter.clocks(try watched(2, []), since: 10, now: 11))
    #expect(two.running == .mine && two.theirs == 60_000, "the O stone is the first player's")
    let choosing = try #require(WatchPresenter.clocks(try watched(5, [.placeTwo]), since: 20, now: 23))
    #expect(choosing.running == .mine && choosing.mine == 52_000 && choosing.theirs == 53_000, "\(choosing)")
    // The first player (alice) takes white: its clock is now O's, and it runs for stone 6.
    let white = try #require(
      WatchPresenter.clocks(try watched(5, [.placeTwo, .white], hostPlaysX: false), since: 30, now: 31))
    #expect(white.running == .theirs && white.mine == 53_000 && white.theirs == 54_000, "\(white)")
  }

  @Test func whatTheHostSendsIsCheckedAgainstTheOpening() throws {
    let threeStones = try WatchedGame.after(Self.snapshot(3, choices: []), nil, host: Self.host, terms: Self.terms)
    guard case .position(let known) = threeStones else { throw WatchViolation("no position") }
    #expect(known.swap2Choices == [] && known.opening?.step == .secondChooses)
    #expect(throws: WatchViolation("a move while the Swap2 opening waits for a choice")) {
      _ = try WatchedGame.after(Self.move(3), known, host: Self.host, terms: Self.terms)
    }
    #expect(throws: WatchViolation.self, "a choice before three stones") {
      _ = try WatchedGame.after(Self.snapshot(2, choices: [.black]), nil, host: Self.host, terms: Self.terms)
    }
  }
}

import GameCore
import PeerTrust
import Testing
import UntrustedText
import WireProtocol

@testable import MatchCoordination

/// What spectators are sent as the host's game changes (`WatchView`), and what a spectator accepts of it
/// (`WatchedGame`): a move that extends the game told is a move, anything else the whole position again; a move
/// that is not the next of the game watched, or cannot be played, is the host breaking the protocol.
@Suite struct WatchViewTests {
  static let key = [UInt8](repeating: 2, count: 32)
  static func view(_ moves: [Int], game: UInt16 = 1, end: WatchedEnd? = nil, score: [UInt16] = [0, 0, 0]) -> WatchView {
    WatchView(
      joinerName: "bob", joinerKey: key, game: game, hostPlaysX: true,
      moves: moves.map { Position(row: $0 / 3, column: $0 % 3) }, times: [], score: score, end: end)
  }

  @Test func movesThatExtendTheGameAreSentAsMovesTheRestAsAPosition() {
    let start = Self.view([0])
    #expect(start.messages(after: nil, watchers: 3) == [.watchSnapshot(start.snapshot(watchers: 3))])
    #expect(start.messages(after: start, watchers: 3).isEmpty)
    let later = Self.view([0, 4, 1])
    #expect(
      later.messages(after: start, watchers: 3) == [
        .watchMove(game: 1, ply: 1, position: Position(row: 1, column: 1)),
        .watchMove(game: 1, ply: 2, position: Position(row: 0, column: 1)),
      ])
    let won = Self.view([0, 4, 1, 5, 2], end: WatchedEnd(.line, mark: .x), score: [1, 0, 0])
    #expect(
      won.messages(after: later, watchers: 3).last
        == .watchEnd(game: 1, end: WatchedEnd(.line, mark: .x), score: [1, 0, 0]))
    // A takeback, another game, another joiner: the whole position again.
    let tookBack = Self.view([0])
    #expect(tookBack.messages(after: later, watchers: 3) == [.watchSnapshot(tookBack.snapshot(watchers: 3))])
    let next = Self.view([], game: 2, score: [1, 0, 0])
    #expect(next.messages(after: won, watchers: 3) == [.watchSnapshot(next.snapshot(watchers: 3))])
    var other = Self.view([0])
    other.joinerKey = [UInt8](repeating: 9, count: 32)
    #expect(other.messages(after: start, watchers: 3) == [.watchSnapshot(other.snapshot(watchers: 3))])
  }

  static let terms = HostTerms(rules: try! Rules(size: 3, k: 3))

  @Test func aSpectatorChecksWhatTheHostTellsIt() throws {
    let snapshot = Self.view([0, 4]).snapshot(watchers: 1)
    let host = PeerText("alice")
    guard case .position(let game) = try WatchedGame.after(.watchSnapshot(snapshot), nil, host: host, terms: Self.terms)
    else { throw WatchViolation("no position") }
    #expect(game.game.history.count == 2 && game.name(of: .x) == host && game.joinerKey == Fingerprint(bytes: Self.key))
    let next = Message.watchMove(game: 1, ply: 2, position: Position(row: 0, column: 1))
    guard case .moved(let moved, _, .x) = try WatchedGame.after(next, game, host: host, terms: Self.terms) else {
      throw WatchViolation("no move")
    }
    #expect(moved.game.history.count == 3)
    // Not the next ply, another game, a taken cell, a move before any position, a result of another game.
    let wrong: [(Message, WatchedGame?)] = [
      (.watchMove(game: 1, ply: 3, position: Position(row: 0, column: 1)), game),
      (.watchMove(game: 2, ply: 2, position: Position(row: 0, column: 1)), game),
      (.watchMove(game: 1, ply: 2, position: Position(row: 1, column: 1)), game),
      (next, nil),
      (.watchEnd(game: 2, end: WatchedEnd(.fullBoard), score: [0, 0, 1]), game),
      (.move(ply: 2, position: Position(row: 0, column: 1)), game),
    ]
    for (message, known) in wrong {
      #expect(throws: WatchViolation.self, "\(message)") {
        _ = try WatchedGame.after(message, known, host: host, terms: Self.terms)
      }
    }
    // A position that cannot be played (a cell twice) is refused too.
    var bad = snapshot
    bad.moves = [Position(row: 0, column: 0), Position(row: 0, column: 0)]
    #expect(throws: WatchViolation.self) {
      _ = try WatchedGame.after(.watchSnapshot(bad), nil, host: host, terms: Self.terms)
    }
  }
}

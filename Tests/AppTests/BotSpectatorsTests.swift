import GameCore
import Testing
import UntrustedText
import WireProtocol

@testable import MatchCoordination

/// The practice bot's spectators, decided in memory (PROTOCOL.md rule 27): game 0 is the list and a goodbye; game
/// N is watched from its position on, or refused by name when there is none; the numbers are held (100 a game, 8 an
/// address over all the bot's games, loopback exempt); a spectator that moves, floods, falls behind or goes silent
/// is dropped, and the others and the player hear the count.
@Suite struct BotSpectatorsTests {
  static func view(_ moves: [Int], game: UInt16 = 1, name: String = "bob") -> WatchView {
    WatchView(
      joinerName: name, joinerKey: [UInt8](repeating: 2, count: 32), game: game, hostPlaysX: true,
      moves: moves.map { Position(row: $0 / 3, column: $0 % 3) }, times: [], score: [0, 0, 0], end: nil)
  }

  static let games: [UInt16: WatchView] = [3: view([0, 4]), 8: view([], name: "dave")]

  /// Spectator `fd` from `peer` asks for `game` of a bot playing `games` (game 5's joiner is older).
  static func hello(
    _ spectators: inout BotSpectators, _ fd: Int32, game: UInt16, peer: String = "192.0.2.9:4000",
    versions: [UInt16] = [4, 3, 2], now: Double = 0
  ) -> [BotWatchCommand] {
    spectators.hello(
      fd, versions: versions, game: game, peer: peer, exempt: SourceLimits.loopback, now: now,
      list: { ([ListedGame(number: 3, joinerName: "bob", hostPlaysX: true, moves: 2)], 1) },
      lookup: { number in
        if number == 5 { return .olderJoiner }
        return games[number].map { .watchable($0) } ?? .missing
      })
  }

  static func refusal(_ commands: [BotWatchCommand]) -> (RefusalReason, String)? {
    for case .send(_, let messages) in commands {
      for case .refuse(let reason, let text) in messages { return (reason, text) }
    }
    return nil
  }

  static func sent(_ commands: [BotWatchCommand], to fd: Int32) -> [Message] {
    var sent: [Message] = []
    for case .send(let to, let messages) in commands where to == fd { sent += messages }
    return sent
  }

  @Test func gameZeroIsTheListThenAGoodbyeAndTheDoor() {
    var spectators = BotSpectators()
    let commands = Self.hello(&spectators, 10, game: 0)
    let sent = Self.sent(commands, to: 10)
    #expect(
      sent.first
        == .watchGames(
          GameListPart(
            games: [ListedGame(number: 3, joinerName: "bob", hostPlaysX: true, moves: 2)], total: 1, last: true)))
    guard case .bye(.quit, let text)? = sent.last else {
      Issue.record("\(sent)")
      return
    }
    #expect(text.contains("--game N"), "an older spectator is told by name how to pick")
    #expect(commands.last == .close(10, graceful: true))
    #expect(spectators.count == 0 && !spectators.isSpectator(10))
  }

  @Test func aGameThatIsNotThereOrIsAnOlderJoinersIsRefusedByName() throws {
    var spectators = BotSpectators()
    let missing = try #require(Self.refusal(Self.hello(&spectators, 10, game: 99)))
    #expect(missing.0 == .notWatchable && missing.1.contains("no game 99"), "\(missing)")
    let older = try #require(Self.refusal(Self.hello(&spectators, 11, game: 5)))
    #expect(older.0 == .notWatchable && older.1.contains("older"), "\(older)")
    let oldSpectator = try #require(Self.refusal(Self.hello(&spectators, 12, game: 3, versions: [3, 2])))
    #expect(oldSpectator.0 == .notWatchable && oldSpectator.1.contains("version 4"))
    #expect(spectators.count == 0)
  }

  @Test func aSpectatorGetsThePositionThenEachMoveAndThePlayerHearsTheCount() {
    var spectators = BotSpectators()
    let commands = Self.hello(&spectators, 10, game: 3)
    #expect(Self.refusal(commands) == nil)
    #expect(Self.sent(commands, to: 10).first == .watchSnapshot(Self.games[3]!.snapshot(watchers: 1)))
    #expect(commands.contains(.tellPlayer(game: 3, count: 1)))
    let other = Self.hello(&spectators, 11, game: 8)
    #expect(Self.sent(other, to: 11).first == .watchSnapshot(Self.games[8]!.snapshot(watchers: 1)))
    // Game 3 goes on (the first game of its match): only its spectator hears.
    let moved = spectators.after(3, view: Self.view([0, 4, 1]), now: 1)
    #expect(moved == [.send(10, [.watchMove(game: 1, ply: 2, position: Position(row: 0, column: 1))])])
    // Its player leaves: its spectator is told and let go; game 8's watches on.
    let gone = spectators.after(3, view: nil, now: 2)
    #expect(gone == [.send(10, [.bye(.quit, text: "the match is over")]), .close(10, graceful: true)])
    #expect(spectators.count == 1 && spectators.isSpectator(11) && !spectators.isSpectator(10))
  }

  @Test func eightFromOneAddressOverAllGamesAndLoopbackIsExempt() throws {
    var spectators = BotSpectators()
    for fd in 0..<8 {
      let game: UInt16 = fd.isMultiple(of: 2) ? 3 : 8
      #expect(Self.refusal(Self.hello(&spectators, Int32(fd), game: game, peer: "192.0.2.9:\(5000 + fd)")) == nil)
    }
    let ninth = try #require(Self.refusal(Self.hello(&spectators, 20, game: 8, peer: "192.0.2.9:6000")))
    #expect(ninth.0 == .tooManySpectators, "the ninth from one address, in another game")
    #expect(Self.refusal(Self.hello(&spectators, 21, game: 8, peer: "192.0.2.10:6000")) == nil)
    for fd in 30..<50 {
      #expect(Self.refusal(Self.hello(&spectators, Int32(fd), game: 3, peer: "127.0.0.1:\(fd)")) == nil)
    }
    #expect(spectators.count == 29)
  }

  @Test func aHundredAGame() throws {
    var spectators = BotSpectators()
    for fd in 0..<100 {
      #expect(Self.refusal(Self.hello(&spectators, Int32(fd), game: 3, peer: "10.0.\(fd).1:4000")) == nil)
    }
    let over = try #require(Self.refusal(Self.hello(&spectators, 100, game: 3, peer: "10.1.0.1:4000")))
    #expect(over.0 == .tooManySpectators && over.1.contains("100"))
    #expect(Self.refusal(Self.hello(&spectators, 101, game: 8, peer: "10.1.0.1:4000")) == nil)
  }

  @Test func aSpectatorThatMovesFloodsFallsBehindOrGoesSilentIsDropped() {
    var spectators = BotSpectators()
    for fd: Int32 in 10...13 { _ = Self.hello(&spectators, fd, game: 3, peer: "10.0.0.\(fd):1") }
    #expect(spectators.received(.heartbeat, from: 10, peer: "p", now: 1).isEmpty)
    #expect(spectators.received(.chat("hi"), from: 10, peer: "p", now: 1).isEmpty)
    let moved = spectators.received(.move(ply: 2, position: Position(row: 2, column: 2)), from: 10, peer: "p", now: 1)
    #expect(Self.sent(moved, to: 10) == [.error(text: "a spectator cannot send a move")])
    #expect(moved.contains(.close(10, graceful: true)) && moved.contains(.tellPlayer(game: 3, count: 3)))
    var flood: [BotWatchCommand] = []
    for _ in 0...Spectators.messagesPerSecond { flood = spectators.received(.heartbeat, from: 11, peer: "p", now: 2) }
    #expect(flood.contains(.close(11, graceful: true)))
    #expect(spectators.backlog(12, queuedBytes: Spectators.outboxLimit, peer: "p", now: 2).isEmpty)
    #expect(
      spectators.backlog(12, queuedBytes: Spectators.outboxLimit + 1, peer: "p", now: 2).contains(
        .close(12, graceful: false)))
    #expect(spectators.count == 1)
    // The last one is sent heartbeats, then dropped after 10 s without a word.
    #expect(Self.sent(spectators.due(now: 5), to: 13) == [.heartbeat])
    #expect(spectators.due(now: 11).contains(.close(13, graceful: false)))
    #expect(spectators.count == 0)
  }
}

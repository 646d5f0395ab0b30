import GameCore
import Testing
import WireProtocol

@testable import App
@testable import FrontEnds
@testable import MatchCoordination

/// A spectator on the real shells in memory (`HostMatch` and `JoinerMatch` on `MatchOnLoop`, real TLS): it is
/// asked about the host's key as a joiner is, then follows the game (the position, each move, the result); both
/// players are told it watches, and the host's player is asked nothing about it.
@Suite(.serialized) struct InMemoryWatchTests {
  static func watched(_ player: MemoryPlayer) -> [WatchUpdate] {
    player.events.compactMap { if case .watched(let update) = $0 { update } else { nil } }
  }

  static func count(_ player: MemoryPlayer) -> Int? {
    player.events.lazy.compactMap { if case .spectators(let count) = $0 { count } else { nil } }.last
  }

  @Test func aSpectatorFollowsTheGameAndBothPlayersAreTold() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    host.hostMatch.spectatorPolicy = .anyone
    let joiner = try table.join(host)
    #expect(table.run { joiner.question != nil })
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.question != nil })
    host.take(host.match.answer(accept: true))
    #expect(table.run { host.myMark != nil && joiner.myMark != nil })
    let (x, o) = host.myMark == .x ? (host, joiner) : (joiner, host)
    x.take(try x.match.play(Position(row: 0, column: 0)))
    #expect(table.run { o.peerMoves.count == 1 })
    // The spectator meets the host for the first time: asked about its key, as a joiner is.
    let carol = try table.join(host, name: "carol", address: "127.0.0.5", watches: true)
    #expect(table.run { carol.question != nil })
    #expect(carol.question?.fingerprint == host.identity.fingerprint)
    carol.take(carol.match.answer(accept: true))
    #expect(table.run { !Self.watched(carol).isEmpty })
    guard case .position(let first) = Self.watched(carol).first else {
      Issue.record("\(carol.events)")
      return
    }
    #expect(first.game.history == [Position(row: 0, column: 0)] && first.gameNumber == 1)
    #expect(first.joinerName.description == "bob" && first.joinerKey == joiner.identity.fingerprint)
    #expect(table.run { Self.count(host) == 1 && Self.count(joiner) == 1 })
    let askedAboutCarol = host.events.contains {
      if case .ask(let question) = $0 { question.fingerprint == carol.identity.fingerprint } else { false }
    }
    #expect(!askedAboutCarol && host.match.view.question == nil, "the host's player is not asked about a spectator")
    var told = Self.watched(carol).count
    for (player, cell) in [(o, 3), (x, 1), (o, 4), (x, 2)] {
      player.take(try player.match.play(Position(row: cell / 3, column: cell % 3)))
      told += cell == 2 ? 2 : 1  // the last move, then the result
      #expect(table.run { Self.watched(carol).count == told }, "\(Self.watched(carol))")
    }
    guard case .ended(let ended) = Self.watched(carol).last else {
      Issue.record("\(Self.watched(carol))")
      return
    }
    #expect(ended.end == WatchedEnd(.line, mark: .x) && ended.game.history.count == 5)
    #expect(carol.end == nil && host.end == nil && joiner.end == nil)
  }

  /// Two spectators on the real shells: what carol types reaches dave, and neither player.
  @Test func spectatorsChatAmongThemselvesOnly() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    host.hostMatch.spectatorPolicy = .anyone
    let joiner = try table.join(host)
    try table.meet(host, joiner)
    var watchers: [MemoryPlayer] = []
    for (name, address) in [("carol", "127.0.0.5"), ("dave", "127.0.0.6")] {
      let watcher = try table.join(host, name: name, address: address, watches: true)
      #expect(table.run { watcher.question != nil })
      watcher.take(watcher.match.answer(accept: true))
      #expect(table.run { !Self.watched(watcher).isEmpty })
      watchers.append(watcher)
    }
    watchers[0].take(try watchers[0].match.chat("who wins?"))
    let said = { (player: MemoryPlayer) in
      player.events.compactMap { if case .spectatorChat(let name, let text) = $0 { "\(name): \(text)" } else { nil } }
    }
    #expect(table.run { !said(watchers[1]).isEmpty })
    #expect(said(watchers[1]) == ["carol: who wins?"])
    table.settle()
    #expect(said(watchers[0]).isEmpty && said(host).isEmpty && said(joiner).isEmpty)
    let heard = [host, joiner].flatMap(\.sessionOutputs).contains { if case .chat = $0 { true } else { false } }
    #expect(!heard, "the players hear nothing of it")
  }

  /// The host's player quits in the middle of a game: its spectator is told the game ended unfinished and why
  /// (before, it got a goodbye and no result line), then the match ends.
  @Test func aHostThatQuitsMidGameLeavesItsSpectatorAnUnfinishedResult() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    host.hostMatch.spectatorPolicy = .anyone
    let joiner = try table.join(host)
    #expect(table.run { joiner.question != nil })
    joiner.take(joiner.match.answer(accept: true))
    #expect(table.run { host.question != nil })
    host.take(host.match.answer(accept: true))
    #expect(table.run { host.myMark != nil && joiner.myMark != nil })
    let x = host.myMark == .x ? host : joiner
    x.take(try x.match.play(Position(row: 1, column: 1)))
    let carol = try table.join(host, name: "carol", address: "127.0.0.5", watches: true)
    #expect(table.run { carol.question != nil })
    carol.take(carol.match.answer(accept: true))
    #expect(table.run { !Self.watched(carol).isEmpty })
    host.take(host.match.quit())
    #expect(table.run { carol.end != nil })
    guard case .unfinished(let game, let why) = Self.watched(carol).last else {
      Issue.record("no unfinished result: \(Self.watched(carol))")
      return
    }
    #expect(game.gameNumber == 1 && game.game.history == [Position(row: 1, column: 1)])
    #expect(why.description == "the match is over: alice, the host, left", "\(why)")
    #expect(PlainWatchWords.lines(Self.watched(carol).last!) == "game 1 ended unfinished: \(why)\n")
  }
}

import GameCore
import PeerTrust
import Session
import Testing
import WireProtocol

@testable import MatchCoordination

/// The host's spectators, decided in memory (PROTOCOL.md, "Version 4: watching"): who is let in (the policy, at
/// most 100 a game and 8 an address), what each is sent (the position, each move, the result; never the chat), and
/// who is dropped (a spectator that moves, falls behind or goes silent), while the players play on untouched.
@Suite struct SpectatorCoordinatorTests {
  static let carolKey = MatchPair.key(3)

  /// A host that lets `policy` watch, and bob playing it.
  static func pair(_ policy: SpectatorPolicy?, known: KnownPeers = KnownPeers()) -> MatchPair {
    var pair = MatchPair(known: known)
    pair.host.core.configuration.spectators = policy
    pair.connect()
    return pair
  }

  /// A spectator connects from `peer` with `key` and asks to watch: its connection number.
  @discardableResult
  static func watch(
    _ pair: inout MatchPair, from peer: String = "192.0.2.9:4000", key: Fingerprint = carolKey,
    versions: [UInt16] = ProtocolVersion.supported
  ) -> ConnectionID {
    let (id, accepted) = pair.host.accepted(peer: peer, now: pair.now)
    pair.hostDid(accepted)
    pair.hostDid(
      pair.host.secured(id, MatchPair.facts("carol", key, .askUser(name: "carol", fingerprint: key)), now: pair.now))
    let hello = Message.hello(versions: versions, name: "carol", software: "test", watch: 0)
    pair.hostDid(pair.host.received(id, hello, now: pair.now))
    pair.deliver()
    return id
  }

  static func sent(_ pair: MatchPair, to id: ConnectionID) -> [Message] {
    pair.hostCommands.compactMap { if case .send(id, let message) = $0 { message } else { nil } }
  }

  static func refusal(_ pair: MatchPair, to id: ConnectionID) -> RefusalReason? {
    sent(pair, to: id).lazy.compactMap { if case .refuse(let reason, _) = $0 { reason } else { nil } }.first
  }

  @Test func aSpectatorIsSentThePositionThenEachMoveAndTheResultButNoChat() throws {
    var pair = Self.pair(.anyone)
    try pair.play([0, 3])
    let id = Self.watch(&pair)
    #expect(pair.host.connections[id]?.phase == .watching && pair.host.spectators.count == 1)
    // Its first words: the host's hello, whose terms say the game may be watched, then the position so far.
    let first = Self.sent(pair, to: id)
    guard case .hello(_, "alice", _, let terms, nil, _) = first.first,
      case .watchSnapshot(let snapshot) = first.dropFirst().first
    else {
      Issue.record("\(first)")
      return
    }
    #expect(terms?.watchable == true)
    #expect(snapshot.joinerName == "bob" && snapshot.joinerKey == MatchPair.bobKey.bytes && snapshot.game == 1)
    #expect(snapshot.moves == [Position(row: 0, column: 0), Position(row: 1, column: 0)])
    #expect(snapshot.watchers == 1 && snapshot.end == nil)
    // Both players are told that one watches.
    #expect(pair.hostEvents.contains(.spectators(1)) && pair.joinerEvents.contains(.spectators(1)))
    let now = pair.now
    pair.joinerDid(
      try pair.joiner.attempt(now: now) { (session) throws(ActionRefusal) in try session.chat("secret", now: now) })
    pair.deliver()
    try pair.play([1, 4, 2])
    let after = Self.sent(pair, to: id).drop { if case .watchSnapshot = $0 { false } else { true } }.dropFirst()
    let expected: [Message] = [
      .watchers(count: 1),
      .watchMove(game: 1, ply: 2, position: Position(row: 0, column: 1)),
      .watchMove(game: 1, ply: 3, position: Position(row: 1, column: 1)),
      .watchMove(game: 1, ply: 4, position: Position(row: 0, column: 2)),
    ]
    #expect(Array(after.prefix(4)) == expected, "\(after)")
    let xIsHost = pair.host.session?.myMark == .x
    #expect(
      after.dropFirst(4).first
        == .watchEnd(game: 1, end: WatchedEnd(.line, mark: .x), score: xIsHost ? [1, 0, 0] : [0, 1, 0]))
    #expect(!Self.sent(pair, to: id).contains { if case .chat = $0 { true } else { false } })
    // A rematch is a new game: the whole position again.
    pair.hostDid(
      try pair.host.attempt(now: pair.now) { (session) throws(ActionRefusal) in try session.offerRematch(now: pair.now)
      })
    pair.deliver()
    pair.joinerDid(
      try pair.joiner.attempt(now: pair.now) { (session) throws(ActionRefusal) in
        try session.offerRematch(now: pair.now)
      })
    pair.deliver()
    guard case .watchSnapshot(let second) = Self.sent(pair, to: id).last else {
      Issue.record("\(Self.sent(pair, to: id))")
      return
    }
    #expect(second.game == 2 && second.moves.isEmpty && second.hostPlaysX != xIsHost)
  }

  @Test func thePolicyDecidesWhoWatches() throws {
    var none = Self.pair(SpectatorPolicy.none)
    let refused = Self.watch(&none)
    #expect(Self.refusal(none, to: refused) == .notWatchable && none.closedByHost.contains(refused))
    var unsaid = Self.pair(nil)
    let unsaidID = Self.watch(&unsaid)
    #expect(Self.refusal(unsaid, to: unsaidID) == .notWatchable)
    let carol = try KnownPeers.parse("carol \(Self.carolKey) 2026-11-30\n", path: "known_peers")
    var known = Self.pair(.known, known: carol)
    let stranger = Self.watch(&known, key: MatchPair.key(9))
    #expect(Self.refusal(known, to: stranger) == .notKnown && known.closedByHost.contains(stranger))
    let friend = Self.watch(&known, key: Self.carolKey)
    #expect(Self.refusal(known, to: friend) == nil && known.host.spectators.contains(friend))
    // The host's player is never asked about a spectator, and nothing is remembered of one.
    #expect(known.host.question == nil)
    #expect(!known.hostCommands.contains { if case .remember = $0 { true } else { false } })
    // A spectator that does not speak version 4 cannot be sent the game.
    var old = Self.pair(.anyone)
    let oldID = Self.watch(&old, versions: [3, 2])
    #expect(Self.refusal(old, to: oldID) == .notWatchable)
  }

  @Test func noGameYetOrAnOlderJoinerIsNotWatchable() throws {
    var waiting = MatchPair()
    waiting.host.core.configuration.spectators = .anyone
    let early = Self.watch(&waiting)
    #expect(Self.refusal(waiting, to: early) == .notWatchable)
    // A joiner speaking version 3 was never told the game may be watched: its game is not.
    var pair = MatchPair()
    pair.host.core.configuration.spectators = .anyone
    let (bob, accepted) = pair.host.accepted(peer: "192.0.2.2:5000", now: pair.now)
    pair.hostDid(accepted)
    pair.hostDid(
      pair.host.secured(bob, MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "bob"))), now: pair.now)
    )
    pair.hostDid(pair.host.received(bob, .hello(versions: [3, 2], name: "bob", software: "old"), now: pair.now))
    #expect(pair.host.session?.version == 3 && pair.host.connections[bob]?.admitted == true)
    let id = Self.watch(&pair)
    #expect(Self.refusal(pair, to: id) == .notWatchable)
    #expect(!Self.sent(pair, to: bob).contains { if case .watchers = $0 { true } else { false } })
  }

  /// What the LAN advertisement is told to say of the game being played (`watch=N`): the count when the game may
  /// be watched, nil when the host lets nobody watch or the joiner is older, nil again once the game is over.
  static func advertised(_ pair: MatchPair) -> [Int?] {
    pair.hostCommands.compactMap {
      switch $0 {
      case .advertiseWatchers(let count), .advertise(_, let count): count
      default: nil
      }
    }
  }

  /// The advertisement's updates the host's coordinator asks for: each a state and a watchers count, or a count.
  static func updates(_ commands: [MatchCommand]) -> [String] {
    commands.compactMap {
      switch $0 {
      case .advertise(let state, let count): "\(state) \(count.map(String.init) ?? "-")"
      case .advertiseWatchers(let count): "watchers \(count.map(String.init) ?? "-")"
      default: nil
      }
    }
  }

  /// Every DNS-SD client on the LAN wakes for each TXT update: a game starting, and an opponent leaving a host
  /// that hosts on, each change the state and `watch=` in one update, not one for each.
  @Test func aGameStartingOrEndingIsOneUpdateOfTheAdvertisement() throws {
    var pair = MatchPair(keepsHosting: true)
    pair.host.core.configuration.spectators = .anyone
    pair.connect()
    #expect(Self.updates(pair.hostCommands) == ["playing 0"])
    pair.hostCommands = []
    pair.joinerDid(pair.joiner.quit(now: pair.now))
    pair.deliver()
    #expect(pair.hostEvents.contains { if case .opponentGone = $0 { true } else { false } })
    #expect(Self.updates(pair.hostCommands) == ["waiting -"])
  }

  @Test func theAdvertisementCountsTheSpectatorsOfAWatchableGameOnly() throws {
    var pair = Self.pair(.anyone)
    #expect(Self.advertised(pair) == [0], "the game became watchable with nobody watching")
    Self.watch(&pair)
    Self.watch(&pair, from: "192.0.2.10:4000", key: MatchPair.key(4))
    #expect(Self.advertised(pair).suffix(2) == [1, 2])
    var none = Self.pair(SpectatorPolicy.none)
    Self.watch(&none)
    #expect(Self.advertised(none).allSatisfy { $0 == nil } && !Self.advertised(none).isEmpty)
    var old = MatchPair()
    old.host.core.configuration.spectators = .anyone
    let (bob, accepted) = old.host.accepted(peer: "192.0.2.2:5000", now: old.now)
    old.hostDid(accepted)
    old.hostDid(
      old.host.secured(bob, MatchPair.facts("bob", MatchPair.bobKey, .trusted(.knownPeer(name: "bob"))), now: old.now))
    old.hostDid(old.host.received(bob, .hello(versions: [3, 2], name: "bob", software: "old"), now: old.now))
    #expect(Self.advertised(old).allSatisfy { $0 == nil } && !Self.advertised(old).isEmpty)
  }

  @Test func atMostEightFromAnAddressAndAHundredAGame() throws {
    var pair = Self.pair(.anyone)
    pair.host.limits = SourceLimits(now: pair.now)
    let eight = (0..<8).map { Self.watch(&pair, from: "192.0.2.9:\(4000 + $0)", key: MatchPair.key(UInt8(10 + $0))) }
    #expect(eight.allSatisfy { Self.refusal(pair, to: $0) == nil } && pair.host.spectators.count == 8)
    let ninth = Self.watch(&pair, from: "192.0.2.9:5000", key: MatchPair.key(30))
    #expect(Self.refusal(pair, to: ninth) == .tooManySpectators)
    // The limits' exemptions apply: loopback is not held to eight.
    let local = (0..<10).map { Self.watch(&pair, from: "127.0.0.1:\(6000 + $0)", key: MatchPair.key(UInt8(40 + $0))) }
    #expect(local.allSatisfy { Self.refusal(pair, to: $0) == nil })
    for index in 0..<82 { Self.watch(&pair, from: "198.51.100.\(index):7000", key: MatchPair.key(UInt8(100 + index))) }
    #expect(pair.host.spectators.count == 100)
    let more = Self.watch(&pair, from: "203.0.113.1:7000", key: MatchPair.key(250))
    #expect(Self.refusal(pair, to: more) == .tooManySpectators && pair.host.spectators.count == 100)
    #expect(pair.joinerEvents.contains(.spectators(100)))
  }

  @Test func aSpectatorThatMovesIsDroppedAndThePlayersPlayOn() throws {
    var pair = Self.pair(.anyone)
    let id = Self.watch(&pair)
    pair.hostDid(pair.host.received(id, .move(ply: 0, position: Position(row: 1, column: 1)), now: pair.now))
    pair.deliver()
    #expect(Self.sent(pair, to: id).contains(.error(text: "a spectator cannot send a move")))
    #expect(pair.closedByHost.contains(id) && pair.host.spectators.count == 0)
    #expect(pair.host.session?.game?.history.isEmpty == true, "the spectator's move did not reach the game")
    #expect(pair.joinerEvents.last(where: { if case .spectators = $0 { true } else { false } }) == .spectators(0))
    try pair.play([0, 3, 1, 4, 2])
    #expect(pair.host.finished == nil && pair.host.session?.lastResult == .line(winner: .x))
  }

  @Test func aSpectatorBehindOrSilentIsDroppedAndHeartbeatsKeepOneAlive() throws {
    var pair = Self.pair(.anyone)
    let slow = Self.watch(&pair, from: "192.0.2.9:4000")
    let quiet = Self.watch(&pair, from: "192.0.2.9:4001", key: MatchPair.key(4))
    #expect(pair.host.backlog(slow, queuedBytes: Spectators.outboxLimit, now: pair.now).isEmpty)
    pair.hostDid(pair.host.backlog(slow, queuedBytes: Spectators.outboxLimit + 1, now: pair.now))
    #expect(pair.closedByHost.contains(slow) && !pair.host.spectators.contains(slow))
    #expect(pair.hostLog.contains { $0.contains("bytes behind") })
    // Sent nothing for 3 s: a heartbeat; heard nothing for 10 s: gone. The players' game stays.
    let before = Self.sent(pair, to: quiet).count
    pair.advance(3)
    #expect(Self.sent(pair, to: quiet).dropFirst(before).contains(.heartbeat))
    pair.hostDid(pair.host.received(quiet, .heartbeat, now: pair.now))
    pair.advance(6.5)
    #expect(pair.host.spectators.contains(quiet), "heard 6.5 s ago")
    pair.advance(4)
    #expect(!pair.host.spectators.contains(quiet) && pair.closedByHost.contains(quiet))
    #expect(pair.host.session?.isClosed == false && pair.host.finished == nil)
  }

  @Test func whenTheMatchEndsSpectatorsAreToldAndLetGo() throws {
    var pair = Self.pair(.anyone)
    let id = Self.watch(&pair)
    pair.hostDid(pair.host.quit(now: pair.now))
    #expect(Self.sent(pair, to: id).contains(.bye(.quit, text: "the match is over: alice, the host, left")))
    #expect(pair.closedByHost.contains(id) && pair.host.spectators.count == 0)
  }

  /// A spectator whose host does not say that its game may be watched (an older program, or `spectators = none`)
  /// leaves at once, before anything is played: an older host would take it for a player.
  @Test func aSpectatorLeavesAHostThatDoesNotSayItsGameMayBeWatched() {
    for policy: SpectatorPolicy? in [nil, SpectatorPolicy.none] {
      var pair = MatchPair()
      pair.host.core.configuration.spectators = policy
      pair.joiner.core.configuration.watch = 0
      pair.connect()
      guard case .session(.refused(.notWatchable, _)) = pair.joiner.finished else {
        Issue.record("\(String(describing: pair.joiner.finished))")
        continue
      }
      #expect(pair.started(pair.joinerEvents) == 0 && pair.started(pair.hostEvents) == 0)
      let left = pair.joinerCommands.contains { if case .send(_, .bye) = $0 { true } else { false } }
      #expect(left && pair.closedByJoiner.contains(pair.links[0].joiner))
    }
  }

  /// A spectator that floods the host (heartbeats, or chat it may send but nobody reads) is dropped at more than 20
  /// messages within a second; one sending a heartbeat every 3 s stays.
  @Test func aFloodingSpectatorIsDropped() {
    var pair = Self.pair(.anyone)
    let calm = Self.watch(&pair, from: "192.0.2.9:4000")
    let flood = Self.watch(&pair, from: "192.0.2.9:4001", key: MatchPair.key(4))
    for index in 0..<Spectators.messagesPerSecond {
      pair.hostDid(pair.host.received(flood, index.isMultiple(of: 2) ? .heartbeat : .chat("hi"), now: pair.now))
    }
    #expect(pair.host.spectators.contains(flood), "20 within a second are not a flood")
    pair.hostDid(pair.host.received(flood, .heartbeat, now: pair.now + 0.5))
    #expect(!pair.host.spectators.contains(flood) && pair.closedByHost.contains(flood))
    #expect(Self.sent(pair, to: flood).contains(.error(text: "more than 20 messages within a second")))
    for _ in 0..<10 {
      pair.advance(3)
      pair.hostDid(pair.host.received(calm, .heartbeat, now: pair.now))
    }
    #expect(pair.host.spectators.contains(calm) && pair.host.spectators.count == 1)
  }
}

import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

@Suite struct SessionTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  @Test func aWholeMatchWithTheHostAccepting() throws {
    var pair = SessionPair()
    pair.startMatch()
    #expect(pair.hostEvents.contains(.peerHello(name: "Bob", software: "test")))
    #expect(pair.joinerEvents.contains(.peerHello(name: "Alice", software: "test")))
    #expect(pair.host.phase == .playing && pair.joiner.phase == .playing)
    #expect(pair.host.myMark == pair.joiner.myMark?.opponent)
    #expect(pair.joiner.rules == .standard)
    for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)] { try pair.play(cell) }
    #expect(pair.host.game == pair.joiner.game)
    #expect(pair.host.phase == .betweenGames && pair.joiner.phase == .betweenGames)
    let xIsHost = pair.host.myMark == .x
    #expect(pair.host.score.wins == (xIsHost ? 1 : 0))
    #expect(pair.joiner.score.wins == (xIsHost ? 0 : 1))
    #expect(pair.host.lastResult == .line(winner: .x))
  }

  @Test func theHostsRulesReachTheJoiner() throws {
    var pair = SessionPair(rules: try Rules(size: 5, k: 4))
    pair.startMatch()
    #expect(pair.joiner.rules == (try Rules(size: 5, k: 4)))
    #expect(pair.joiner.game?.rules.cellCount == 25)
  }

  @Test(arguments: [(0, 0, true), (1, 0, false), (0, 1, false), (3, 1, true)])
  func theCoinDecidesWhoStartsAndNeitherSideChoosesAlone(secret: UInt8, share: UInt8, hostFirst: Bool) throws {
    var pair = SessionPair(hostCoin: secret, joinerCoin: share)
    pair.startMatch()
    #expect(pair.host.myMark == (hostFirst ? .x : .o))
    #expect(pair.joiner.myMark == (hostFirst ? .o : .x))
  }

  @Test func rematchesAlternateTheFirstPlayer() throws {
    var pair = SessionPair()
    pair.startMatch()
    let firstX = pair.host.myMark
    try pair.play(p(0, 0))
    pair.deliver(
      fromHost: pair.host.phase == .playing && !pair.host.myTurn
        ? try pair.host.resign(now: 0) : try pair.joiner.resign(now: 0)
    )
    #expect(pair.joiner.phase == .betweenGames && pair.host.phase == .betweenGames)
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    #expect(pair.hostEvents.last == .rematchOffered)
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    #expect(pair.host.gameNumber == 2 && pair.joiner.gameNumber == 2)
    #expect(pair.host.myMark == firstX?.opponent)
    #expect(pair.host.game?.history == [])
  }

  @Test func crossedRematchOffersStartOneGame() throws {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    let hostOffer = try pair.host.offerRematch(now: 0)
    let joinerOffer = try pair.joiner.offerRematch(now: 0)
    pair.deliver(fromHost: hostOffer)
    pair.deliver(fromJoiner: joinerOffer)
    #expect(pair.host.gameNumber == 2 && pair.joiner.gameNumber == 2)
    #expect(pair.host.phase == .playing && pair.joiner.phase == .playing)
  }

  @Test func resignationEndsTheGameForBoth() throws {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromJoiner: try pair.joiner.resign(now: 0))
    let joinerMark = pair.joiner.myMark ?? .x
    #expect(pair.host.lastResult == .resigned(loser: joinerMark))
    #expect(pair.host.score.wins == 1 && pair.joiner.score.losses == 1)
  }

  @Test func hostDecliningTellsTheJoinerWhy() {
    var pair = SessionPair()
    let joinerHello = pair.joiner.start(now: 0)
    pair.deliver(fromHost: pair.host.start(now: 0))
    pair.deliver(fromJoiner: joinerHello)
    #expect(pair.host.phase == .awaitingDecision)
    pair.deliver(fromHost: pair.host.decline(.busy, text: "in a game", now: 0))
    #expect(pair.joiner.phase == .closed(.refused(.busy, "in a game")))
    #expect(SessionEnd.refused(.busy, "x").description == "The host is busy: x")
    #expect(SessionEnd.refused(.busy, "").description == "The host is busy with another game. Try again later.")
  }

  @Test func versionMismatchNamesBothVersions() {
    var host = NetSession(
      configuration: .init(role: .host, name: "A", software: "t", versions: [2, 3]), coinBytes: [0], sha256: testHash,
      now: 0)
    _ = host.start(now: 0)
    let outputs = host.receive(.hello(versions: [1], name: "B", software: "t"), now: 0)
    #expect(outputs.contains(.send(.refuse(.versionMismatch, text: "this host speaks protocol 2-3; you speak 1"))))
    #expect(host.phase == .closed(.versionMismatch(ours: [2, 3], theirs: [1])))
    #expect(
      SessionEnd.versionMismatch(ours: [2, 3], theirs: [1]).description
        == "Protocol version mismatch: this program speaks 2-3, the other speaks 1. One of you needs to update tictactoe."
    )
  }

  @Test func joinerWaitsForTheWelcomeBeforeTheGameStarts() {
    var pair = SessionPair()
    let joinerHello = pair.joiner.start(now: 0)
    pair.deliver(fromHost: pair.host.start(now: 0))
    pair.deliver(fromJoiner: joinerHello)
    #expect(pair.joiner.phase == .awaitingWelcome)
    #expect(pair.joiner.game == nil)
    #expect(throws: PlayError.illegal(.gameOver)) { try pair.joiner.play(Position(row: 0, column: 0), now: 0) }
  }

  /// The ways a move or a message's contents can break the rules: answered with an error message and the session
  /// closed. (Every message out of its place in the conversation is ConversationRulesTests' table.)
  @Test(arguments: [
    ("a second hello", Message.hello(versions: [1], name: "Bob", software: "t"), "a second hello"),
    ("out of turn", .move(ply: 0, position: Position(row: 0, column: 0)), "an illegal move: it is "),
    ("duplicate ply", .move(ply: 5, position: Position(row: 2, column: 2)), "repeated or out of order"),
    ("out of range", .move(ply: 0, position: Position(row: 3, column: 0)), "off the 3×3 board"),
    ("welcome to a host", .welcome(version: 1, rules: .standard), "an unexpected welcome (during a game)"),
    ("rematch accept unasked", .rematchAccept, "an unexpected rematch acceptance (during a game)"),
  ])
  func violationsAreAnsweredAndClosed(name: String, message: Message, expected: String) throws {
    var pair = SessionPair()
    pair.startMatch()
    // Make it the host's turn, so any joiner move is out of turn.
    if !pair.host.myTurn { try pair.play(Position(row: 1, column: 1)) }
    if name == "out of range" || name == "duplicate ply" {
      // Let the joiner be the one to move, so only the range or ply is wrong.
      try pair.play(Position(row: 0, column: 0))
    }
    try #require(!pair.host.isClosed && !pair.joiner.isClosed, "the set-up moves ended the match")
    let ply = UInt16(pair.host.game?.history.count ?? 0)
    var toSend = message
    if name == "out of range" { toSend = .move(ply: ply, position: Position(row: 3, column: 0)) }
    // The right ply on a free cell, so only the turn is wrong.
    if name == "out of turn" { toSend = .move(ply: ply, position: Position(row: 0, column: 0)) }
    let hostMark = pair.host.myMark
    let outputs = pair.host.receive(toSend, now: 0)
    guard case .closed(.protocolViolation(let text)) = pair.host.phase else {
      Issue.record("\(name): still open after \(toSend)")
      return
    }
    #expect(text.contains(expected), "\(name): \(text)")
    if name == "out of turn" { #expect(text == "an illegal move: it is \(hostMark?.description ?? "nobody")'s turn") }
    #expect(outputs.first == .send(.error(text: text)))
  }

  /// Rule 5: the ply must be the next one. A stale ply (one already played) and a skipped one are violations
  /// even when the turn and the cell would do.
  @Test(arguments: [(UInt16(1), "stale"), (UInt16(0), "the first again"), (UInt16(3), "skipped")])
  func aPlyOtherThanTheNextIsAViolation(ply: UInt16, what: String) throws {
    var pair = SessionPair()
    pair.startMatch()
    try pair.play(p(0, 0))
    try pair.play(p(1, 1))
    let moverIsHost = pair.host.myTurn
    var receiver = moverIsHost ? pair.joiner : pair.host
    try #require(receiver.game?.history.count == 2 && !receiver.isClosed)
    let outputs = receiver.receive(.move(ply: ply, position: p(2, 2)), now: 0)
    #expect(
      outputs.last
        == .closed(.protocolViolation("a move for ply \(ply) when ply 2 was next (repeated or out of order)")),
      "\(what): \(outputs)")
    #expect(receiver.game?.history.count == 2, "\(what): the move was played")
  }

  /// Rule 4: once the joiner has sent its share, the host cannot commit again: a second commitment would let it
  /// pick a secret, knowing the share, that makes it X.
  @Test func theHostCannotCommitAgainAfterSeeingTheShare() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 0)  // the honest toss makes the joiner X
    let joinerHello = pair.joiner.start(now: 0)
    pair.send(fromHost: pair.host.start(now: 0))
    pair.send(fromJoiner: joinerHello)
    pair.settle()
    pair.send(fromHost: pair.host.accept(now: 0))
    let delivered = pair.deliverToJoiner() && pair.deliverToJoiner()  // welcome and coin commit
    try #require(delivered)
    #expect(pair.toHost.contains(.coinShare(bytes: Array(repeating: 0, count: 32))))
    // A cheating host saw the share (0) and commits to a secret whose lowest bit makes it X, then reveals it.
    let chosen = [UInt8](repeating: 2, count: 32)
    let outputs = pair.joiner.receive(.coinCommit(digest: testHash(chosen)), now: 0)
    #expect(SessionPair.violation(outputs, containing: "an unexpected coin commitment"), "\(outputs)")
    #expect(pair.joiner.receive(.coinReveal(secret: chosen), now: 0).isEmpty)
    #expect(pair.joiner.game == nil && pair.joiner.myMark == nil, "a game began on the host's second choice")
  }

  /// Rule 2: the host's welcome must name a version the joiner offered.
  @Test(
    arguments: [([UInt16(2)], UInt16(1)), ([UInt16(2), 1], UInt16(3)), ([UInt16(1)], UInt16(2))] as [([UInt16], UInt16)]
  )
  func aWelcomeToAVersionTheJoinerNeverOfferedIsAViolation(offered: [UInt16], welcomed: UInt16) {
    var joiner = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "t", versions: offered), coinBytes: [0],
      sha256: testHash, now: 0)
    _ = joiner.start(now: 0)
    _ = joiner.receive(.hello(versions: [1, 2, 3], name: "Alice", software: "t"), now: 0)
    #expect(joiner.phase == .awaitingWelcome)
    let outputs = joiner.receive(.welcome(version: welcomed, rules: .standard), now: 0)
    let text = "the host chose protocol version \(welcomed), which was not offered"
    #expect(outputs == [.send(.error(text: text)), .closed(.protocolViolation(text))])
    #expect(joiner.version != welcomed)
  }

  @Test func occupiedCellsAndMovesAfterTheEndAreViolations() throws {
    var pair = SessionPair()
    pair.startMatch()
    try pair.play(p(1, 1))
    var mover = pair.host.myTurn ? pair.joiner : pair.host
    let outputs = mover.receive(.move(ply: 1, position: p(1, 1)), now: 0)
    #expect(outputs.last == .closed(.protocolViolation("an illegal move: row 2, column 2 is already taken by X")))
    var finished = SessionPair()
    finished.startMatch()
    for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)] { try finished.play(cell) }
    let after = finished.host.receive(.move(ply: 5, position: p(2, 2)), now: 0)
    #expect(after.last == .closed(.protocolViolation("a move while no game is in progress")))
  }

  @Test func messagesBeforeHelloAreViolations() {
    var host = NetSession(
      configuration: .init(role: .host, name: "A", software: "t"), coinBytes: [0], sha256: testHash, now: 0)
    _ = host.start(now: 0)
    #expect(host.receive(.chat("hi"), now: 0).last == .closed(.protocolViolation("chat before hello")))
  }

  /// (That the codec skips unknown message types is MessageTests' unknownMessageTypesAreIgnoredAndUnknownFieldsSkipped.)
  @Test func heartbeatsKeepAnIdleMatchAliveForThirtySeconds() {
    var pair = SessionPair()
    pair.startMatch()
    for second in 1...30 {
      pair.now = Double(second)
      pair.deliver(fromHost: pair.host.tick(now: pair.now))
      pair.deliver(fromJoiner: pair.joiner.tick(now: pair.now))
    }
    #expect(!pair.host.isClosed && !pair.joiner.isClosed)
  }

  /// Mid-match the game is then kept for the peer to come back (ResumeTests); the grace period is the next
  /// deadline.
  @Test func aSilentPeerIsDeclaredGoneAfterTheLimit() {
    var pair = SessionPair()
    pair.startMatch()
    #expect(pair.host.tick(now: 3) == [.send(.heartbeat)])
    #expect(pair.host.tick(now: 9.9) == [.send(.heartbeat)])
    #expect(pair.host.tick(now: 10) == [.connectionLost(until: 130)])
    #expect(pair.host.nextDeadline == 130)
    #expect(pair.host.tick(now: 20).isEmpty)  // no heartbeats into a dead connection
  }

  /// Its pace and a flood: ChatPaceTests.
  @Test func chatArrives() throws {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromJoiner: try pair.joiner.chat("good luck", now: 0))
    #expect(pair.hostEvents.contains(.chat("good luck")))
  }

  @Test func aCheatingCoinRevealIsCaught() {
    var pair = SessionPair()
    let joinerHello = pair.joiner.start(now: 0)
    _ = pair.host.start(now: 0)
    _ = pair.joiner.receive(.hello(versions: ProtocolVersion.supported, name: "Alice", software: "t"), now: 0)
    _ = pair.host.receive(
      joinerHello.compactMap { if case .send(let m) = $0 { return m } else { return nil } }[0], now: 0)
    _ = pair.joiner.receive(.welcome(version: 2, rules: .standard), now: 0)
    _ = pair.joiner.receive(.coinCommit(digest: testHash(Array(repeating: 0, count: 32))), now: 0)
    let outputs = pair.joiner.receive(.coinReveal(secret: Array(repeating: 1, count: 32)), now: 0)
    #expect(outputs.last == .closed(.coinTossCheated))
  }

  @Test func byeEndsTheSessionWithTheReason() {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromHost: pair.host.quit(text: "Alice left", now: 0))
    #expect(pair.joiner.phase == .closed(.peerQuit("Alice left")))
    #expect(pair.host.phase == .closed(.localQuit))
  }

  @Test func leavingAGameInProgressLosesItOnBothSides() {
    var pair = SessionPair()
    pair.startMatch()
    #expect(pair.host.gameInProgress && pair.joiner.gameInProgress)
    pair.deliver(fromHost: pair.host.quit(text: "", now: 0))
    #expect(pair.host.score.losses == 1 && pair.host.score.wins == 0)
    #expect(pair.joiner.score.wins == 1 && pair.joiner.score.losses == 0)
  }

  @Test func leavingBetweenGamesScoresNothing() throws {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    #expect(!pair.host.gameInProgress && !pair.joiner.gameInProgress)
    let before = (pair.host.score, pair.joiner.score)
    pair.deliver(fromJoiner: pair.joiner.quit(text: "", now: 0))
    #expect(pair.host.score == before.0 && pair.joiner.score == before.1)
    #expect(pair.host.score.losses == 1 && pair.joiner.score.wins == 1, "only the resignation counts")
  }

  @Test func movesCrossingAResignationAreIgnored() throws {
    var pair = SessionPair()
    pair.startMatch()
    let moverIsHost = pair.host.myTurn
    var mover = moverIsHost ? pair.host : pair.joiner
    var other = moverIsHost ? pair.joiner : pair.host
    let move = try mover.play(p(0, 0), now: 0)
    _ = try other.resign(now: 0)
    let sent = move.compactMap { output -> Message? in if case .send(let message) = output { message } else { nil } }
    #expect(sent.contains { if case .move = $0 { true } else { false } }, "the move sent nothing: \(move)")
    for message in sent { #expect(other.receive(message, now: 0) == []) }
    #expect(!other.isClosed)
  }

  /// Rule 6 both ways: the resigning side ignores the move that ended the game, and the side that made it
  /// takes the resignation, so both screens show the same result and score. (A full board is a version-2 game's:
  /// in version 3 that board was a dead position one move earlier, rule 18.)
  @Test func aGameEndingMoveCrossingAResignationGivesOneResultOnBothSides() throws {
    for (finalCells, versions) in [
      ([p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)], ProtocolVersion.supported),  // a line
      ([p(0, 0), p(0, 1), p(0, 2), p(1, 1), p(1, 0), p(1, 2), p(2, 1), p(2, 0), p(2, 2)], [UInt16(2)]),  // a draw
    ] {
      var pair = SessionPair(joinerVersions: versions)
      pair.startMatch()
      for cell in finalCells.dropLast() { try pair.play(cell) }
      let moverIsHost = pair.host.myTurn
      var mover = moverIsHost ? pair.host : pair.joiner
      var other = moverIsHost ? pair.joiner : pair.host
      let move = try mover.play(try #require(finalCells.last), now: 0)
      let resignation = try other.resign(now: 0)
      for case .send(let message) in move { _ = other.receive(message, now: 0) }
      for case .send(let message) in resignation { _ = mover.receive(message, now: 0) }
      let otherMark = try #require(other.myMark)
      #expect(mover.lastResult == .resigned(loser: otherMark) && other.lastResult == .resigned(loser: otherMark))
      #expect(mover.score.wins == 1 && mover.score.draws == 0 && other.score.losses == 1)
    }
  }

  @Test func resignationsCrossingEachOtherMakeADraw() throws {
    var pair = SessionPair()
    pair.startMatch()
    let fromHost = try pair.host.resign(now: 0)
    let fromJoiner = try pair.joiner.resign(now: 0)
    for case .send(let message) in fromHost { _ = pair.joiner.receive(message, now: 0) }
    for case .send(let message) in fromJoiner { _ = pair.host.receive(message, now: 0) }
    #expect(pair.host.lastResult == .draw && pair.joiner.lastResult == .draw)
    #expect(pair.host.score.draws == 1 && pair.host.score.losses == 0 && pair.joiner.score.losses == 0)
    // A third resignation changes nothing.
    #expect(pair.host.receive(.resign, now: 0).isEmpty)
  }
}

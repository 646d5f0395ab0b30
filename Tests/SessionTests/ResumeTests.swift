import GameCore
import SessionTestSupport
import TestSupport
import Testing
import WireProtocol

@testable import Session

@Suite struct ResumeTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  @Test func aMoveLostInTheDropIsSentAgainAndAppliedOnce() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let hostFirst = link.host.myTurn
    if hostFirst { try link.hostPlays(p(0, 0)) } else { try link.joinerPlays(p(0, 0)) }
    link.settle()
    // The second move is played and lost with the connection.
    if hostFirst { try link.joinerPlays(p(1, 1)) } else { try link.hostPlays(p(1, 1)) }
    link.drop()
    #expect(link.host.link == .lost(since: 0) && link.joiner.link == .lost(since: 0))
    #expect(link.hostEvents.contains(.connectionLost(until: 120)))
    link.now = 5
    link.reconnect()
    link.settle()
    #expect(link.host.link == .up && link.joiner.link == .up)
    #expect(link.host.game?.history == [p(0, 0), p(1, 1)])
    #expect(link.joiner.game?.history == [p(0, 0), p(1, 1)])
    #expect(link.hostEvents.contains(.resumed(game: 1, ply: 2)))
    #expect(link.joinerEvents.contains(.resumed(game: 1, ply: 2)))
    #expect(link.hostSaw == link.joinerPlayed && link.joinerSaw == link.hostPlayed)
    #expect(link.closings.isEmpty)
    // Play goes on with the turn where it was.
    #expect(link.host.myTurn == hostFirst)
  }

  @Test func aMoveThatArrivedBeforeTheDropIsNotSentAgain() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    try link.moverPlays(p(2, 2))
    link.settle()
    link.drop()
    link.reconnect()
    var resent: [Message] = []
    while let message = link.toJoiner.first ?? link.toHost.first {
      resent.append(message)
      if !link.deliverToJoiner() { link.deliverToHost() }
    }
    #expect(!resent.contains { if case .move = $0 { true } else { false } })
    #expect(link.host.game?.history == [p(2, 2)] && link.joiner.game?.history == [p(2, 2)])
    #expect(link.hostSaw.count + link.joinerSaw.count == 1)
  }

  @Test func theMoverMayPlayWhileTheConnectionIsDownAndTheMoveArrivesOnResume() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let hostFirst = link.host.myTurn
    link.drop()
    if hostFirst { try link.hostPlays(p(0, 2)) } else { try link.joinerPlays(p(0, 2)) }
    link.reconnect()
    link.settle()
    #expect(link.host.game?.history == [p(0, 2)] && link.joiner.game?.history == [p(0, 2)])
    #expect(link.closings.isEmpty)
  }

  @Test func aRematchAcceptedInTheDropStartsTheNextGameOnBothSides() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2)] {
      try link.moverPlays(cell)
      link.settle()
    }
    #expect(link.host.phase == .betweenGames)
    link.send(fromHost: try link.host.offerRematch(now: 0))
    link.settle()
    link.send(fromJoiner: try link.joiner.offerRematch(now: 0))  // accepts: game 2 starts on the joiner only
    link.drop()
    #expect(link.joiner.gameNumber == 2 && link.host.gameNumber == 1)
    link.reconnect()
    link.settle()
    #expect(link.joiner.gameNumber == 2 && link.host.gameNumber == 2)
    #expect(link.host.phase == .playing && link.host.myMark == link.joiner.myMark?.opponent)
    #expect(link.closings.isEmpty)
  }

  @Test func aResignationLostInTheDropEndsTheGameOnBothSides() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.send(fromJoiner: try link.joiner.resign(now: 0))
    link.drop()
    link.reconnect()
    link.settle()
    #expect(link.host.phase == .betweenGames && link.joiner.phase == .betweenGames)
    #expect(link.host.score.wins == 1 && link.joiner.score.losses == 1)
  }

  @Test func aDropDuringTheResumeIsResumedAgainOnTheFirstClock() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    try link.moverPlays(p(1, 1))
    link.now = 1
    link.drop()
    link.now = 2
    link.reconnect()
    link.deliverToHost()  // the host answers, then the connection breaks again
    link.now = 3
    link.drop()
    #expect(link.host.link == .lost(since: 1) && link.joiner.link == .lost(since: 1))
    #expect(link.host.graceDeadline == 121)
    link.now = 4
    link.reconnect()
    link.settle()
    #expect(link.host.link == .up && link.joiner.link == .up)
    #expect(link.host.game?.history == [p(1, 1)] && link.joiner.game?.history == [p(1, 1)])
    #expect(link.closings.isEmpty)
  }

  @Test func aSecondReconnectionDuringAResumeStartsItOver() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    try link.moverPlays(p(0, 0))
    link.drop()
    link.reconnect()
    link.deliverToHost()  // the host has taken the first resume request and answered
    // That connection stalls; the joiner gives up on it and comes back on another one.
    link.toJoiner.removeAll()
    link.send(fromJoiner: link.joiner.connectionLost(now: 1))
    link.reconnect()
    #expect(link.hostEvents.filter { if case .connectionLost = $0 { true } else { false } }.count == 2)
    link.settle()
    #expect(link.host.link == .up && link.joiner.link == .up)
    #expect(link.host.game?.history == [p(0, 0)] && link.joiner.game?.history == [p(0, 0)])
    #expect(link.closings.isEmpty)
  }

  @Test func movesWaitWhileTheResumeIsConfirmed() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    link.reconnect()
    #expect(link.joiner.isResuming && !link.joiner.myTurn)
    #expect(throws: PlayError.reconnecting) { try link.joiner.play(p(0, 0), now: 0) }
    #expect(throws: ActionRefusal.reconnecting) { try link.joiner.chat("hello?", now: 0) }
    link.settle()
    #expect(!link.joiner.isResuming)
  }

  @Test func differentMovesOnTheTwoSidesAreCaughtByTheCheck() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let hostFirst = link.host.myTurn
    if hostFirst { try link.hostPlays(p(0, 0)) } else { try link.joinerPlays(p(0, 0)) }
    link.settle()
    link.drop()
    link.reconnect()
    // A broken peer reports the same counts and ply but another move list.
    let forged = Message.resumeCheck(game: 1, ply: 1, digest: Array(repeating: 7, count: 32))
    link.deliverToHost()  // the joiner's resume
    let outputs = link.joiner.receive(link.toJoiner.removeFirst(), now: 0)  // the host's resume
    link.send(fromJoiner: outputs)
    link.toJoiner.removeAll()
    let answer = link.host.receive(forged, now: 0)
    #expect(SessionPair.violation(answer, containing: "the resumed games differ"))
  }

  @Test func aResumeWhereNoGameWasBegunIsRefusedWithAReason() {
    var host = NetSession(
      configuration: .init(role: .host, name: "Alice", software: "test"), coinBytes: Array(repeating: 0, count: 32),
      sha256: testHash, now: 0)
    _ = host.start(now: 0)
    _ = host.receive(.hello(versions: ProtocolVersion.supported, name: "Bob", software: "test"), now: 0)
    let outputs = host.receive(
      .resume(received: 0, sent: 0, game: 1, ply: 0, digest: Array(repeating: 0, count: 32)), now: 0)
    #expect(outputs.contains(.send(.error(text: "a resume request, but there is no game to resume here"))))
    #expect(host.isClosed)
  }

  /// A restarted host (no kept game) hears a returning joiner's `resume` as its first message: not a violation,
  /// no error sent; the connection ends, and the joiner learns from this host's hello that the game is gone.
  @Test func aResumeAsTheFirstMessageToAHostWithoutTheGameEndsQuietly() {
    var host = NetSession(
      configuration: .init(role: .host, name: "Alice", software: "test"), coinBytes: Array(repeating: 0, count: 32),
      sha256: testHash, now: 0)
    _ = host.start(now: 0)
    let outputs = host.receive(
      .resume(received: 4, sent: 5, game: 1, ply: 3, digest: Array(repeating: 7, count: 32)), now: 0)
    #expect(outputs == [.closed(.resumeWithoutGame)], "\(outputs)")
    #expect(host.isClosed)
    #expect(!"\(SessionEnd.resumeWithoutGame)".contains("protocol"))
  }

  @Test func aResumeRequestOnALiveConnectionIsAViolation() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let outputs = link.host.receive(
      .resume(received: 0, sent: 0, game: 1, ply: 0, digest: Array(repeating: 0, count: 32)), now: 0)
    #expect(outputs.contains(.send(.error(text: "a resume request when none was expected"))))
  }

  @Test func countsThePeerCannotHaveAreViolations() {
    for (received, sent, expected) in [
      (UInt32(99), UInt32(5), "messages received when"), (UInt32(0), UInt32(0), "messages sent when"),
    ] {
      var link = SessionPair(hostCoin: 1, joinerCoin: 2)
      link.startMatch()
      link.drop()
      link.reconnect()
      link.toHost.removeAll()
      let outputs = link.host.receive(
        .resume(received: received, sent: sent, game: 1, ply: 0, digest: Array(repeating: 0, count: 32)), now: 0)
      #expect(SessionPair.violation(outputs, containing: expected), "\(received)/\(sent)")
    }
  }

  @Test func moreLostMessagesThanWereKeptCannotBeResumed() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2, resendLimit: 3)
    link.startMatch()
    link.drop()
    // Chat piles up while the connection is down: more than the three kept.
    for index in 0..<5 { link.send(fromHost: try link.host.chat("are you there? \(index)", now: 0)) }
    link.reconnect()
    link.settle()
    #expect(
      link.closings.contains {
        if case .protocolViolation(let text) = $0 { text.contains("only the last 3 were kept") } else { false }
      })
  }

  @Test func chatTypedWhileTheConnectionIsDownArrivesWithoutCountingAsAFlood() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    for index in 0..<10 { link.send(fromHost: try link.host.chat("still there? \(index)", now: Double(index))) }
    // The ones beyond what is kept are refused, saying so, instead of vanishing.
    for index in 10..<12 {
      #expect(throws: ActionRefusal.chatHeldWhileDisconnected(limit: 10)) {
        try link.host.chat("still there? \(index)", now: Double(index))
      }
    }
    link.reconnect()
    link.settle()
    #expect(link.closings.isEmpty, "\(link.closings)")
    let chats = link.joinerEvents.filter { if case .chat = $0 { true } else { false } }
    #expect(chats.count == 10)  // at most chatBurst kept while the connection is down
    #expect(link.host.link == .up)
  }

  @Test func aGoodbyeDuringTheResumeIsAGoodbye() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    link.reconnect()
    link.deliverToHost()  // the joiner's resume; the host answers
    link.send(fromJoiner: link.joiner.quit(text: "Bob left", now: 0))
    link.settle()
    #expect(link.host.phase == .closed(.peerQuit("Bob left")))
  }

  @Test func aResignationCrossingAWinningMoveInTheDropStillResumes() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let hostFirst = link.host.myTurn
    for cell in [p(0, 0), p(1, 0), p(0, 1), p(1, 1)] {
      try link.moverPlays(cell)
      link.settle()
    }
    link.drop()
    // The first player completes the top row while the other resigns: each applies only its own.
    if hostFirst {
      try link.hostPlays(p(0, 2))
      link.send(fromJoiner: try link.joiner.resign(now: 0))
    } else {
      try link.joinerPlays(p(0, 2))
      link.send(fromHost: try link.host.resign(now: 0))
    }
    link.reconnect()
    link.settle()
    #expect(link.closings.isEmpty, "\(link.closings)")
    #expect(link.host.phase == .betweenGames && link.joiner.phase == .betweenGames)
    #expect(link.host.link == .up && link.joiner.link == .up)
  }

  @Test func theClaimSurvivesAResumeThatFailsAfterTheGracePeriod() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    #expect(link.host.tick(now: 120) == [.graceExpired])
    link.now = 121
    link.reconnect()
    link.deliverToHost()
    link.now = 122
    link.drop()
    #expect(link.hostEvents.suffix(2) == [.connectionLost(until: 120), .graceExpired])
    let mark = try #require(link.host.myMark)
    #expect(try link.host.claim(now: 123).first == .gameEnded(.abandoned(loser: mark.opponent)))
  }

  @Test func aResumeThatNeverFinishesIsDroppedAfterTheSilenceLimit() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    link.now = 50
    link.reconnect()
    link.deliverToHost()
    link.toJoiner.removeAll()  // the host's answer never arrives; the joiner keeps sending heartbeats
    _ = link.host.receive(.heartbeat, now: 55)
    #expect(link.host.isResuming)
    #expect(link.host.tick(now: 59) == [.send(.heartbeat)])  // alive, but the resume is not finished
    #expect(link.host.tick(now: 60) == [.connectionLost(until: 120)])
    #expect(link.host.link == .lost(since: 0))
  }

  @Test func aResumeAnnouncingMoreThanCanBeKeptIsRefused() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    link.reconnect()
    link.toHost.removeAll()
    let outputs = link.host.receive(
      .resume(received: 0, sent: 5_000, game: 1, ply: 0, digest: Array(repeating: 0, count: 32)), now: 0)
    #expect(SessionPair.violation(outputs, containing: "messages to send again"))
  }

  @Test func aJoinerGreetedAfreshLearnsTheHostNoLongerHasTheGame() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.drop()
    link.reconnect()
    let outputs = link.joiner.receive(.hello(versions: [1], name: "Alice", software: "test"), now: 0)
    #expect(outputs == [.closed(.gameNoLongerHeld)])
  }

  @Test func afterTheGracePeriodTheRemainingPlayerMayClaimTheGame() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.now = 10
    link.drop()
    #expect(link.host.nextDeadline == 130)
    #expect(link.host.tick(now: 129).isEmpty)
    #expect(throws: ActionRefusal.nothingToClaim) { try link.host.claim(now: 129) }  // too early
    #expect(link.host.tick(now: 130) == [.graceExpired])
    #expect(link.host.nextDeadline == nil)
    let outputs = try link.host.claim(now: 131)
    let mark = try #require(link.host.myMark)
    #expect(
      outputs == [
        .gameEnded(.abandoned(loser: mark.opponent)), .closed(.peerDidNotReturn(seconds: 120, claimed: true)),
      ])
    #expect(link.host.score.wins == 1)
  }

  @Test func betweenGamesTheMatchEndsWhenTheGraceRunsOut() throws {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    link.send(fromJoiner: try link.joiner.resign(now: 0))
    link.settle()
    link.drop()
    #expect(link.joiner.tick(now: 120) == [.closed(.peerDidNotReturn(seconds: 120, claimed: false))])
  }

  @Test func silenceInTheMiddleOfAMatchKeepsTheGame() {
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    let outputs = link.joiner.tick(now: 10)
    #expect(outputs == [.connectionLost(until: 130)])
    #expect(link.joiner.link == .lost(since: 10))
    // Before the game began, silence still ends the session.
    var early = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "t"), coinBytes: Array(repeating: 0, count: 32),
      sha256: testHash, now: 0)
    _ = early.start(now: 0)
    #expect(early.tick(now: 10) == [.closed(.peerVanished(seconds: 10))])
    #expect(early.connectionLost(now: 10).isEmpty)
  }

  @Test func theResumeMessagesSurviveTheCodec() throws {
    for message in [
      Message.resume(received: 70_000, sent: 3, game: 2, ply: 5, digest: Array(0..<32)),
      .resumeCheck(game: 9, ply: 0, digest: Array(repeating: 0xAB, count: 32)),
    ] {
      var decoder = FrameDecoder()
      decoder.feed(message.bytes)
      let frame = try decoder.next()
      #expect(try Message.decode(try #require(frame)) == message)
    }
  }

  /// Random games over a connection that drops at random moments (sometimes again during the resume), with
  /// moves played while it is down and rematches: every move is applied exactly once on the
  /// other side, both sides always end up with the same game, and no drop ends the match.
  @Test(arguments: 0..<60) func randomDropsNeverLoseOrRepeatAMove(seed: Int) throws {
    var random = SeededGenerator(seed: UInt64(seed) &* 7919)
    var link = SessionPair(hostCoin: 1, joinerCoin: 2)
    link.startMatch()
    var steps = 0
    while steps < 4000
      && (link.host.gameNumber < 4 || link.host.phase != .betweenGames || link.joiner.phase != .betweenGames
        || !link.toHost.isEmpty || !link.toJoiner.isEmpty)
    {
      steps += 1
      link.now += 0.01
      let roll = random.below(100)
      if roll < 3 && link.connected {
        link.drop()
      } else if !link.connected && roll < 30 {
        link.reconnect()
      } else if roll < 40 {
        link.deliverToJoiner()
      } else if roll < 80 {
        link.deliverToHost()
      } else {
        let hostActs = random.chance(50)
        var session = hostActs ? link.host : link.joiner
        guard !session.isResuming, !session.isClosed else { continue }
        if session.phase == .betweenGames, session.gameNumber < 4, !session.rematchOfferedByMe {
          let outputs = try session.offerRematch(now: link.now)
          if hostActs {
            link.host = session
            link.send(fromHost: outputs)
          } else {
            link.joiner = session
            link.send(fromJoiner: outputs)
          }
        } else if session.myTurn, let game = session.game {
          let empty = game.board.emptyPositions
          let cell = empty[random.below(empty.count)]
          if hostActs { try link.hostPlays(cell) } else { try link.joinerPlays(cell) }
        }
      }
    }
    if !link.connected { link.reconnect() }
    link.settle()
    #expect(link.closings.isEmpty, "seed \(seed)")
    #expect(link.host.link == .up && link.joiner.link == .up, "seed \(seed)")
    #expect(link.host.gameNumber == link.joiner.gameNumber, "seed \(seed)")
    #expect(link.host.game?.history == link.joiner.game?.history, "seed \(seed)")
    #expect(link.hostSaw == link.joinerPlayed, "seed \(seed)")
    #expect(link.joinerSaw == link.hostPlayed, "seed \(seed)")
    #expect(link.host.score.wins == link.joiner.score.losses && link.host.score.draws == link.joiner.score.draws)
    let drops = link.hostEvents.filter { if case .connectionLost = $0 { true } else { false } }.count
    #expect(drops > 0, "seed \(seed) never dropped")
  }
}

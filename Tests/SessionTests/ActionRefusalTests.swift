import GameCore
import SessionTestSupport
import Testing

@testable import Session

/// Chat, resign, rematch and claim say why they cannot be done now, instead of doing nothing.
@Suite struct ActionRefusalTests {
  @Test func beforeTheMatchStartsEveryActionIsRefusedAsNotStarted() {
    var pair = SessionPair()
    #expect(throws: ActionRefusal.notStarted) { try pair.joiner.chat("hi", now: 0) }
    #expect(throws: ActionRefusal.noGameInProgress) { try pair.joiner.resign(now: 0) }
    #expect(throws: ActionRefusal.notStarted) { try pair.joiner.offerRematch(now: 0) }
    #expect(throws: ActionRefusal.nothingToClaim) { try pair.joiner.claim(now: 0) }
  }

  @Test func duringAGameARematchWaitsAndResigningWorks() throws {
    var pair = SessionPair()
    pair.startMatch()
    #expect(throws: ActionRefusal.gameInProgress) { try pair.host.offerRematch(now: 0) }
    #expect(throws: ActionRefusal.nothingToClaim) { try pair.host.claim(now: 0) }
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    #expect(pair.host.phase == .betweenGames)
    #expect(throws: ActionRefusal.noGameInProgress) { try pair.host.resign(now: 0) }
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    #expect(throws: ActionRefusal.rematchAlreadyOffered) { try pair.host.offerRematch(now: 0) }
  }

  @Test func afterTheMatchEveryActionIsRefusedAsOver() {
    var pair = SessionPair()
    pair.startMatch()
    pair.deliver(fromJoiner: pair.joiner.quit(text: "bye", now: 0))
    for session in [pair.host, pair.joiner] {
      var session = session
      #expect(throws: ActionRefusal.matchOver) { try session.chat("hi", now: 0) }
      #expect(throws: ActionRefusal.matchOver) { try session.resign(now: 0) }
      #expect(throws: ActionRefusal.matchOver) { try session.offerRematch(now: 0) }
      #expect(throws: ActionRefusal.matchOver) { try session.claim(now: 0) }
    }
  }

  @Test func whileTheConnectionIsDownChatIsKeptUpToItsLimitThenRefused() throws {
    var pair = SessionPair()
    pair.startMatch()
    _ = pair.host.connectionLost(now: 1)
    let limit = pair.host.configuration.chatBurst
    for index in 0..<limit { _ = try pair.host.chat("kept \(index)", now: 1) }
    #expect(throws: ActionRefusal.chatHeldWhileDisconnected(limit: limit)) {
      try pair.host.chat("one too many", now: 1)
    }
  }

  @Test func everyRefusalSaysWhyInWords() {
    let all: [ActionRefusal] = [
      .matchOver, .notStarted, .reconnecting, .chatHeldWhileDisconnected(limit: 10), .noGameInProgress,
      .gameInProgress, .rematchAlreadyOffered, .nothingToClaim, .notInThisVersion, .drawAlreadyOffered,
      .takebackAlreadyAsked, .nothingToAnswer, .nothingToTakeBack, .answerTakebackFirst, .tooLateToAbort,
    ]
    #expect(Set(all.map(\.description)).count == all.count)
    #expect(Set(all.map(\.code)).count == all.count && all.allSatisfy { $0.code.hasPrefix("session.") })
    #expect(all.allSatisfy { $0.description.count > 15 })
    let plays: [PlayError] = [.reconnecting, .awaitingTakebackAnswer, .outOfTime, .illegal(.gameOver)]
    #expect(Set(plays.map(\.code)).count == plays.count && Set(plays.map(\.description)).count == plays.count)
    #expect(PlayError.awaitingTakebackAnswer.description == "you asked for a takeback; wait for your opponent's answer")
    #expect(PlayError.outOfTime.description == "your time has run out")
  }
}

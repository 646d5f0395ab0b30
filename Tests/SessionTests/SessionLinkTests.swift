import GameCore
import Testing
import WireProtocol

@testable import Session

/// The connection's clock, its drops and the resume exchange, without a session around them.
@Suite struct SessionLinkTests {
  /// Heartbeats every 3 seconds, silence after 10, a grace period of 120 and room for 2 chats while down.
  static func link(now: Double = 0) -> SessionLink {
    SessionLink(.init(role: .host, name: "Alice", software: "test"), now: now)
  }
  static let held = HeldGame(game: 1, ply: 2, digest: [1, 2, 3])

  @Test func aQuietSideSendsAHeartbeatAndASilentPeerIsNoticed() {
    var link = Self.link()
    #expect(link.nextDeadline == 3)
    #expect(link.due(2.9) == nil)
    #expect(link.due(3) == .heartbeat)
    link.sent(3)
    #expect(link.nextDeadline == 6)
    link.sent(9)
    #expect(link.nextDeadline == 10)  // the peer's silence comes first
    #expect(link.due(10) == .peerSilent)
    link.received(10)
    #expect(link.due(10) == nil)
  }

  @Test func moreThanTwentyHeartbeatsWithinASecondAreAFlood() {
    var link = Self.link()
    let verdicts = (0...20).map { link.heartbeatArrived(Double($0) * 0.01) }
    #expect(verdicts == Array(repeating: true, count: 20) + [false])
  }

  /// While the connection is down only the end of the grace period is due, once.
  @Test func aDropKeepsTheGameForTheGracePeriod() {
    var link = Self.link()
    #expect(link.drop(5) == [.connectionLost(until: 125)])
    #expect(link.state == .lost(since: 5) && link.isLost && link.graceDeadline == 125)
    #expect(link.nextDeadline == 125)
    #expect(link.due(100) == nil)  // no heartbeat or silence on a dropped connection
    #expect(link.due(125) == .graceOver)
    #expect(link.graceExpired && link.nextDeadline == nil)
    #expect(link.due(200) == nil)
    // A resume that fails after the grace period says the game may still be claimed.
    _ = link.peerReconnected(200)
    #expect(link.drop(201) == [.connectionLost(until: 125), .graceExpired])
  }

  /// The exchange takes one round trip: one that does not finish within the silence limit is dropped, and the
  /// grace period still counts from the first drop.
  @Test func aResumeThatNeverFinishesIsDropped() {
    var link = Self.link()
    _ = link.drop(5)
    #expect(link.requestResume(20, holding: Self.held) != nil)
    link.sent(20)
    #expect(link.isResuming && link.nextDeadline == 23)
    link.sent(28)
    link.received(29)
    #expect(link.due(29.9) == nil)
    #expect(link.due(30) == .resumeTooSlow)
    #expect(link.drop(30) == [.connectionLost(until: 125)])
    #expect(link.state == .lost(since: 5))
  }

  @Test func bothSidesConfirmTheSameGameAndTheLinkIsUpAgain() throws {
    var joiner = Self.link()
    var host = Self.link()
    _ = joiner.drop(5)
    #expect(host.requestResume(6, holding: Self.held) == nil)  // the connection is up: nothing to resume
    let request = joiner.requestResume(6, holding: Self.held)
    #expect(request == .resume(received: 0, sent: 0, game: 1, ply: 2, digest: [1, 2, 3]))
    #expect(host.peerReconnected(6) == [.connectionLost(until: 126)])  // the old connection is dropped
    #expect(host.isResuming)
    // The host answers with its own counts; the joiner has already sent its own.
    let answer = try host.peerResumes(received: 0, sent: 0, holding: Self.held).get()
    #expect(answer == [.resume(received: 0, sent: 0, game: 1, ply: 2, digest: [1, 2, 3])])
    #expect(try joiner.peerResumes(received: 0, sent: 0, holding: Self.held).get() == [])
    #expect(joiner.caughtUp && host.caughtUp)
    #expect(joiner.check(holding: Self.held) == .resumeCheck(game: 1, ply: 2, digest: [1, 2, 3]))
    #expect(!joiner.caughtUp)
    #expect(try joiner.peerChecks(Self.held, holding: Self.held).get() == .resumed(game: 1, ply: 2))
    #expect(joiner.state == .up && !joiner.graceExpired)
  }

  @Test func resumeMessagesOutOfPlaceOrForAnotherGameAreRefusedWithTheirReason() {
    var link = Self.link()
    func text<T>(_ result: Result<T, ResumeMismatch>) -> String? {
      if case .failure(let mismatch) = result { return mismatch.text }
      return nil
    }
    let early = link.peerResumes(received: 0, sent: 0, holding: Self.held)
    #expect(text(early) == "a resume request when none was expected")
    #expect(text(link.peerChecks(Self.held, holding: Self.held)) == "a resume check when none was expected")
    _ = link.drop(0)
    _ = link.peerReconnected(1)
    _ = link.peerResumes(received: 0, sent: 0, holding: Self.held)
    _ = link.check(holding: Self.held)
    let otherMoves = HeldGame(game: 1, ply: 2, digest: [9])
    #expect(
      text(link.peerChecks(otherMoves, holding: Self.held))
        == "the resumed games differ: you hold game 1 at ply 2, this side game 1 at ply 2 with other moves")
    let otherGame = HeldGame(game: 2, ply: 0, digest: [1, 2, 3])
    #expect(
      text(link.peerChecks(otherGame, holding: Self.held))
        == "the resumed games differ: you hold game 2 at ply 0, this side game 1 at ply 2")
  }

  /// While the connection is down only so many chats are kept; once it is back the count starts over.
  @Test func chatsTypedWhileDownAreKeptUpToTheLimit() throws {
    var link = Self.link()
    #expect((0..<5).map { _ in link.chatTyped(limit: 2) } == Array(repeating: true, count: 5))
    _ = link.drop(0)
    #expect((0..<3).map { _ in link.chatTyped(limit: 2) } == [true, true, false])
    _ = link.peerReconnected(1)
    _ = try link.peerResumes(received: 0, sent: 0, holding: Self.held).get()
    _ = link.check(holding: Self.held)
    _ = try link.peerChecks(Self.held, holding: Self.held).get()
    _ = link.drop(2)
    let kept = (0..<3).map { _ in link.chatTyped(limit: 2) }
    #expect(kept == [true, true, false])
  }

  /// During a resume a new message waits for the confirmation; a goodbye or an error report never waits.
  @Test func aGoodbyeOrAnErrorReportMayArriveAtAnyMomentOfAResume() throws {
    var link = Self.link()
    _ = link.drop(0)
    _ = link.peerReconnected(1)
    _ = try link.peerResumes(received: 0, sent: 0, holding: Self.held).get()
    let move = Message.move(ply: 0, position: Position(row: 0, column: 0))
    #expect(link.arrived(move, 2) == "a new move before the resume was confirmed")
    #expect(link.arrived(.bye(.quit, text: ""), 2) == nil)
    #expect(link.arrived(.error(text: "broken"), 2) == nil)
    #expect(link.arrived(.heartbeat, 2) == nil)
  }
}

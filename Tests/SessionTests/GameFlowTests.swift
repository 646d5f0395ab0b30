import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// Version 3's draws, takebacks and abort (PROTOCOL.md rules 16 and 17), the dead position (rule 18), the terms
/// in the host's hello, and a version-2 peer that has none of it.
@Suite struct GameFlowTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// Host X on 15×15 (equal coin bytes), no clock unless given.
  static func match(_ control: TimeControl = .none, joinerVersions: [UInt16] = ProtocolVersion.supported)
    -> SessionPair
  {
    var pair = SessionPair(
      hostCoin: 1, joinerCoin: 1, rules: try! Rules(size: 15, k: 5), timeControl: control,
      joinerVersions: joinerVersions)
    pair.startMatch()
    return pair
  }

  @Test func aDrawByAgreement() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    pair.deliver(fromJoiner: try pair.joiner.offerDraw(now: 0))
    #expect(pair.hostEvents.last == .gameFlow(.drawOffered) && pair.host.drawOfferedByPeer)
    #expect(pair.joiner.drawOfferedByMe && !pair.host.drawOfferedByMe)
    pair.deliver(fromHost: try pair.host.offerDraw(now: 0))  // accepts
    #expect(pair.hostEvents.contains(.send(.drawAccept)))
    #expect(pair.host.lastResult == .drawAgreed && pair.joiner.lastResult == .drawAgreed)
    #expect(pair.host.score.draws == 1 && pair.joiner.score.draws == 1)
  }

  @Test func crossedOffersAreADrawAndADeclineIsToldToTheOfferer() throws {
    var pair = Self.match()
    let fromHost = try pair.host.offerDraw(now: 0)
    let fromJoiner = try pair.joiner.offerDraw(now: 0)
    pair.send(fromHost: fromHost)
    pair.send(fromJoiner: fromJoiner)
    pair.settle()
    #expect(pair.host.lastResult == .drawAgreed && pair.joiner.lastResult == .drawAgreed)
    #expect(!pair.hostEvents.contains(.send(.drawAccept)) && pair.closings.isEmpty)

    var declined = Self.match()
    declined.deliver(fromHost: try declined.host.offerDraw(now: 0))
    declined.deliver(fromJoiner: try declined.joiner.declineDraw(now: 0))
    #expect(declined.hostEvents.last == .gameFlow(.drawDeclined) && declined.host.gameInProgress)
  }

  /// At most one offer per side per own move: a second is refused until this player has moved again.
  @Test func oneDrawOfferPerOwnMove() throws {
    var pair = Self.match()
    pair.deliver(fromHost: try pair.host.offerDraw(now: 0))
    #expect(throws: ActionRefusal.drawAlreadyOffered) { try pair.host.offerDraw(now: 0) }
    pair.deliver(fromJoiner: try pair.joiner.declineDraw(now: 0))
    #expect(throws: ActionRefusal.drawAlreadyOffered) { try pair.host.offerDraw(now: 0) }
    try pair.play(p(7, 7))
    try pair.play(p(7, 8))
    pair.deliver(fromHost: try pair.host.offerDraw(now: 0))
    #expect(pair.host.gameInProgress && pair.hostEvents.filter { $0 == .send(.drawOffer) }.count == 2)
    #expect(throws: ActionRefusal.nothingToAnswer) { try pair.host.declineDraw(now: 0) }
  }

  /// A peer repeating offers beyond the limit changes nothing and, past the flood limit, is closed: counted as
  /// the repeated rematch offers are (rule 8).
  @Test func anOfferFloodCountsAsChangingNothing() throws {
    var pair = Self.match()
    var outputs: [SessionOutput] = []
    for index in 0...PeerPaceLimit.changedNothing + 1 {
      outputs = pair.host.receive(.drawOffer, now: 0)
      if index == 0 { #expect(outputs == [.gameFlow(.drawOffered)]) }
      if index > 0 && index < PeerPaceLimit.changedNothing { #expect(outputs.isEmpty, "offer \(index)") }
    }
    #expect(SessionPair.violation(outputs, containing: "changed nothing"))
  }

  @Test func aTakebackOfOnePlyAndOfTwo() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))  // the host's move: the joiner to move
    pair.deliver(fromHost: try pair.host.requestTakeback(now: 0))
    #expect(pair.joinerEvents.last == .gameFlow(.takebackRequested(ply: 0)))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: 0))
    #expect(pair.host.game?.history == [] && pair.joiner.game?.history == [])
    #expect(pair.host.myTurn && pair.hostEvents.last == .gameFlow(.tookBack(ply: 0)))
    try pair.play(p(3, 3))
    try pair.play(p(4, 4))  // the joiner replied: two plies back to the host's turn
    pair.deliver(fromHost: try pair.host.requestTakeback(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: 0))
    #expect(pair.host.game?.history == [] && pair.joiner.game?.history == [] && pair.host.myTurn)
    #expect(pair.closings.isEmpty)
  }

  @Test func aDeclinedTakebackAndWhatWaitsForIt() throws {
    var pair = Self.match()
    #expect(throws: ActionRefusal.nothingToTakeBack) { try pair.host.requestTakeback(now: 0) }
    try pair.play(p(7, 7))
    try pair.play(p(7, 8))
    pair.send(fromHost: try pair.host.requestTakeback(now: 0))
    #expect(pair.host.takebackRequestedByMe == 0)
    // The requester waits for the answer before it moves, and asks once per move of its own.
    #expect(throws: PlayError.awaitingTakebackAnswer) { try pair.host.play(p(0, 0), now: 0) }
    #expect(throws: ActionRefusal.takebackAlreadyAsked) { try pair.host.requestTakeback(now: 0) }
    pair.settle()
    #expect(throws: ActionRefusal.answerTakebackFirst) { try pair.joiner.requestTakeback(now: 0) }
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: false, now: 0))
    #expect(pair.hostEvents.last == .gameFlow(.takebackDeclined))
    #expect(pair.host.game?.history.count == 2)
    try pair.play(p(0, 0))
    #expect(pair.closings.isEmpty)
  }

  /// The opponent moved while the request was on its way: the ply stays the requester's turn, two back.
  @Test func aTakebackRequestCrossingTheReplyStillGoesBackToTheRequestersTurn() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    let request = try pair.host.requestTakeback(now: 0)  // back to ply 0
    try pair.joinerPlays(p(7, 8))  // crosses it
    pair.send(fromHost: request)
    pair.settle()
    #expect(pair.joinerEvents.contains(.gameFlow(.takebackRequested(ply: 0))))
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: 0))
    #expect(pair.host.game?.history == [] && pair.joiner.game?.history == [] && pair.closings.isEmpty)
  }

  @Test func crossedTakebackRequestsCancel() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    try pair.play(p(7, 8))
    let fromHost = try pair.host.requestTakeback(now: 0)
    let fromJoiner = try pair.joiner.requestTakeback(now: 0)
    pair.send(fromHost: fromHost)
    pair.send(fromJoiner: fromJoiner)
    pair.settle()
    #expect(pair.hostEvents.contains(.gameFlow(.takebackDeclined)))
    #expect(pair.joinerEvents.contains(.gameFlow(.takebackDeclined)))
    #expect(pair.host.game?.history.count == 2 && pair.closings.isEmpty)
    #expect(pair.host.takebackRequestedByPeer == nil && pair.joiner.takebackRequestedByPeer == nil)
  }

  @Test(arguments: [
    (Message.takebackRequest(ply: 1), "not the requester's own move"),
    (.takebackRequest(ply: 5), "not the requester's own move"),
    (.takebackAccept(ply: 0), "which was not asked for"),
    (.drawAccept, "when no draw was offered"),
    (.flagAnswer(ply: 2, disputed: true, thinking: 0), "a flag claim that was not made"),
    (.flagClaim(ply: 2, timeLeft: 1_000, observed: 5_000), "a flag claim in an untimed game"),
    (.abort(seen: 1), "an abort after 1 moves when 0 were made"),
  ])
  func flowMessagesOutOfPlaceAreViolations(message: Message, phrase: String) throws {
    var pair = Self.match()
    let outputs = pair.joiner.receive(message, now: 0)
    #expect(SessionPair.violation(outputs, containing: phrase), "\(outputs)")
  }

  /// A takeback may only go back to the requester's own move of the last two.
  @Test(arguments: [(UInt16(1), "the receiver's own move"), (0, "three moves back and more"), (4, "ahead")])
  func aTakebackToAnyOtherPlyIsAViolation(ply: UInt16, what: String) throws {
    var pair = Self.match()
    for cell in [p(7, 7), p(7, 8), p(8, 7), p(8, 8)] { try pair.play(cell) }
    let outputs = pair.joiner.receive(.takebackRequest(ply: ply), now: 0)
    #expect(SessionPair.violation(outputs, containing: "not the requester's own move"), "\(what): \(outputs)")
    var fine = Self.match()
    for cell in [p(7, 7), p(7, 8), p(8, 7), p(8, 8)] { try fine.play(cell) }
    #expect(fine.joiner.receive(.takebackRequest(ply: 2), now: 0) == [.gameFlow(.takebackRequested(ply: 2))])
  }

  @Test func anAbortBeforeEachSideMovedIsVoidAndKeepsTheFirstPlayer() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    pair.deliver(fromJoiner: try pair.joiner.abort(now: 0))
    #expect(pair.host.lastResult == .aborted && pair.joiner.lastResult == .aborted)
    #expect(pair.host.score == NetSession.Score() && pair.joiner.score == NetSession.Score())
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    #expect(pair.host.gameNumber == 2 && pair.host.myMark == .x && pair.joiner.myMark == .o)
    try pair.play(p(7, 7))
    try pair.play(p(7, 8))
    #expect(throws: ActionRefusal.tooLateToAbort) { try pair.host.abort(now: 0) }
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    #expect(pair.host.myMark == .o, "after a game played out the first player alternates again")
  }

  /// Once both sides have moved, a takeback back under two moves does not make the game abortable again (rule 17,
  /// as lichess): neither side may abort, and an abort from the peer is a violation. A takeback before the second
  /// side moved leaves the abort open.
  @Test func noAbortAfterATakebackOnceBothSidesMoved() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    try pair.play(p(7, 8))
    pair.deliver(fromHost: try pair.host.requestTakeback(now: 0))  // back to the host's turn: ply 0
    pair.deliver(fromJoiner: try pair.joiner.answerTakeback(accept: true, now: 0))
    #expect(pair.host.game?.history.isEmpty == true && pair.joiner.game?.history.isEmpty == true)
    #expect(!pair.host.mayAbort && !pair.joiner.mayAbort)
    #expect(throws: ActionRefusal.tooLateToAbort) { try pair.host.abort(now: 0) }
    #expect(throws: ActionRefusal.tooLateToAbort) { try pair.joiner.abort(now: 0) }
    let outputs = pair.joiner.receive(.abort(seen: 0), now: 0)
    #expect(SessionPair.violation(outputs, containing: "an abort after both sides had moved"), "\(outputs)")

    var early = Self.match()
    try early.play(p(7, 7))
    early.deliver(fromHost: try early.host.requestTakeback(now: 0))  // its own move, before the joiner moved
    early.deliver(fromJoiner: try early.joiner.answerTakeback(accept: true, now: 0))
    #expect(early.host.mayAbort && early.joiner.mayAbort)
    early.deliver(fromJoiner: try early.joiner.abort(now: 0))
    #expect(early.host.lastResult == .aborted && early.joiner.lastResult == .aborted && early.closings.isEmpty)
  }

  /// An abort that crosses the second move still stands: the move is void.
  @Test func anAbortCrossingTheSecondMoveStands() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    let abort = try pair.host.abort(now: 0)
    try pair.joinerPlays(p(7, 8))
    pair.send(fromHost: abort)
    pair.settle()
    #expect(pair.host.lastResult == .aborted && pair.joiner.lastResult == .aborted && pair.closings.isEmpty)
  }

  /// Rule 18 in version 3: a blocked 3×3 ends as a draw with a cell left; in version 2 it plays on.
  @Test(arguments: [ProtocolVersion.supported, [UInt16(2)]])
  func aDeadPositionIsADrawInVersionThreeOnly(joinerVersions: [UInt16]) throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, joinerVersions: joinerVersions)
    pair.startMatch()
    for cell in [p(0, 0), p(0, 1), p(0, 2), p(1, 1), p(1, 0), p(1, 2), p(2, 1), p(2, 0)] { try pair.play(cell) }
    if joinerVersions.contains(3) {
      #expect(pair.host.lastResult == .deadPosition && pair.joiner.lastResult == .deadPosition)
      #expect(pair.host.score.draws == 1 && pair.host.game?.history.count == 8)
    } else {
      #expect(pair.host.gameInProgress && pair.joiner.gameInProgress)
    }
  }

  /// A version-2 peer: the game is untimed whatever the host's terms say, and has no offers.
  @Test func aVersionTwoPeerPlaysUntimedWithoutOffers() throws {
    var pair = Self.match(.fischer(base: 60_000, increment: 0), joinerVersions: [2])
    #expect(pair.host.version == 2 && pair.joiner.version == 2)
    #expect(pair.host.timeControl == .none && pair.host.clock == nil && pair.joiner.clock == nil)
    try pair.play(p(7, 7))
    #expect(pair.hostEvents.contains(.send(.move(ply: 0, position: p(7, 7)))))
    #expect(throws: ActionRefusal.notInThisVersion) { try pair.host.offerDraw(now: 0) }
    #expect(throws: ActionRefusal.notInThisVersion) { try pair.joiner.requestTakeback(now: 0) }
    #expect(throws: ActionRefusal.notInThisVersion) { try pair.host.abort(now: 0) }
    let outputs = pair.host.receive(.drawOffer, now: 0)
    #expect(SessionPair.violation(outputs, containing: "a draw offer in protocol version 2"))
  }

  /// The host's terms reach the joiner in the host's hello, before anything is decided.
  @Test func theTermsArriveWithTheHostsHello() throws {
    var pair = SessionPair(rules: try Rules(size: 15, k: 5), timeControl: .fischer(base: 300_000, increment: 3_000))
    pair.send(fromHost: pair.host.start(now: 0))
    pair.deliverToJoiner()
    #expect(
      pair.joiner.hostTerms
        == HostTerms(rules: try Rules(size: 15, k: 5), timeControl: .fischer(base: 300_000, increment: 3_000)))
    #expect(pair.joiner.phase == .awaitingWelcome)
    pair.send(fromJoiner: pair.joiner.start(now: 0))
    pair.settle()
    pair.deliver(fromHost: pair.host.accept(now: 0))
    #expect(pair.joiner.timeControl == .fischer(base: 300_000, increment: 3_000) && pair.joiner.clock != nil)
  }

  /// A joiner whose player declines the terms says so and leaves; the host ends with its own status.
  @Test func aJoinerDecliningTheTermsLeavesWithANamedStatus() throws {
    var pair = SessionPair(timeControl: .perMove(20_000))
    pair.send(fromHost: pair.host.start(now: 0))
    pair.deliverToJoiner()
    pair.deliver(fromJoiner: pair.joiner.declineTerms(now: 0))
    #expect(pair.joinerEvents.contains(.send(.bye(.termsDeclined, text: "declined the terms"))))
    #expect(pair.joiner.phase == .closed(.termsDeclined) && pair.host.phase == .closed(.peerDeclinedTerms))
    #expect(SessionEnd.peerDeclinedTerms.description == "Your opponent declined your terms.")
  }

  @Test func aWelcomeWithOtherRulesThanTheTermsIsAViolation() throws {
    var pair = SessionPair(rules: .standard)
    pair.send(fromHost: pair.host.start(now: 0))
    pair.deliverToJoiner()
    _ = pair.joiner.start(now: 0)
    let outputs = pair.joiner.receive(.welcome(version: 3, rules: try Rules(size: 5, k: 4)), now: 0)
    #expect(SessionPair.violation(outputs, containing: "differ from the terms of the host's hello"))
  }
}

/// The flood limit of messages that changed nothing (PeerPace), for the tests.
enum PeerPaceLimit {
  static let changedNothing = 50
}

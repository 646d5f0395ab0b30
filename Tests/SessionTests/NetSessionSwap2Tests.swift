import GameCore
import SessionTestSupport
import Testing
import UntrustedText
import WireProtocol

@testable import Session

/// A network match whose host offers the Swap2 opening (PROTOCOL.md, "Version 4: rule variants and openings"):
/// `NetSession` holds the opening while it runs, sends this player's stones and choices, checks the peer's (every
/// violation named by why), goes on with the chosen colours, resumes mid-opening and opens every rematch so.
@Suite struct NetSessionSwap2Tests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let rules = try! Rules(size: 15, k: 5)
  static let three = [Position(row: 7, column: 7), Position(row: 7, column: 8), Position(row: 8, column: 8)]

  /// Host X in game 1 (equal coin bytes): the first (tentative) player.
  static func match(joinerVersions: [UInt16] = ProtocolVersion.supported) -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, joinerVersions: joinerVersions, opening: .swap2)
    pair.startMatch()
    return pair
  }

  /// The host places the three stones; all delivered.
  static func threeStones(_ pair: inout SessionPair) throws {
    for cell in three { try pair.hostPlays(cell) }
    pair.settle()
  }

  static func choose(_ choice: Swap2.Choice, joiner: Bool, _ pair: inout SessionPair) throws {
    if joiner {
      pair.deliver(fromJoiner: try pair.joiner.choose(choice, now: pair.now))
    } else {
      pair.deliver(fromHost: try pair.host.choose(choice, now: pair.now))
    }
  }

  @Test func bothSidesOpenWithSwap2TheHostPlacingFirst() throws {
    let pair = Self.match()
    #expect(pair.joiner.hostTerms?.opening == .swap2 && pair.joiner.opening == .swap2)
    #expect(pair.host.inOpening && pair.joiner.inOpening)
    #expect(pair.host.swap2?.me == .first && pair.joiner.swap2?.me == .second)
    #expect(pair.host.myTurn && !pair.joiner.myTurn)
    #expect(pair.host.clock == nil && pair.host.mayAbort == false)
  }

  @Test func theSecondTakesBlackAndTheFirstMovesAsWhite() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    #expect(pair.joinerSaw == Self.three && pair.joiner.game?.history == Self.three)
    #expect(pair.joiner.myTurn && pair.joiner.openingChoices == [.black, .white, .placeTwo])
    #expect(pair.host.openingChoices.isEmpty)
    try Self.choose(.black, joiner: true, &pair)
    #expect(pair.joiner.myMark == .x && pair.host.myMark == .o)
    #expect(pair.hostEvents.contains(.peerChose(.black)) && pair.hostEvents.contains(.coloursSettled(myMark: .o)))
    #expect(pair.joinerEvents.contains(.coloursSettled(myMark: .x)))
    #expect(!pair.host.inOpening && pair.host.myTurn && !pair.joiner.myTurn, "white moves with three stones down")
    try pair.play(p(6, 6))
    try pair.play(p(0, 0))
    #expect(pair.joiner.game?.history.count == 5 && pair.host.game == pair.joiner.game && pair.closings.isEmpty)
    #expect(pair.host.swap2?.opening.log.count == 4, "the opening is kept as it settled the colours")
  }

  @Test func theSecondTakesWhiteAndMovesAtOnce() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    try Self.choose(.white, joiner: true, &pair)
    #expect(pair.joiner.myMark == .o && pair.host.myMark == .x && pair.joiner.myTurn)
    try pair.play(p(6, 6))
    #expect(pair.hostSaw == [p(6, 6)] && pair.host.myTurn && pair.closings.isEmpty)
  }

  @Test func placeTwoLeavesTheChoiceToTheFirstAndAWinFollows() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    try Self.choose(.placeTwo, joiner: true, &pair)
    #expect(pair.joiner.myTurn && pair.joiner.inOpening)
    for cell in [p(6, 6), p(9, 9)] { try pair.joinerPlays(cell) }
    pair.settle()
    #expect(pair.host.myTurn && pair.host.openingChoices == [.black, .white])
    try Self.choose(.white, joiner: false, &pair)
    #expect(pair.host.myMark == .o && pair.joiner.myMark == .x && pair.host.myTurn)
    // O (the host) makes five down column 3 while X plays along row 0.
    for row in 0..<4 {
      try pair.play(p(row, 3))
      try pair.play(p(14, row))
    }
    try pair.play(p(4, 3))
    #expect(pair.host.lastResult == .line(winner: .o) && pair.joiner.lastResult == .line(winner: .o))
    #expect(pair.host.score.wins == 1 && pair.joiner.score.losses == 1)
  }

  @Test func aRematchOpensWithSwap2AgainTheOtherPlacingFirst() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    try Self.choose(.black, joiner: true, &pair)
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    #expect(pair.host.gameNumber == 2 && pair.host.inOpening && pair.joiner.inOpening)
    #expect(pair.joiner.swap2?.me == .first && pair.joiner.myTurn && pair.host.game?.history.isEmpty == true)
  }

  // MARK: - This player's own actions refused, nothing sent

  @Test func ownStonesAndChoicesOutOfStepAreRefusedWithTheirReason() throws {
    var pair = Self.match()
    #expect(throws: PlayError.opening(.notYourTurn(expected: .first))) { try pair.joiner.play(p(7, 7), now: 0) }
    #expect(throws: PlayError.opening(.stoneDue(.placeThree))) { try pair.host.choose(.black, now: 0) }
    try Self.threeStones(&pair)
    #expect(throws: PlayError.opening(.choiceDue(.secondChooses))) { try pair.joiner.play(p(0, 0), now: 0) }
    #expect(throws: PlayError.opening(.notYourTurn(expected: .second))) { try pair.host.choose(.white, now: 0) }
    #expect(throws: ActionRefusal.duringOpening) { try pair.joiner.offerDraw(now: 0) }
    #expect(throws: ActionRefusal.duringOpening) { try pair.joiner.abort(now: 0) }
    try Self.choose(.placeTwo, joiner: true, &pair)
    try pair.joinerPlays(p(6, 6))
    try pair.joinerPlays(p(9, 9))
    pair.settle()
    #expect(throws: PlayError.opening(.choiceNotOffered(.placeTwo, .firstChooses))) {
      try pair.host.choose(.placeTwo, now: 0)
    }
    #expect(pair.toJoiner.isEmpty && pair.toHost.isEmpty && pair.closings.isEmpty)
  }

  @Test func aChoiceInAGameWithoutAnOpeningIsRefused() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.rules)
    pair.startMatch()
    #expect(pair.host.swap2 == nil && !pair.host.inOpening)
    #expect(throws: PlayError.noOpeningChoice) { try pair.host.choose(.black, now: 0) }
  }

  @Test func noTakebackReachesIntoTheOpening() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    try Self.choose(.black, joiner: true, &pair)
    // White (the host) has no move of its own yet: the opening's stones are not its to take back.
    #expect(throws: ActionRefusal.nothingToTakeBack) { try pair.host.requestTakeback(now: 0) }
    try pair.play(p(0, 0))
    pair.deliver(fromHost: try pair.host.requestTakeback(now: 0))
    #expect(pair.joiner.takebackRequestedByPeer == 3)
  }

  // MARK: - The peer's violations, each named

  /// The joiner receives `message` from the host where the opening stands after `setUp`: the violation's text.
  private func violation(_ message: Message, host: Bool = false, after setUp: (inout SessionPair) throws -> Void)
    rethrows -> String?
  {
    var pair = Self.match()
    try setUp(&pair)
    let outputs = host ? pair.host.receive(message, now: 0) : pair.joiner.receive(message, now: 0)
    return outputs.lazy.compactMap { if case .closed(.protocolViolation(let text)) = $0 { text } else { nil } }.first
  }

  @Test func theSecondPlacingAmongTheThreeIsAViolation() throws {
    #expect(
      violation(.move(ply: 0, position: p(7, 7)), host: true) { _ in }
        == "a move the Swap2 opening refuses: it is the first player's turn in the opening")
  }

  @Test func aStoneOnATakenCellIsAViolation() throws {
    let text = try violation(.move(ply: 1, position: p(7, 7))) { pair in
      try pair.hostPlays(Self.three[0])
      pair.settle()
    }
    #expect(text == "a move the Swap2 opening refuses: row 8, column 8 is already taken by X")
  }

  @Test func aStoneWhereAChoiceIsDueIsAViolation() throws {
    let text = try violation(.move(ply: 3, position: p(0, 0)), host: true) { try Self.threeStones(&$0) }
    #expect(text?.hasPrefix("a move the Swap2 opening refuses: a choice is due, not a stone") == true)
  }

  @Test func aChoiceWhileStonesAreDueIsAViolation() throws {
    let text = violation(.openingChoice(ply: 0, choice: .black), host: true) { _ in }
    #expect(text?.hasPrefix("an opening choice the Swap2 opening refuses: a stone is due, not a choice") == true)
  }

  @Test func theFirstChoosingForTheSecondIsAViolation() throws {
    let text = try violation(.openingChoice(ply: 3, choice: .black)) { try Self.threeStones(&$0) }
    #expect(text == "an opening choice the Swap2 opening refuses: it is the second player's turn in the opening")
  }

  @Test func aChoiceNotOfferedIsAViolation() throws {
    let text = try violation(.openingChoice(ply: 5, choice: .placeTwo)) { pair in
      try Self.threeStones(&pair)
      try Self.choose(.placeTwo, joiner: true, &pair)
      try pair.joinerPlays(self.p(6, 6))
      try pair.joinerPlays(self.p(9, 9))
      pair.settle()
    }
    #expect(
      text?.hasPrefix("an opening choice the Swap2 opening refuses: \"place 2 more stones\" is not a choice") == true)
  }

  @Test func aPlyThatIsNotTheStonesOnTheBoardIsAViolation() throws {
    let text = try violation(.move(ply: 0, position: p(0, 0))) { pair in
      try pair.hostPlays(Self.three[0])
      pair.settle()
    }
    #expect(text == "a move for ply 0 when 1 stones are on the board (repeated or out of order)")
  }

  @Test func aChoiceOnceTheColoursAreSettledIsUnexpected() throws {
    let text = try violation(.openingChoice(ply: 3, choice: .white), host: true) { pair in
      try Self.threeStones(&pair)
      try Self.choose(.black, joiner: true, &pair)
    }
    #expect(text == "an unexpected opening choice (during a game)")
  }

  @Test func aDrawOfferDuringTheOpeningIsAViolation() throws {
    #expect(violation(.drawOffer) { _ in } == "a draw offer during the Swap2 opening")
    #expect(violation(.abort(seen: 0)) { _ in } == "an abort during the Swap2 opening")
  }

  @Test func aTakebackIntoTheOpeningIsAViolation() throws {
    let text = try violation(.takebackRequest(ply: 2), host: true) { pair in
      try Self.threeStones(&pair)
      try Self.choose(.white, joiner: true, &pair)
      try pair.play(self.p(0, 0))
    }
    #expect(text == "a takeback request to ply 2, into the Swap2 opening's 3 stones")
  }

  // MARK: - Older peers, clocks, the journal

  /// A version-3 program skips field 7 (an unknown tag), says its own hello, and is refused by name.
  @Test func aVersionThreeJoinerIsRefusedNamingTheOpening() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.rules, joinerVersions: [3, 2], opening: .swap2)
    guard case .send(.hello(_, _, _, let terms?, _, _)) = pair.host.start(now: 0).first else {
      Issue.record("no hello with terms")
      return
    }
    #expect(terms.opening == .swap2 && terms.minimumVersion == 4)
    let outputs = pair.host.receive(.hello(versions: [3, 2], name: "Bob", software: "older"), now: 0)
    let text =
      "this host plays the swap2 opening, which needs protocol version 4; you speak 2-3: update tictactoe to join"
    #expect(outputs.contains(.send(.refuse(.versionMismatch, text: text))))
    #expect(
      pair.host.phase == .closed(.versionMismatch(ours: [4, 3, 2], theirs: [3, 2], needs: "the swap2 opening")))
  }

  // MARK: - A drop mid-opening

  @Test func aStoneLostInADropIsSentAgainAndTheOpeningGoesOn() throws {
    var pair = Self.match()
    try pair.hostPlays(Self.three[0])
    pair.settle()
    try pair.hostPlays(Self.three[1])
    pair.drop()  // the second stone is lost with the connection
    #expect(pair.joiner.game?.history.count == 1 && pair.joiner.inOpening)
    pair.now = 5
    pair.reconnect()
    pair.settle()
    #expect(pair.host.link == .up && pair.joiner.link == .up && pair.closings.isEmpty)
    #expect(pair.joinerEvents.contains(.resumed(game: 1, ply: 2)))
    #expect(pair.joiner.game?.history == Array(Self.three.prefix(2)) && pair.host.myTurn)
    try pair.hostPlays(Self.three[2])
    pair.settle()
    #expect(pair.joiner.openingChoices == [.black, .white, .placeTwo])
  }

  @Test func aChoiceLostInADropIsSentAgainAndSettlesBothSides() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    try Self.choose(.placeTwo, joiner: true, &pair)
    try pair.joinerPlays(p(6, 6))
    try pair.joinerPlays(p(9, 9))
    pair.settle()
    pair.send(fromHost: try pair.host.choose(.black, now: 0))
    pair.drop()  // the choice is lost with the connection: the host plays X, the joiner still waits for it
    #expect(pair.host.myMark == .x && pair.joiner.inOpening)
    pair.now = 5
    pair.reconnect()
    pair.settle()
    #expect(pair.closings.isEmpty && pair.joiner.myMark == .o && !pair.joiner.inOpening)
    #expect(pair.joinerEvents.contains(.resumed(game: 1, ply: 5)) && pair.joiner.myTurn)
    #expect(pair.host.swap2?.opening.log == pair.joiner.swap2?.opening.log)
  }

  /// The digest both sides compare on a resume counts the opening's choices: the same stones with a choice
  /// missing on one side are not the same game.
  @Test func theResumeDigestCountsTheChoices() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    let before = pair.host.holding
    try Self.choose(.white, joiner: true, &pair)
    #expect(pair.host.holding.ply == before.ply && pair.host.holding.digest != before.digest)
    #expect(pair.host.holding == pair.joiner.holding)
  }

  /// Since 2026-12-03 a game is kept while its opening runs (rule 19): the journal holds its choices so far.
  @Test func theJournalKeepsTheOpeningWhileItRuns() throws {
    var pair = Self.match()
    try Self.threeStones(&pair)
    let three = try #require(GameJournal(of: pair.joiner, myKey: "bob", peerKey: "alice"))
    #expect(three.moves == Self.three && three.choices.isEmpty)
    try Self.choose(.white, joiner: true, &pair)
    let settled = try #require(GameJournal(of: pair.joiner, myKey: "bob", peerKey: "alice"))
    #expect(settled.moves == Self.three && settled.choices == [.white])
    let text = settled.text(sha256: testHash)
    #expect(text.hasPrefix("tictactoe journal 3\n") && text.contains("\nopening white\n"), "\(text)")
    let read = try GameJournal(text: text, myKey: "bob", peerKey: "alice", sha256: testHash)
    #expect(read == settled)
  }
}

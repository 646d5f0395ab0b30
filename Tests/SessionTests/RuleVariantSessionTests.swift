import GameCore
import SessionTestSupport
import Testing
import UntrustedText
import WireProtocol

@testable import Session

/// Version 4's rule variants in a network match (PROTOCOL.md, "Version 4: rule variants and openings"): the
/// joiner plays the variant of the host's hello, both sides judge fouls, and an older joiner is refused by name.
@Suite struct RuleVariantSessionTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }
  static let renju = try! Rules(size: 15, k: 5, variant: .renju)

  /// Host X (equal coin bytes) under `rules`.
  static func match(_ rules: Rules = renju, joinerVersions: [UInt16] = ProtocolVersion.supported) -> SessionPair {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: rules, joinerVersions: joinerVersions)
    pair.startMatch()
    return pair
  }

  /// X at f8 g8 and h10 h9 (0-based (7,5) (7,6) (5,7) (6,7)), O far away: X's (7,7) makes two open threes.
  private func doubleThreeSetUp(_ pair: inout SessionPair) throws {
    for cell in [p(7, 5), p(0, 0), p(7, 6), p(0, 14), p(5, 7), p(14, 0), p(6, 7), p(14, 14)] { try pair.play(cell) }
  }

  @Test func theJoinerPlaysTheVariantOfTheHostsHello() throws {
    let pair = Self.match()
    #expect(pair.host.version == 4 && pair.joiner.version == 4)
    #expect(pair.joiner.hostTerms?.rules == Self.renju)
    #expect(pair.joiner.rules == Self.renju && pair.joiner.game?.rules.variant == .renju)
    #expect(pair.host.game?.rules.variant == .renju && pair.host.myMark == .x)
  }

  @Test func ourOwnFoulIsRefusedWithItsReasonAndNothingIsSent() throws {
    var pair = Self.match()
    try doubleThreeSetUp(&pair)
    let board = try #require(pair.host.game?.board)
    #expect(Referee.foul(p(7, 7), by: .x, on: board) == .doubleThree)
    let sentBefore = pair.hostEvents.count
    #expect(throws: PlayError.illegal(.forbidden(p(7, 7), .doubleThree))) {
      try pair.host.play(p(7, 7), now: 0)
    }
    #expect(pair.hostEvents.count == sentBefore && pair.host.game?.history.count == 8 && pair.host.myTurn)
    // O is not restricted: the same kind of shape is no foul for the second player.
    try pair.play(p(3, 3))
    #expect(pair.joiner.myTurn && pair.closings.isEmpty)
  }

  @Test func aPeersFoulIsAViolationNamedAsSuch() throws {
    var pair = Self.match()
    try doubleThreeSetUp(&pair)
    // A host program that does not judge its own fouls sends X's forbidden move.
    let outputs = pair.joiner.receive(.move(ply: 8, position: p(7, 7)), now: 0)
    #expect(
      SessionPair.violation(
        outputs, containing: "a foul move under renju: row 8, column 8 is forbidden to X under renju"))
    #expect(SessionPair.violation(outputs, containing: "two open threes"))
    #expect(outputs.contains { if case .send(.error(let text)) = $0 { text.hasPrefix("a foul move") } else { false } })
  }

  @Test func underFreestyleTheSameMoveIsFine() throws {
    var pair = Self.match(try Rules(size: 15, k: 5))
    try doubleThreeSetUp(&pair)
    try pair.play(p(7, 7))
    #expect(pair.closings.isEmpty && pair.joiner.game?.history.count == 9)
  }

  @Test func anOverlineDoesNotWinUnderExactFive() throws {
    var pair = Self.match(try Rules(size: 15, k: 5, variant: .exactFive))
    // X: (7,0) (7,1) (7,2) (7,4) (7,5), then (7,3) makes six.
    for cell in [p(7, 0), p(0, 0), p(7, 1), p(0, 2), p(7, 2), p(0, 4), p(7, 4), p(0, 6), p(7, 5), p(0, 8)] {
      try pair.play(cell)
    }
    try pair.play(p(7, 3))
    #expect(pair.host.lastResult == nil && pair.joiner.lastResult == nil && pair.joiner.gameInProgress)
  }

  /// A version-3 program skips fields 6 and 7 (unknown tags): it reads the hello without them, says its own hello,
  /// and is refused by name.
  @Test func aVersionThreeJoinerIsRefusedNamingTheRule() throws {
    var pair = SessionPair(hostCoin: 1, joinerCoin: 1, rules: Self.renju, joinerVersions: [3, 2])
    let hostHello = pair.host.start(now: 0)
    guard case .send(.hello(let versions, let name, let software, let terms?, _, _)) = hostHello.first else {
      Issue.record("no hello with terms: \(hostHello)")
      return
    }
    #expect(terms.rules == Self.renju && versions == [4, 3, 2])
    let asOlderReads = HostTerms(rules: try Rules(size: 15, k: 5))
    _ = pair.joiner.start(now: 0)
    _ = pair.joiner.receive(.hello(versions: versions, name: name, software: software, terms: asOlderReads), now: 0)
    let outputs = pair.host.receive(.hello(versions: [3, 2], name: "Bob", software: "older"), now: 0)
    let text = "this host plays the renju rule, which needs protocol version 4; you speak 2-3: update tictactoe to join"
    #expect(outputs.contains(.send(.refuse(.versionMismatch, text: text))))
    #expect(pair.host.phase == .closed(.versionMismatch(ours: [4, 3, 2], theirs: [3, 2], needs: "the renju rule")))
    _ = pair.joiner.receive(.refuse(.versionMismatch, text: text), now: 0)
    #expect(pair.joiner.phase == .closed(.refused(.versionMismatch, PeerText(text))))
    #expect(pair.host.game == nil && pair.joiner.game == nil)
    let said = SessionEnd.versionMismatch(ours: [4, 3, 2], theirs: [3, 2], needs: "the renju rule").description
    #expect(said.contains("your terms (the renju rule) need protocol version 4") && said.contains("speaks 2-3"))
  }

  @Test func aVersionThreeJoinerStillPlaysAFreestyleHost() throws {
    let pair = Self.match(try Rules(size: 15, k: 5), joinerVersions: [3, 2])
    #expect(pair.host.version == 3 && pair.joiner.version == 3 && pair.host.gameInProgress)
  }

  /// Swap2 with a clock is played over the network since 2026-12-03 (rule 14 counts turns): a joiner greeted with
  /// such terms goes on to the welcome instead of declining them.
  @Test func aJoinerTakesSwap2WithAClock() throws {
    var joiner = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "t"), coinBytes: Array(repeating: 0, count: 32),
      sha256: testHash, now: 0)
    _ = joiner.start(now: 0)
    let clock = TimeControl.fischer(base: 300_000, increment: 3_000)
    let terms = HostTerms(rules: try Rules(size: 15, k: 5), timeControl: clock, opening: .swap2)
    let outputs = joiner.receive(.hello(versions: [4, 3, 2], name: "Alice", software: "t", terms: terms), now: 0)
    #expect(!outputs.contains { if case .send(.bye) = $0 { true } else { false } })
    #expect(joiner.phase == .awaitingWelcome && joiner.hostTerms?.timeControl == clock)
  }

  @Test func variantTermsFromAHostWithoutVersionFourAreAViolation() throws {
    var joiner = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "t"), coinBytes: Array(repeating: 0, count: 32),
      sha256: testHash, now: 0)
    _ = joiner.start(now: 0)
    let outputs = joiner.receive(
      .hello(versions: [3, 2], name: "Alice", software: "t", terms: HostTerms(rules: Self.renju)), now: 0)
    #expect(SessionPair.violation(outputs, containing: "terms with the renju rule from a host that does not speak"))
  }

  /// The journal (rule 19) keeps the variant, so a renju game kept through a restart agrees with its offer.
  @Test func theJournalKeepsTheVariant() throws {
    var pair = Self.match()
    try pair.play(p(7, 7))
    let journal = try #require(GameJournal(of: pair.joiner, myKey: "bob", peerKey: "alice"))
    let text = journal.text(sha256: testHash)
    #expect(text.contains("\nrules 15 15 5 renju\n"))
    let read = try GameJournal(text: text, myKey: "bob", peerKey: "alice", sha256: testHash)
    #expect(read.rules == Self.renju && read == journal)
  }
}

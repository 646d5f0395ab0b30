import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import App
@testable import NetworkShell

/// Hostile and broken peers inside TLS against the real host shell in memory (`--accept-new`): a peer that
/// finishes TLS with its own key and then breaks the protocol, one way per test. The peer gets an `error`
/// naming the cause, then a clean close; before the host let it in, the host's player is told and it hosts on
/// (a real joiner then plays a whole game); during a game the match ends as broken by the opponent (32).
/// Moved from the end-to-end `HostilePeerTests`, which keeps two of them as smoke.
@Suite(.serialized) struct InMemoryHostilePeerTests {
  // MARK: before the host lets the joiner in

  @Test func anImpossibleFrameLengthIsAnsweredAndTheHostKeepsServing() throws {
    let attacked = try AttackedMemoryHost()
    for (header, cause) in [
      ([0x10, 0x01], "a frame of 4097 bytes (the limit is 4096)"), ([0xFF, 0xFF], "a frame of 65535 bytes"),
      ([0x00, 0x00], "a frame of length 0"),
    ] as [([UInt8], String)] {
      let peer = try attacked.attacker()
      try peer.write(header)
      attacked.expectRefusal(peer, naming: cause)
    }
    try attacked.expectStillServing()
  }

  @Test func aTruncatedFrameFollowedByACloseIsReportedAndTheHostKeepsServing() throws {
    let attacked = try AttackedMemoryHost()
    // A frame announcing 40 bytes, of which 10 arrive (12 bytes with the length), then the joiner closes:
    // once with TLS's goodbye (close_notify), once by ending the stream only.
    let truncated: [UInt8] = [0x00, 0x28, 0x30] + Array("only part".utf8)
    let cause = "the connection ended in the middle of a frame (12 bytes)"
    let polite = try attacked.attacker()
    try polite.write(truncated)
    try polite.closeWrite()
    attacked.expectRefusal(polite, naming: cause)
    let abrupt = try attacked.attacker()
    try abrupt.write(truncated)
    abrupt.shutdownWithoutGoodbye()
    let logged = { attacked.log.components(separatedBy: cause).count - 1 }
    #expect(attacked.table.run(abrupt) { logged() == 2 }, "the host did not say why:\n\(attacked.context)")
    try attacked.expectStillServing()
  }

  @Test func aNameThatIsNotUTF8IsAnsweredAndTheHostKeepsServing() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    try peer.write(RawFrame.hello(name: [0x6D, 0xC3, 0x28, 0xFF]))
    attacked.expectRefusal(peer, naming: "the player name is not valid UTF-8")
    try attacked.expectStillServing()
  }

  @Test func aHelloMissingARequiredFieldIsAnsweredAndTheHostKeepsServing() throws {
    let attacked = try AttackedMemoryHost()
    let noName = try attacked.attacker()
    try noName.write(RawFrame.hello(name: nil))
    attacked.expectRefusal(noName, naming: "hello without its player name")
    let noVersions = try attacked.attacker()
    try noVersions.write(RawFrame.hello(versions: nil))
    attacked.expectRefusal(noVersions, naming: "hello without its protocol versions")
    try attacked.expectStillServing()
  }

  /// Version 1 tossed the coin again for a joiner that left and came back (no `coin kept`): a peer offering only
  /// it is refused with the versions each side speaks, before any welcome or coin, and the host serves on.
  @Test func aHelloOfferingOnlyVersionOneIsRefusedBeforeAnyCoin() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    try peer.send(.hello(versions: [1], name: "mallory", software: "hostile 1"))
    #expect(attacked.awaitMessage(peer) { if case .refuse = $0 { true } else { false } })
    let refusal = peer.messages.first { if case .refuse = $0 { true } else { false } }
    guard case .refuse(.versionMismatch, let text) = refusal else {
      Issue.record("no version refusal; received \(peer.messages)\n\(attacked.context)")
      return
    }
    #expect(text.contains("you speak 1"), "\(text)")
    let coin = peer.messages.contains {
      switch $0 {
      case .welcome, .coinCommit, .coinKept: true
      default: false
      }
    }
    #expect(!coin, "\(peer.messages)")
    try attacked.expectStillServing()
  }

  @Test func anUnknownMessageTypeIsIgnoredAsTheProtocolSays() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    // Type 0x7E does not exist: a later version may add it, so it is skipped, before the hello and during a game.
    try peer.write(RawFrame.frame(type: 0x7E, RawFrame.field(1, Array("from the future".utf8))))
    _ = try attacked.startGame(peer)
    try peer.write(RawFrame.frame(type: 0x7E))
    try peer.send(.chat("still here"))
    let host = attacked.host
    #expect(attacked.table.run(peer) { host.sessionOutputs.contains(.chat("still here")) }, "\(attacked.context)")
    #expect(peer.errorText == nil, "the host answered an unknown message with an error: \(peer.errorText ?? "")")
    try peer.send(.bye(.quit, text: "mallory left"))
    #expect(attacked.table.run(peer) { host.end != nil })
    #expect(host.end.map(ExitStatus.code(for:)) == 30, "\(attacked.context)")
  }

  // MARK: during a game: the match ends, with an error naming the cause

  @Test func chatThatIsNotUTF8EndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    _ = try attacked.startGame(peer)
    try peer.write(RawFrame.frame(type: 0x30, RawFrame.field(1, [0x68, 0x69, 0xFF, 0xFE])))
    attacked.expectMatchEnded(peer, naming: "the chat text is not valid UTF-8")
  }

  @Test func aSecondHelloEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    _ = try attacked.startGame(peer)
    try peer.send(.hello(versions: ProtocolVersion.supported, name: "mallory", software: "hostile"))
    attacked.expectMatchEnded(peer, naming: "a second hello")
  }

  @Test func aMoveOutOfTurnEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    if try attacked.startGame(peer) == .x {
      // The host moves first: a move now, with the right ply, is out of turn.
      try peer.send(.move(ply: 0, position: Position(row: 1, column: 1)))
      attacked.expectMatchEnded(peer, naming: "an illegal move: it is X's turn")
    } else {
      try peer.send(.move(ply: 0, position: Position(row: 0, column: 0)))
      try peer.send(.move(ply: 1, position: Position(row: 1, column: 1)))
      attacked.expectMatchEnded(peer, naming: "an illegal move: it is O's turn")
    }
  }

  @Test func aRepeatedMoveEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    let ply = try attacked.reachAttackersTurn(peer, hostMark: try attacked.startGame(peer), hostPlays: 5)
    let move = Message.move(ply: ply, position: Position(row: 0, column: 0))
    try peer.send(move)
    try peer.send(move)
    attacked.expectMatchEnded(
      peer, naming: "a move for ply \(ply) when ply \(ply + 1) was next (repeated or out of order)")
  }

  @Test func aMoveOnATakenCellEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    let hostMark = try attacked.startGame(peer)
    let ply = try attacked.reachAttackersTurn(peer, hostMark: hostMark, hostPlays: 5)
    try peer.send(.move(ply: ply, position: Position(row: 1, column: 1)))
    attacked.expectMatchEnded(peer, naming: "an illegal move: row 2, column 2 is already taken by \(hostMark)")
  }

  @Test func aMoveOffTheBoardEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    let ply = try attacked.reachAttackersTurn(peer, hostMark: try attacked.startGame(peer), hostPlays: 5)
    try peer.send(.move(ply: ply, position: Position(row: 3, column: 0)))
    attacked.expectMatchEnded(peer, naming: "an illegal move: row 4, column 1 is off the 3×3 board")
  }

  @Test func aMoveAfterTheGameEndedEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    let hostMark = try attacked.startGame(peer)
    // X takes the top row while O plays the middle row, move by move.
    var (hostMoves, peerMoves) = (0, 0)
    for ply in 0..<5 {
      let xMoves = ply.isMultiple(of: 2)
      let cell = xMoves ? ply / 2 : 3 + ply / 2
      if xMoves == (hostMark == .x) {
        hostMoves += 1
        try attacked.hostPlays(cell + 1, reaching: peer, count: hostMoves)
      } else {
        peerMoves += 1
        let position = Position(row: cell / 3, column: cell % 3)
        try attacked.attackerPlays(peer, ply: UInt16(ply), position, count: peerMoves)
      }
    }
    let host = attacked.host
    #expect(attacked.table.run(peer) { host.sessionOutputs.contains(.gameEnded(.line(winner: .x))) })
    try peer.send(.move(ply: 5, position: Position(row: 2, column: 2)))
    attacked.expectMatchEnded(peer, naming: "a move while no game is in progress")
  }

  /// Chat over the pace is dropped with one note and the game goes on; only ten times the pace of any program
  /// of ours ends the match.
  @Test func aChatFloodIsDroppedThenEndsTheMatchWithAnError() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    _ = try attacked.startGame(peer)
    let host = attacked.host
    for index in 1...21 { try peer.send(.chat("flood \(index)")) }
    #expect(attacked.table.run(peer) { host.sessionOutputs.contains(.chatsDropped) }, "\(attacked.context)")
    let shown = host.sessionOutputs.compactMap { if case .chat(let text) = $0 { text.description } else { nil } }
    #expect(shown == (1...20).map { "flood \($0)" }, "\(shown)")
    for index in 22...101 { try peer.send(.chat("flood \(index)")) }
    attacked.expectMatchEnded(peer, naming: "chat flood: more than 100 messages in 5 seconds")
    #expect(host.sessionOutputs.filter { $0 == .chatsDropped }.count == 1, "the note was said more than once")
  }

  /// Issue 25, items 5 and 8: an admitted peer repeating its rematch offer is told once, and a flood of offers
  /// ends the match instead of a line each.
  @Test func aRepeatedRematchOfferIsSaidOnceAndAFloodEndsTheMatch() throws {
    let attacked = try AttackedMemoryHost()
    let peer = try attacked.attacker()
    _ = try attacked.startGame(peer)
    let host = attacked.host
    try peer.send(.resign)
    #expect(
      attacked.table.run(peer) { host.sessionOutputs.contains { if case .gameEnded = $0 { true } else { false } } })
    for _ in 1...30 { try peer.send(.rematchOffer) }
    try peer.send(.chat("after the offers"))
    #expect(attacked.table.run(peer) { host.sessionOutputs.contains(.chat("after the offers")) }, "\(attacked.context)")
    #expect(host.sessionOutputs.filter { $0 == .rematchOffered }.count == 1, "\(host.sessionOutputs)")
    for _ in 1...30 { try peer.send(.rematchOffer) }
    attacked.expectMatchEnded(peer, naming: "more than 50 rematch offers, resignations and record signatures")
  }

  /// Names and software versions with control characters are refused when decoded, before anyone is asked.
  @Test func aNameOrSoftwareWithControlCharactersIsRefusedWhenDecoded() throws {
    let attacked = try AttackedMemoryHost()
    for (name, software, cause) in [
      (
        "mallory\u{1B}]2;pwned\u{07}\u{1B}[2J\nFAKE\r\u{0}\u{9B}\u{202E}", "hostile 1",
        "a bad player name: it contains U+001B"
      ),
      ("mallory", "x\u{202E}", "a bad software version: it contains U+202E"),
      ("alice\u{200B}", "hostile 1", "a bad player name: it contains U+200B"),
    ] {
      let peer = try attacked.attacker()
      try peer.send(.hello(versions: ProtocolVersion.supported, name: name, software: software))
      attacked.expectRefusal(peer, naming: cause)
    }
    try attacked.expectStillServing()
  }
}

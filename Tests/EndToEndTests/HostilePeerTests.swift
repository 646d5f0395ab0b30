import Foundation
import GameCore
import Testing
import WireProtocol

/// Hostile and broken peers inside TLS against the real `tictactoe host` (plain mode, --accept-new, loopback):
/// a client that completes the TLS handshake with its own certificate and then breaks the protocol, one way per
/// test. Each checks what a player would see: the client gets an `error` naming the cause, then a clean close
/// (close_notify, then EOF); the host says what happened; and the host survives. A violation before the host
/// let the joiner in leaves it hosting (a real joiner then plays a whole game); one during a game ends the match
/// with the documented status (32, the opponent broke the protocol).
@Suite struct HostilePeerTests {
  // MARK: before the host lets the joiner in

  @Test func anImpossibleFrameLengthIsAnsweredAndTheHostKeepsServing() throws {
    let host = try AttackedHost()
    for (header, cause) in [
      ([0x10, 0x01], "a frame of 4097 bytes (the limit is 4096)"), ([0xFF, 0xFF], "a frame of 65535 bytes"),
      ([0x00, 0x00], "a frame of length 0"),
    ] as [([UInt8], String)] {
      let client = try host.attacker()
      try client.sendRaw(header)
      host.expectRefusal(client, naming: cause)
    }
    host.expectStillServing()
  }

  @Test func aTruncatedFrameFollowedByACloseIsReportedAndTheHostKeepsServing() throws {
    let host = try AttackedHost()
    // A frame announcing 40 bytes, of which 10 arrive (12 bytes with the length), then the joiner closes:
    // once with TLS's goodbye (close_notify), once by ending the TCP stream only.
    let truncated: [UInt8] = [0x00, 0x28, 0x30] + Array("only part".utf8)
    // The first still reads: it hears why (TLS 1.3 closes each direction on its own).
    let polite = try host.attacker()
    try polite.sendRaw(truncated)
    try polite.closeWrite()
    host.expectRefusal(polite, naming: "the connection ended in the middle of a frame (12 bytes)")
    let abrupt = try host.attacker()
    try abrupt.sendRaw(truncated)
    abrupt.shutdownWithoutGoodbye()
    _ = abrupt.waitForEnd()
    #expect(
      host.waitForLog("the connection ended in the middle of a frame (12 bytes)", count: 2),
      "the host did not say why the connection ended:\n\(host.context)")
    host.expectStillServing()
  }

  @Test func aNameThatIsNotUTF8IsAnsweredAndTheHostKeepsServing() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    try client.sendRaw(RawFrame.hello(name: [0x6D, 0xC3, 0x28, 0xFF]))
    host.expectRefusal(client, naming: "the player name is not valid UTF-8")
    host.expectStillServing()
  }

  @Test func aHelloMissingARequiredFieldIsAnsweredAndTheHostKeepsServing() throws {
    let host = try AttackedHost()
    let noName = try host.attacker()
    try noName.sendRaw(RawFrame.hello(name: nil))
    host.expectRefusal(noName, naming: "hello without its player name")
    let noVersions = try host.attacker()
    try noVersions.sendRaw(RawFrame.hello(versions: nil))
    host.expectRefusal(noVersions, naming: "hello without its protocol versions")
    host.expectStillServing()
  }

  /// Version 1 tossed the coin again for a joiner that left and came back (no `coin kept`): a client offering
  /// only it is refused with the versions each side speaks, before any welcome or coin, and the host serves on.
  @Test func aHelloOfferingOnlyVersionOneIsRefusedBeforeAnyCoin() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    try client.send(.hello(versions: [1], name: "mallory", software: "hostile 1"))
    let refusal = client.next(where: { if case .refuse = $0 { true } else { false } })
    guard case .refuse(.versionMismatch, let text) = refusal else {
      Issue.record("no version refusal; received \(client.received)\n\(host.context)")
      return
    }
    #expect(text.contains("you speak 1"), "\(text)")
    #expect(
      !client.received.contains {
        switch $0 {
        case .welcome, .coinCommit, .coinKept: true
        default: false
        }
      }, "\(client.received)")
    host.expectStillServing()
  }

  @Test func anUnknownMessageTypeIsIgnoredAsTheProtocolSays() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    // Type 0x7E does not exist in version 1: a later version may add it, so it is skipped, before the hello
    // and during a game alike.
    try client.sendRaw(RawFrame.frame(type: 0x7E, RawFrame.field(1, Array("from the future".utf8))))
    _ = try host.startGame(client)
    try client.sendRaw(RawFrame.frame(type: 0x7E))
    try client.send(.chat("still here"))
    #expect(host.host.waitFor("mallory says: still here"), "\(host.context)")
    #expect(client.errorText == nil, "the host answered an unknown message with an error: \(client.errorText ?? "")")
    try client.send(.bye(.quit, text: "mallory left"))
    #expect(host.host.exitStatus() == 30, "\(host.context)")
  }

  // MARK: during a game: the match ends, with an error naming the cause

  @Test func chatThatIsNotUTF8EndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    _ = try host.startGame(client)
    try client.sendRaw(RawFrame.frame(type: 0x30, RawFrame.field(1, [0x68, 0x69, 0xFF, 0xFE])))
    host.expectMatchEnded(client, naming: "the chat text is not valid UTF-8")
  }

  @Test func aSecondHelloEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    _ = try host.startGame(client)
    try client.send(.hello(versions: ProtocolVersion.supported, name: "mallory", software: "hostile"))
    host.expectMatchEnded(client, naming: "a second hello")
  }

  @Test func aMoveOutOfTurnEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let hostMark = try host.startGame(client)
    if hostMark == .x {
      // The host moves first: a move now, with the right ply, is out of turn.
      try client.send(.move(ply: 0, position: Position(row: 1, column: 1)))
      host.expectMatchEnded(client, naming: "an illegal move: it is X's turn")
    } else {
      try client.send(.move(ply: 0, position: Position(row: 0, column: 0)))
      try client.send(.move(ply: 1, position: Position(row: 1, column: 1)))
      host.expectMatchEnded(client, naming: "an illegal move: it is O's turn")
    }
  }

  @Test func aRepeatedMoveEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let ply = try host.reachAttackersTurn(client, hostMark: try host.startGame(client), hostPlays: 5)
    let move = Message.move(ply: ply, position: Position(row: 0, column: 0))
    try client.send(move)
    try client.send(move)
    host.expectMatchEnded(
      client, naming: "a move for ply \(ply) when ply \(ply + 1) was next (repeated or out of order)")
  }

  @Test func aMoveOnATakenCellEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let hostMark = try host.startGame(client)
    let ply = try host.reachAttackersTurn(client, hostMark: hostMark, hostPlays: 5)
    try client.send(.move(ply: ply, position: Position(row: 1, column: 1)))
    host.expectMatchEnded(client, naming: "an illegal move: row 2, column 2 is already taken by \(hostMark)")
  }

  @Test func aMoveOffTheBoardEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let ply = try host.reachAttackersTurn(client, hostMark: try host.startGame(client), hostPlays: 5)
    try client.send(.move(ply: ply, position: Position(row: 3, column: 0)))
    host.expectMatchEnded(client, naming: "an illegal move: row 4, column 1 is off the 3×3 board")
  }

  @Test func aMoveAfterTheGameEndedEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let hostMark = try host.startGame(client)
    // X takes the top row while O plays the middle row; the attacker plays its part move by move.
    let top = (0..<3).map { Position(row: 0, column: $0) }
    let middle = (0..<2).map { Position(row: 1, column: $0) }
    let attackerCells = hostMark == .x ? middle : top
    let hostCells = hostMark == .x ? [1, 2, 3] : [4, 5]
    for cell in hostCells { host.host.send("\(cell)") }
    var ply: UInt16 = 0
    for position in attackerCells {
      if hostMark == .x || ply > 0 {
        // Wait for the host's move before ours.
        guard client.next(where: { if case .move = $0 { true } else { false } }) != nil else {
          Issue.record("the host's move did not arrive\n\(host.context)")
          return
        }
        ply += 1
      }
      try client.send(.move(ply: ply, position: position))
      ply += 1
    }
    #expect(host.host.waitFor("result: X wins"), "\(host.context)")
    try client.send(.move(ply: 5, position: Position(row: 2, column: 2)))
    host.expectMatchEnded(client, naming: "a move while no game is in progress")
  }

  /// Chat over the pace is dropped with one note and the game goes on; only ten times the pace of any program
  /// of ours ends the match.
  @Test func aChatFloodIsDroppedThenEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    _ = try host.startGame(client)
    for index in 1...21 { try client.send(.chat("flood \(index)")) }
    #expect(host.host.waitFor("mallory is sending chat faster than anyone types"), "\(host.host.output)")
    #expect(host.host.output.contains("mallory says: flood 20"), "the first twenty chats were not shown")
    #expect(!host.host.output.contains("mallory says: flood 21"), "the chat over the pace was shown")
    for index in 22...101 { try client.send(.chat("flood \(index)")) }
    host.expectMatchEnded(client, naming: "chat flood: more than 100 messages in 5 seconds")
    let notes = host.host.output.components(separatedBy: "faster than anyone types").count - 1
    #expect(notes == 1, "the note was said \(notes) times")
  }

  /// Issue 25, items 5 and 8: an admitted peer repeating its rematch offer is told once, and a flood of offers
  /// ends the match instead of printing a line each.
  @Test func aRepeatedRematchOfferIsSaidOnceAndAFloodEndsTheMatch() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    _ = try host.startGame(client)
    try client.send(.resign)
    #expect(host.host.waitFor("result: "), "\(host.host.output)")
    for _ in 1...30 { try client.send(.rematchOffer) }
    try client.send(.chat("after the offers"))
    #expect(host.host.waitFor("mallory says: after the offers"), "\(host.host.output)")
    let offers = host.host.output.components(separatedBy: "offers a rematch").count - 1
    #expect(offers == 1, "the offer was said \(offers) times")
    for _ in 1...30 { try client.send(.rematchOffer) }
    host.expectMatchEnded(client, naming: "more than 50 rematch offers, resignations and record signatures")
  }
}

/// A real `tictactoe host` (plain mode, --accept-new, 127.0.0.1, a free port) under attack, with the checks the
/// tests share. Its private home is removed when the test lets go of it.
private final class AttackedHost {
  let host: Player
  let port: UInt16
  let logPath: String
  private var homes: [String] = []

  init() throws {
    let home = try Binary.sandbox()
    homes.append(home.root)
    var environment = home.environment
    environment["USER"] = "alice"
    logPath = (environment["XDG_STATE_HOME"] ?? "") + "/tictactoe/tictactoe.log"
    host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new"], environment: environment)
    port = UInt16(try #require(host.announcedPort(), "the host announced no port: \(host.output)\(host.errors)"))
  }

  deinit {
    host.signal(SIGKILL)
    _ = host.exitStatus()
    for root in homes { try? FileManager.default.removeItem(atPath: root) }
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  var context: String { "--- host output:\n\(host.output)\n--- host errors:\n\(host.errors)\n--- host log:\n\(log)" }

  /// A new hostile connection that completed TLS.
  func attacker() throws -> HostileClient { try HostileClient(port: port) }

  /// Waits (bounded) until the log holds `text` at least `count` times.
  func waitForLog(_ text: String, count: Int = 1, timeout: Double = 10) -> Bool {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
      if log.components(separatedBy: text).count - 1 >= count { return true }
      usleep(20_000)
    }
    return false
  }

  /// Says hello as a well-behaved joiner would, takes the host's welcome and coin commitment, gives its coin
  /// share and takes the reveal; returns the host's mark in game 1.
  func startGame(_ client: HostileClient, name: String = "mallory", software: String = "hostile 1") throws -> Mark {
    try client.send(.hello(versions: ProtocolVersion.supported, name: name, software: software))
    guard client.next(where: { if case .welcome = $0 { true } else { false } }) != nil,
      client.next(where: { if case .coinCommit = $0 { true } else { false } }) != nil
    else { throw HostileClient.Failure(description: "no welcome and commitment\n\(context)") }
    try client.send(.coinShare(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
    guard client.next(where: { if case .coinReveal = $0 { true } else { false } }) != nil,
      host.waitFor("game 1:")
    else { throw HostileClient.Failure(description: "the coin toss did not finish\n\(context)") }
    return host.output.contains("you play X") ? .x : .o
  }

  /// Plays until it is the attacker's turn with the host's mark on cell `hostPlays` (1-9, the attacker keeps
  /// to the top left corner when it moves first); returns the ply the attacker must send next.
  func reachAttackersTurn(_ client: HostileClient, hostMark: Mark, hostPlays cell: Int) throws -> UInt16 {
    var ply: UInt16 = 0
    if hostMark == .o {
      try client.send(.move(ply: 0, position: Position(row: 2, column: 2)))
      ply = 1
    }
    host.send("\(cell)")
    guard client.next(where: { if case .move = $0 { true } else { false } }) != nil else {
      throw HostileClient.Failure(description: "the host's move did not arrive\n\(context)")
    }
    return ply + 1
  }

  /// Before the game: the client is told why in an `error`, the connection closes cleanly, the host logs the
  /// cause and tells its player. (That it keeps hosting is shown by `expectStillServing`: a real game.)
  func expectRefusal(_ client: HostileClient, naming cause: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectErrorAndCleanClose(client, naming: cause, sourceLocation: sourceLocation)
    #expect(
      waitForLog(cause), "the host's log does not name the cause \"\(cause)\"\n\(context)",
      sourceLocation: sourceLocation)
    #expect(
      host.waitFor("was closed: Your opponent's program broke the rules of the protocol: ", timeout: 5)
        && host.waitFor(cause, timeout: 5), "the host player was not told\n\(context)", sourceLocation: sourceLocation)
  }

  /// During the game: the client is told why, the connection closes cleanly, the host tells its player the
  /// opponent broke the protocol (naming the cause) and exits with status 32.
  func expectMatchEnded(
    _ client: HostileClient, naming cause: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectErrorAndCleanClose(client, naming: cause, sourceLocation: sourceLocation)
    #expect(host.exitStatus() == 32, "\(context)", sourceLocation: sourceLocation)
    #expect(
      host.errors.contains("Your opponent's program broke the rules of the protocol: ")
        && host.errors.contains(cause), "the host did not say what happened\n\(context)",
      sourceLocation: sourceLocation)
  }

  private func expectErrorAndCleanClose(
    _ client: HostileClient, naming cause: String, sourceLocation: SourceLocation
  ) {
    let error = client.next(where: { if case .error = $0 { true } else { false } })
    guard case .error(let text) = error else {
      Issue.record("no error message came; received \(client.received)\n\(context)", sourceLocation: sourceLocation)
      return
    }
    #expect(text.contains(cause), "the error \"\(text)\" does not name \"\(cause)\"", sourceLocation: sourceLocation)
    let end = client.waitForEnd()
    #expect(end == .closeNotifyThenEOF, "the host ended with \(end)\n\(context)", sourceLocation: sourceLocation)
  }

  /// A real joiner plays a whole game against the host, then quits; the host reports that and exits 30.
  func expectStillServing(sourceLocation: SourceLocation = #_sourceLocation) {
    guard let home = try? Binary.sandbox(), host.exitStatus(timeout: 0) == nil else {
      Issue.record("the host is gone\n\(context)", sourceLocation: sourceLocation)
      return
    }
    homes.append(home.root)
    var environment = home.environment
    environment["USER"] = "bob"
    guard
      let joiner = try? Player(
        ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: environment)
    else {
      Issue.record("cannot start a joiner", sourceLocation: sourceLocation)
      return
    }
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)\n\(context)", sourceLocation: sourceLocation)
    Player.playOut(host, joiner)
    #expect(
      host.output.contains("result: X wins") && joiner.output.contains("result: X wins"),
      "the game did not finish\n--- joiner:\n\(joiner.output)\(joiner.errors)\n\(context)",
      sourceLocation: sourceLocation)
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0, sourceLocation: sourceLocation)
    #expect(host.exitStatus() == 30, "\(context)", sourceLocation: sourceLocation)
  }
}

/// Peer text is data: names, chat and goodbyes full of terminal control, line breaks, NUL and bidirectional
/// controls reach the host's terminal, its error output and its log only as visible escapes.
@Suite struct HostilePeerTextTests {
  /// What a hostile peer used to do to a terminal: retitle it (OSC 2), fill the clipboard (OSC 52), clear it
  /// and draw a fake result, forge a line, cut a C string, and reverse text.
  static let poison =
    "\u{1B}]2;pwned\u{07}\u{1B}]52;c;Y3VybCBodHRwOi8vZXZpbC94fHNo\u{07}\u{1B}[2J\u{1B}[H"
    + "\nFAKE: alice wins!\r\u{0}\u{9B}31m\u{202E}olleh"
  /// The same within a name's 64 bytes.
  static let shortPoison = "\u{1B}]2;pwned\u{07}\u{1B}[2J\nFAKE\r\u{0}\u{9B}\u{202E}"

  @Test func aNameOrSoftwareWithControlCharactersIsRefusedWhenDecoded() throws {
    let host = try AttackedHost()
    let named = try host.attacker()
    try named.send(
      .hello(versions: ProtocolVersion.supported, name: "mallory" + Self.shortPoison, software: "hostile 1"))
    host.expectRefusal(named, naming: "a bad player name: it contains U+001B")
    let software = try host.attacker()
    try software.send(.hello(versions: ProtocolVersion.supported, name: "mallory", software: "x\u{202E}"))
    host.expectRefusal(software, naming: "a bad software version: it contains U+202E")
    let invisible = try host.attacker()
    try invisible.send(.hello(versions: ProtocolVersion.supported, name: "alice\u{200B}", software: "hostile 1"))
    host.expectRefusal(invisible, naming: "a bad player name: it contains U+200B")
    host.expectStillServing()
  }

  @Test func aHostileCertificateNameChatAndGoodbyeReachThePlainTerminalAndLogOnlyAsEscapes() throws {
    let host = try AttackedHost()
    let client = try HostileClient(port: host.port, name: "cert" + Self.shortPoison)
    _ = try host.startGame(client)
    try client.send(.chat("hi" + Self.poison))
    #expect(host.host.waitFor("hi\\x1B]2;pwned"), "\(host.context)")
    try client.send(.bye(.quit, text: "bye" + Self.poison))
    #expect(host.host.exitStatus() == 30, "\(host.context)")
    #expect(host.waitForLog("remembered new peer cert"), "\(host.context)")
    let shown = Array(host.host.output.utf8) + Array(host.host.errors.utf8)
    for forbidden: UInt8 in [0x1B, 0x07, 0x00, 0x0D] {
      #expect(!shown.contains(forbidden), "byte \(forbidden) reached the terminal:\n\(host.context)")
    }
    let text = host.host.output + host.host.errors
    #expect(!text.contains("\u{9B}") && !text.contains("\u{202E}"), "a C1 or bidi control reached the terminal")
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FAKE") }, "a peer forged a line:\n\(text)")
    #expect(text.contains("mallory says: hi\\x1B]2;pwned\\x07"), "\(text)")
    #expect(text.contains("Your opponent left: bye\\x1B]2;pwned"), "\(text)")
    // One line per event in the log: every line starts with its timestamp, none was forged.
    let lines = host.log.split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.first == "2", "a log line does not start with its timestamp: \(line)")
      #expect(!line.utf8.contains(0x1B) && !line.utf8.contains(0x00), "a control byte reached the log: \(line)")
    }
    #expect(host.log.contains("remembered new peer cert\\x1B]2;pwned\\x07"), "\(host.log)")
  }

}

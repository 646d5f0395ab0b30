import Foundation
import GameCore
import Testing
import WireProtocol

/// Hostile and broken peers inside TLS against the real `tictactoe host` (plain mode, --accept-new, loopback):
/// a client that completes the TLS handshake with its own certificate and then breaks the protocol, one way per
/// test. Each checks what a player would see: the client gets an `error` naming the cause, then a clean close
/// (close_notify, then EOF); the host says what happened; and the host survives. A violation before the host
/// let the joiner in leaves it hosting (a real joiner then plays a whole game); one during a game ends the match
/// with the documented status (32, the opponent broke the protocol). Two stay here as smoke for the real program;
/// the rest of these checks run against the real host shell in memory (`InMemoryHostilePeerTests`).
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

  // MARK: during a game: the match ends, with an error naming the cause

  @Test func aMoveOnATakenCellEndsTheMatchWithAnError() throws {
    let host = try AttackedHost()
    let client = try host.attacker()
    let hostMark = try host.startGame(client)
    let ply = try host.reachAttackersTurn(client, hostMark: hostMark, hostPlays: 5)
    try client.send(.move(ply: ply, position: Position(row: 1, column: 1)))
    host.expectMatchEnded(client, naming: "an illegal move: row 2, column 2 is already taken by \(hostMark)")
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

import Foundation
import GameCore
import Testing
import WireProtocol

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// A host that lets new joiners in (`--accept-new`) on the in-memory network, under attack by `HandPeer`s that
/// finish TLS with a key of their own and then break the protocol, with the checks the hostile tests share.
final class AttackedMemoryHost {
  let table = InMemoryMatch()
  let host: MemoryPlayer

  init() throws {
    var options = NetworkOptions()
    options.acceptNew = true
    host = try table.host(options: options)
  }

  /// The host's log file as it stands.
  var log: String { (try? String(contentsOfFile: host.profile.paths.logFile, encoding: .utf8)) ?? "" }

  var context: String { "--- host events:\n\(host.events)\n--- host log:\n\(log)" }

  private var attackers = 0

  /// A new hostile connection that finished TLS, each from an address of its own: the host logs only so many
  /// lines a second about one address it has not let in, and these come faster than any network brings them.
  func attacker() throws -> HandPeer {
    attackers += 1
    let peer = try HandPeer(to: host, in: table, from: "127.0.0.\(10 + attackers)")
    guard table.run(peer, until: { peer.isSecured }) else { throw InMemoryMatch.Stuck("no TLS for the attacker") }
    return peer
  }

  /// Runs until `peer` has had a message `condition` holds for `count` times in all.
  @discardableResult
  func awaitMessage(_ peer: HandPeer, count: Int = 1, _ condition: (Message) -> Bool) -> Bool {
    table.run(peer) { peer.count(condition) >= count }
  }

  /// Says hello as a well-behaved joiner would, takes the welcome and the coin commitment, gives its share and
  /// takes the reveal; returns the host's mark in game 1.
  func startGame(_ peer: HandPeer, name: String = "mallory") throws -> Mark {
    try peer.send(.hello(versions: ProtocolVersion.supported, name: name, software: "hostile 1"))
    guard awaitMessage(peer, { if case .welcome = $0 { true } else { false } }),
      awaitMessage(peer, { if case .coinCommit = $0 { true } else { false } })
    else { throw InMemoryMatch.Stuck("no welcome and commitment\n\(context)") }
    try peer.send(.coinShare(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
    guard awaitMessage(peer, { if case .coinReveal = $0 { true } else { false } }),
      table.run(until: { host.myMark != nil }),
      let mark = host.myMark
    else { throw InMemoryMatch.Stuck("the coin toss did not finish\n\(context)") }
    return mark
  }

  /// The host's player plays `cell` (1-9), and the move reaches the attacker (its `count`th move from the host).
  func hostPlays(_ cell: Int, reaching peer: HandPeer, count: Int) throws {
    host.take(try host.match.play(Position(row: (cell - 1) / 3, column: (cell - 1) % 3)))
    guard awaitMessage(peer, count: count, { if case .move = $0 { true } else { false } }) else {
      throw InMemoryMatch.Stuck("the host's move did not arrive\n\(context)")
    }
  }

  /// The attacker's move reaches the host's player (its `count`th move from the attacker).
  func attackerPlays(_ peer: HandPeer, ply: UInt16, _ position: Position, count: Int) throws {
    try peer.send(.move(ply: ply, position: position))
    guard table.run(peer, until: { host.peerMoves.count >= count }) else {
      throw InMemoryMatch.Stuck("the attacker's move did not arrive\n\(context)")
    }
  }

  /// Plays until it is the attacker's turn with the host's mark on `cell` (1-9; the attacker takes the bottom
  /// right corner when it moves first); returns the ply the attacker must send next.
  func reachAttackersTurn(_ peer: HandPeer, hostMark: Mark, hostPlays cell: Int) throws -> UInt16 {
    var ply: UInt16 = 0
    if hostMark == .o {
      try attackerPlays(peer, ply: 0, Position(row: 2, column: 2), count: 1)
      ply = 1
    }
    try hostPlays(cell, reaching: peer, count: 1)
    return ply + 1
  }

  /// Before the game: the attacker is told why in an `error` and the connection closes cleanly (close_notify,
  /// then the end of the stream); the host logs the cause and tells its player; the match goes on hosting.
  func expectRefusal(_ peer: HandPeer, naming cause: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectErrorAndCleanClose(peer, naming: cause, sourceLocation: sourceLocation)
    // The host logs and tells its player once it has closed the connection: a round after the peer saw it.
    #expect(
      table.run(seconds: 3) { log.contains(cause) }, "the host's log does not name \"\(cause)\"\n\(context)",
      sourceLocation: sourceLocation)
    let told = {
      self.host.statuses.contains {
        $0.contains("was closed: Your opponent's program broke the rules of the protocol: ") && $0.contains(cause)
      }
    }
    #expect(
      table.run(seconds: 3, until: told), "the host's player was not told\n\(context)", sourceLocation: sourceLocation)
    #expect(host.end == nil, "\(context)", sourceLocation: sourceLocation)
  }

  /// During the game: the attacker is told why, the connection closes cleanly, and the match ends as broken by
  /// the opponent (exit status 32), naming the cause.
  func expectMatchEnded(_ peer: HandPeer, naming cause: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectErrorAndCleanClose(peer, naming: cause, sourceLocation: sourceLocation)
    #expect(table.run { host.end != nil }, "\(context)", sourceLocation: sourceLocation)
    guard let end = host.end else { return }
    #expect(ExitStatus.code(for: end) == 32, "\(end)", sourceLocation: sourceLocation)
    let said = end.description
    #expect(
      said.contains("Your opponent's program broke the rules of the protocol: ") && said.contains(cause),
      "the host did not say what happened: \(said)", sourceLocation: sourceLocation)
  }

  private func expectErrorAndCleanClose(_ peer: HandPeer, naming cause: String, sourceLocation: SourceLocation) {
    table.run(peer) { peer.isEnded }
    guard let text = peer.errorText else {
      Issue.record("no error message came; received \(peer.messages)\n\(context)", sourceLocation: sourceLocation)
      return
    }
    #expect(text.contains(cause), "the error \"\(text)\" does not name \"\(cause)\"", sourceLocation: sourceLocation)
    #expect(peer.endedCleanly, "the host ended with \(peer.arrivals)\n\(context)", sourceLocation: sourceLocation)
  }

  /// A real joiner (the shell, in memory) plays a whole game on the host, X taking the top row, then quits: the
  /// host's match ends as one whose opponent left (exit status 30).
  func expectStillServing(sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(host.end == nil, "the host is gone\n\(context)", sourceLocation: sourceLocation)
    let joiner = try table.join(host, name: "bob", address: "127.0.0.9")
    try table.meet(host, joiner)
    let (x, o) = host.myMark == .x ? (host, joiner) : (joiner, host)
    for (index, cell) in [0, 3, 1, 4, 2].enumerated() {
      let (mover, other) = index.isMultiple(of: 2) ? (x, o) : (o, x)
      mover.take(try mover.match.play(Position(row: cell / 3, column: cell % 3)))
      #expect(table.run { other.peerMoves.count == index / 2 + 1 }, sourceLocation: sourceLocation)
    }
    let won = { (player: MemoryPlayer) in
      player.sessionOutputs.contains { $0 == .gameEnded(.line(winner: .x)) }
    }
    #expect(
      table.run { won(host) && won(joiner) }, "the game did not finish\n\(context)", sourceLocation: sourceLocation)
    joiner.take(joiner.match.quit())
    #expect(table.run { host.end != nil }, sourceLocation: sourceLocation)
    #expect(host.end.map(ExitStatus.code(for:)) == 30, "\(context)", sourceLocation: sourceLocation)
  }
}

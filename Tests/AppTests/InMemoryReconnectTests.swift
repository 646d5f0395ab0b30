import GameCore
import Glibc
import PlayerFiles
import Session
import TestSupport
import Testing

@testable import App
@testable import FrontEnds
@testable import MatchCoordination
@testable import NetworkShell

/// Drops, kills and comebacks on the real host and joiner shells in memory, time moved on by hand: a move lost
/// with the connection is applied once, the grace period ends in a claim, a comeback keeps the coin, and only
/// the key the game was played with gets it back. Moved from the end-to-end `ReconnectTests`,
/// `ReconnectKeyTests` and `NetworkFaultTests`, which keep the proxy-driven drops and the screens.
@Suite(.serialized) struct InMemoryReconnectTests {
  static func options(grace: Double = 120) -> NetworkOptions {
    var options = NetworkOptions()
    options.acceptNew = true
    options.gracePeriod = grace
    return options
  }

  static func lost(_ player: MemoryPlayer) -> Bool {
    player.sessionOutputs.contains { if case .connectionLost = $0 { true } else { false } }
  }

  static func count(_ text: String, in player: MemoryPlayer) -> Int {
    player.statuses.filter { $0.contains(text) }.count
  }

  /// The move leaves the mover and is lost with the connection: on the resume it reaches the other side exactly
  /// once, and the game is played out to the same result on both.
  @Test func aMoveSentJustBeforeTheDropIsAppliedExactlyOnce() throws {
    let table = InMemoryMatch()
    let host = try table.host(options: Self.options())
    let joiner = try table.join(host, options: Self.options())
    try table.meet(host, joiner)
    let (x, o) = host.myMark == .x ? (host, joiner) : (joiner, host)
    let connection = try #require(joiner.joinerMatch.sockets.inOrder.first?.1)
    // The connection is cut under X, which has not noticed yet: its move is written into a dead connection.
    shutdown(connection.fd, Int32(SHUT_RDWR))
    x.take(try x.match.play(Position(row: 1, column: 1)))
    #expect(table.run { joiner.resumed && host.resumed })
    #expect(host.sessionOutputs.contains(.resumed(game: 1, ply: 1)), "\(host.sessionOutputs)")
    #expect(table.run { o.peerMoves.count == 1 })
    table.settle(0.2)
    #expect(o.peerMoves == [Position(row: 1, column: 1)])
    // O takes the left column while X answers: the game ends at O's third move.
    var received = [ObjectIdentifier(o): 1, ObjectIdentifier(x): 0]
    for (index, cell) in [0, 2, 6, 8, 3].enumerated() {
      let (mover, other) = index.isMultiple(of: 2) ? (o, x) : (x, o)
      mover.take(try mover.match.play(Position(row: cell / 3, column: cell % 3)))
      received[ObjectIdentifier(other), default: 0] += 1
      let want = received[ObjectIdentifier(other), default: 0]
      #expect(table.run { other.peerMoves.count == want })
    }
    #expect(o.peerMoves.filter { $0 == Position(row: 1, column: 1) }.count == 1)
    let result = { (player: MemoryPlayer) in
      player.sessionOutputs.lazy.compactMap { if case .gameEnded(let result) = $0 { result } else { nil } }.first
    }
    #expect(table.run { result(host) != nil && result(joiner) != nil })
    #expect(result(host) == result(joiner) && result(host) != nil)
    #expect(host.match.view.session?.game?.board == joiner.match.view.session?.game?.board)
    let log = try String(contentsOfFile: host.profile.paths.logFile, encoding: .utf8)
    #expect(log.contains("is back with the same key: resuming the game"), "\(log)")
  }

  /// The joiner is killed; the host keeps the game the grace period (5 s), then its player may claim it, and the
  /// match ends as a win by claim (exit status 0).
  @Test func afterTheGracePeriodTheRemainingPlayerClaimsTheGame() throws {
    let table = InMemoryMatch()
    let host = try table.host(options: Self.options(grace: 5))
    let joiner = try table.join(host, options: Self.options(grace: 5))
    try table.meet(host, joiner)
    let joinerMark = try #require(joiner.myMark)
    table.kill(joiner)
    #expect(table.run { Self.lost(host) })
    let until = host.sessionOutputs.lazy.compactMap { if case .connectionLost(let until) = $0 { until } else { nil } }
    #expect(until.first.map { abs($0 - table.time.now() - 5) < 1 } == true, "\(host.sessionOutputs)")
    #expect(throws: ActionRefusal.nothingToClaim) { try host.match.claim() }
    table.advance(by: 3)
    #expect(!host.sessionOutputs.contains(.graceExpired))
    table.advance(by: 2.5)
    #expect(table.run { host.sessionOutputs.contains(.graceExpired) })
    host.take(try host.match.claim())
    #expect(host.sessionOutputs.contains(.gameEnded(.abandoned(loser: joinerMark))))
    let line = PlainNetworkWords.resultLine(.abandoned(loser: joinerMark), mine: joinerMark.opponent)
    #expect(line.hasSuffix("did not come back): you win"), "\(line)")
    #expect(table.run { host.end != nil })
    #expect(host.end == .session(.peerDidNotReturn(seconds: 5, claimed: true)))
    #expect(host.end.map(ExitStatus.code(for:)) == 0)
  }

  /// The host is killed: the joiner says so, tries again and is refused, and may claim the game after the grace
  /// period (exit status 0).
  @Test func aKilledHostIsNoticedAndItsGameMayBeClaimedAfterTheGracePeriod() throws {
    let table = InMemoryMatch()
    var host: MemoryPlayer? = try table.host(options: Self.options())
    let joiner = try table.join(try #require(host), options: Self.options(grace: 5))
    try table.meet(try #require(host), joiner)
    table.kill(try #require(host))
    host = nil
    #expect(table.run { Self.lost(joiner) })
    let attempts = {
      joiner.events.compactMap { if case .reconnecting(let text) = $0 { text } else { nil } }
    }
    #expect(table.run { attempts().contains { $0.contains("attempt 2 failed: Connection refused") } }, "\(attempts())")
    table.advance(by: 5.5)
    #expect(table.run { joiner.sessionOutputs.contains(.graceExpired) })
    joiner.take(try joiner.match.claim())
    #expect(table.run { joiner.end != nil })
    #expect(joiner.end == .session(.peerDidNotReturn(seconds: 5, claimed: true)))
    #expect(joiner.end.map(ExitStatus.code(for:)) == 0)
  }

  /// Leaving after the coin toss and joining again within the grace period cannot re-roll the coin: five times
  /// over, a restarted joiner (the same home, a new program) is offered the kept game, takes it up, and has the
  /// mark it had; both players are told its first player is kept.
  @Test func leavingAndComingBackCannotRerollTheCoin() throws {
    let table = InMemoryMatch()
    let host = try table.host(options: Self.options())
    let home = try SandboxHome.make().environment
    var current = try table.join(host, options: Self.options(), home: home)
    try table.meet(host, current)
    let mark = try #require(current.myMark)
    let hostKey = host.identity.fingerprint
    for round in 1...5 {
      table.kill(current)
      #expect(table.run { Self.lostCount(host) >= round })
      // The journal is written off the loop: a joiner killed at once may have none. On even rounds it is removed
      // for sure, and the restarted joiner's player is asked whether to take the kept game up (and says yes).
      if round.isMultiple(of: 2) {
        table.settle(0.2)  // a write of the journal still under way lands first
        _ = JournalDirectory(paths: Paths(environment: home)).remove(peer: hostKey)
      }
      let again = try table.join(host, options: Self.options(), home: home)
      var asked = false
      let takenUp = table.run {
        if !asked, again.events.contains(where: { if case .askTerms = $0 { true } else { false } }) {
          asked = true
          again.take(again.match.answer(accept: true))
        }
        return again.resumed
      }
      #expect(takenUp, "round \(round): \(again.events)")
      if round.isMultiple(of: 2) { #expect(asked, "round \(round): no journal, yet not asked") }
      #expect(again.myMark == mark, "round \(round)")
      #expect(table.run { Self.count("its first player is kept", in: host) == round }, "\(host.statuses)")
      #expect(
        again.statuses.contains {
          $0.contains("You left a game here moments ago and came back: its first player is kept")
        },
        "\(again.statuses)")
      #expect(
        host.statuses.contains { $0.contains("bob came back after a restart: offering game 1 at move 1, kept here.") })
      current = again
    }
  }

  static func lostCount(_ player: MemoryPlayer) -> Int {
    player.sessionOutputs.filter { if case .connectionLost = $0 { true } else { false } }.count
  }

  /// The host is killed and another key answers at its address: the joiner refuses it as KEY CHANGED (21) inside
  /// the handshake, before anything of the game is sent.
  @Test func aDifferentHostAtTheSameAddressDoesNotGetTheGame() throws {
    let table = InMemoryMatch()
    var host: MemoryPlayer? = try table.host(options: Self.options())
    let port = try #require(host?.hostMatch.port)
    let joiner = try table.join(try #require(host), options: Self.options())
    try table.meet(try #require(host), joiner)
    table.kill(try #require(host))
    host = nil
    #expect(table.run { Self.lost(joiner) })
    let impostor = try table.host(name: "mallory", options: Self.options(), port: port)
    #expect(table.run { joiner.end != nil })
    let end = try #require(joiner.end)
    #expect(ExitStatus.code(for: end) == 21, "\(end)")
    #expect(end.description.contains("WARNING: alice's key has changed."), "\(end)")
    #expect(impostor.question == nil && impostor.myMark == nil)
  }
}

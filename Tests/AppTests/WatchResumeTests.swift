import GameCore
import NetworkFacts
import PeerTrust
import Session
import Testing
import UntrustedText
import WireProtocol

@testable import MatchCoordination

/// Which ends of a spectator's connection it reconnects after (PROTOCOL.md rule 23): a connection lost or gone
/// silent in the middle of a game; not a goodbye, an error, a key not trusted, nor a game with its result.
@Suite struct WatchResumeTests {
  static let rules = try! Rules(size: 3, k: 3)

  static func watched(number: Int = 1, end: WatchedEnd? = nil) throws -> WatchedGame {
    WatchedGame(
      hostName: PeerText("alice"), joinerName: PeerText("bob"), joinerKey: nil, timeControl: .none,
      gameNumber: number, hostPlaysX: true, game: try Game(rules: rules, moves: [Position(row: 1, column: 1)]),
      times: [], score: [0, 0, 0], end: end)
  }

  static let key = Fingerprint(bytes: Array(repeating: 1, count: 32))!
  static let other = Fingerprint(bytes: Array(repeating: 2, count: 32))!

  @Test(arguments: [
    MatchEnd.session(.connectionLost), .session(.peerVanished(seconds: 10)), .network(.socket("reset by peer")),
    .network(.closedDuringHandshake),
  ])
  func aDropMidGameReconnects(_ end: MatchEnd) throws {
    #expect(WatchResume.reconnects(after: end, watched: try Self.watched()))
  }

  @Test(arguments: [
    MatchEnd.session(.peerQuit(PeerText("the match is over"))), .session(.localQuit),
    .session(.protocolViolation("a move that cannot be played")), .session(.peerReportedError(PeerText("no"))),
    .session(.refused(.notWatchable, PeerText("no"))), .network(.tls(.untrusted(.noCertificate))),
    .keyChangedOnReconnect(before: key, now: other), .declinedByPlayer,
  ])
  func aGoodbyeAnErrorOrAKeyNotTrustedEndsWatching(_ end: MatchEnd) throws {
    #expect(!WatchResume.reconnects(after: end, watched: try Self.watched()))
  }

  @Test func aGameWithItsResultOrNoneBegunIsNotReconnectedFor() throws {
    let lost = MatchEnd.session(.connectionLost)
    #expect(!WatchResume.reconnects(after: lost, watched: try Self.watched(end: WatchedEnd(.line, mark: .x))))
    #expect(!WatchResume.reconnects(after: lost, watched: try Self.watched(number: 0)))
    #expect(!WatchResume.reconnects(after: lost, watched: nil))
  }

  @Test func itGivesUpAfterTheGracePeriod() {
    var resume = WatchResume()
    #expect(!resume.isReconnecting && !resume.givesUp(now: 1_000, patience: 120))
    resume.dropped(now: 100)
    #expect(resume.isReconnecting)
    #expect(!resume.givesUp(now: 219.9, patience: 120))
    #expect(resume.givesUp(now: 220, patience: 120))
    resume.stop()
    #expect(!resume.isReconnecting && !resume.givesUp(now: 1_000, patience: 120))
  }
}

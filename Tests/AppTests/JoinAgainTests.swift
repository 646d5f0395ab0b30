import MatchCoordination
import PeerTrust
import Session
import Testing

/// When a joiner's ended match offers `r` to join the same host again: only where joining again can work.
@Suite struct JoinAgainTests {
  private let known = Fingerprint(bytes: Array(repeating: 1, count: 32))!
  private let presented = Fingerprint(bytes: Array(repeating: 2, count: 32))!

  @Test func aHostThatLeftOrRestartedCanBeJoinedAgain() {
    #expect(MatchEnd.session(.peerQuit("")).canJoinAgain)
    #expect(MatchEnd.session(.gameNoLongerHeld).canJoinAgain)
    #expect(MatchEnd.session(.connectionLost).canJoinAgain)
  }

  @Test func notAfterTheKeyChangedNorAfterLeaving() {
    let changed = TrustFailure.keyChanged(
      name: "alice", known: known, presented: presented, file: "known_peers", line: 3)
    #expect(!MatchEnd.network(.tls(.untrusted(changed))).canJoinAgain, "KEY CHANGED: joining again fails again")
    #expect(!MatchEnd.keyChangedOnReconnect(before: known, now: presented).canJoinAgain)
    #expect(!MatchEnd.impostor(advertised: known, presented: presented).canJoinAgain)
    #expect(!MatchEnd.session(.localQuit).canJoinAgain)
  }
}

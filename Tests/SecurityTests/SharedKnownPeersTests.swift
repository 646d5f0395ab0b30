import PeerTrust
import Testing

@testable import Security

/// A bot judges joiners by known peers it changes while it serves: each decision sees them as they are then.
@Suite struct SharedKnownPeersTests {
  let now = UTCCalendar.now() + 60
  let peer = PeerCertificate(identity: Fixtures.bob)

  @Test func aPeerAddedToTheSharedListIsKnownAtTheNextDecision() {
    let shared = SharedKnownPeers(KnownPeers())
    var options = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "kp", acceptNew: true))
    options.sharedKnownPeers = shared
    #expect(
      evaluate(peer: peer, peerName: "bob", options: options, now: now, peerRole: .client) == .trusted(.acceptedNew))
    guard let day = CalendarDay(parsing: "2026-12-01") else { return }
    shared.update { $0.add(name: "bob", fingerprint: peer.fingerprint, date: day) }
    #expect(
      evaluate(peer: peer, peerName: "bob", options: options, now: now, peerRole: .client)
        == .trusted(.knownPeer(name: "bob")))
    #expect(shared.peers.count == 1)
  }
}

import PeerTrust
import Testing

/// Each trust check alone, and their composition (`TrustChecks.decide`), with no certificate parsed: the facts
/// are written out. Keys differ by their bytes; names and addresses are chosen apart from them.
@Suite struct TrustChecksTests {
  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }
  static let alice = key(1)
  static let mallory = key(7)
  static let day = CalendarDay(year: 2026, month: 11, day: 29)!

  /// alice met at alice.example:7177; "old" written before addresses were kept.
  static var known: KnownPeers {
    var peers = KnownPeers().adding(name: "alice", fingerprint: alice, date: day)
    peers.bind(alice, to: "alice.example:7177")
    return peers.adding(name: "old", fingerprint: key(3), date: day)
  }

  static func certificate(notBefore: Int64 = 1_000, notAfter: Int64 = 2_000) -> PeerCertificate {
    PeerCertificate(
      fingerprint: mallory, commonName: "alice", dnsNames: [], notBefore: notBefore, notAfter: notAfter,
      issuerCommonName: "alice", isSelfSigned: true, chainDER: [], publicKeyBase64: nil)
  }

  @Test func aPinnedKeyIsTrustedAndAnyOtherRefusedNamingThePins() {
    let pins = [PinnedKey(Self.key(9)), PinnedKey(Self.alice, source: "alice.crt")]
    #expect(TrustChecks.pinned(pins, presented: Self.alice) == .trust(.pinned))
    #expect(
      TrustChecks.pinned(pins, presented: Self.mallory) == .reject(.pinMismatch(expected: pins, got: Self.mallory)))
  }

  @Test func aKnownKeyIsItsKnownPeerWhateverItsName() {
    #expect(TrustChecks.knownKey(Self.known, presented: Self.alice) == .trust(.knownPeer(name: "alice")))
    #expect(TrustChecks.knownKey(Self.known, presented: Self.mallory) == .pass)
  }

  @Test func anotherKeyWhereAKnownHostWasMetIsKeyChanged() throws {
    let check = TrustChecks.boundAddress(
      "alice.example:7177", known: Self.known, peerName: "bob", presented: Self.mallory, file: "kp")
    guard case .reject(.keyChanged(let name, let known, let presented, "kp", _)) = check else {
      Issue.record("\(check)")
      return
    }
    #expect(name == "alice" && known == Self.alice && presented == Self.mallory)
    // Elsewhere, and under a name no legacy entry holds: not this check's to decide.
    #expect(
      TrustChecks.boundAddress(
        "other.example:7177", known: Self.known, peerName: "bob", presented: Self.mallory, file: "kp")
        == .pass)
    // The key bound there passes (the known-key check trusts it).
    #expect(
      TrustChecks.boundAddress(
        "alice.example:7177", known: Self.known, peerName: "alice", presented: Self.alice, file: "kp")
        == .pass)
  }

  @Test func aLegacyEntryWithoutAddressesStillProtectsItsName() {
    let check = TrustChecks.boundAddress(
      "new.example:7177", known: Self.known, peerName: "old", presented: Self.mallory, file: "kp")
    guard case .reject(.keyChanged("old", let known, _, _, _)) = check else {
      Issue.record("\(check)")
      return
    }
    #expect(known == Self.key(3))
  }

  @Test func aKnownNameWithAnotherKeyIsKeyChanged() {
    #expect(
      TrustChecks.knownName("alice", known: Self.known, presented: Self.alice, file: "kp")
        == .trust(.knownPeer(name: "alice")))
    guard
      case .reject(.keyChanged("alice", _, _, _, _)) = TrustChecks.knownName(
        "alice", known: Self.known, presented: Self.mallory, file: "kp")
    else {
      Issue.record("another key under a known name was not KEY CHANGED")
      return
    }
    #expect(TrustChecks.knownName("carol", known: Self.known, presented: Self.mallory, file: "kp") == .pass)
  }

  @Test func datesHoldOnlyWithinTheValidityUnlessExpiredIsAllowed() {
    let peer = Self.certificate()
    #expect(TrustChecks.dates(peer, allowExpired: false, now: 1_500) == nil)
    #expect(TrustChecks.dates(peer, allowExpired: false, now: 999) == .notYetValid(notBefore: 1_000))
    #expect(TrustChecks.dates(peer, allowExpired: false, now: 2_001) == .expired(notAfter: 2_000))
    #expect(TrustChecks.dates(peer, allowExpired: true, now: 2_001) == nil)
  }

  @Test func aNewKeyIsAskedAboutUnlessNewOnesAreAccepted() {
    #expect(
      TrustChecks.firstUse(acceptNew: false, peerName: "carol", presented: Self.mallory)
        == .askUser(name: "carol", fingerprint: Self.mallory))
    #expect(TrustChecks.firstUse(acceptNew: true, peerName: "carol", presented: Self.mallory) == .trusted(.acceptedNew))
  }

  /// The first check that decides wins; a trust is still held to the dates; a refusal is not; with no decision
  /// the dates come before the question.
  @Test func theFirstCheckThatDecidesWinsAndTrustIsHeldToTheDates() {
    var ran: [String] = []
    let expired: () -> TrustFailure? = { .expired(notAfter: 5) }
    let decision = TrustChecks.decide(
      [
        {
          ran.append("a")
          return .pass
        },
        {
          ran.append("b")
          return .trust(.pinned)
        },
        {
          ran.append("c")
          return .reject(.noCertificate)
        },
      ], dates: expired, otherwise: { .trusted(.insecure) })
    #expect(decision == .rejected(.expired(notAfter: 5)) && ran == ["a", "b"])
    #expect(
      TrustChecks.decide([{ .reject(.noCertificate) }], dates: expired, otherwise: { .trusted(.insecure) })
        == .rejected(.noCertificate))
    #expect(
      TrustChecks.decide([{ .pass }], dates: expired, otherwise: { .trusted(.insecure) })
        == .rejected(.expired(notAfter: 5)))
    #expect(TrustChecks.decide([{ .pass }], dates: { nil }, otherwise: { .trusted(.insecure) }) == .trusted(.insecure))
  }
}

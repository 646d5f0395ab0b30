import PeerTrust
import Testing

@testable import Security

/// The pure trust decisions, without a handshake.
@Suite struct TrustEvaluationTests {
  let now: Int64 = 1_780_000_000
  let peer = PeerCertificate(identity: Fixtures.bob)

  func dated(notBefore: Int64, notAfter: Int64) -> PeerCertificate {
    PeerCertificate(
      fingerprint: peer.fingerprint, commonName: "bob", dnsNames: ["bob"], notBefore: notBefore,
      notAfter: notAfter, issuerCommonName: "bob", isSelfSigned: true, chainDER: peer.chainDER)
  }

  @Test func firstUseAsksThenTrusts() throws {
    let current = dated(notBefore: now - 10, notAfter: now + 10)
    let empty = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "kp", acceptNew: false))
    #expect(
      evaluate(peer: current, peerName: "bob", options: empty, now: now)
        == .askUser(name: "bob", fingerprint: peer.fingerprint))
    guard let day = CalendarDay(year: 2026, month: 1, day: 1) else { return }
    let known = KnownPeers().adding(name: "robert", fingerprint: peer.fingerprint, date: day)
    let options = TrustOptions(policy: .trustOnFirstUse(known: known, file: "kp", acceptNew: false))
    // The key is the identity: a known key under another name is still that peer.
    #expect(
      evaluate(peer: current, peerName: "bob", options: options, now: now) == .trusted(.knownPeer(name: "robert")))
  }

  @Test func datesAreCheckedUnlessAllowed() {
    let pinned = TrustOptions(policy: .pinned([PinnedKey(peer.fingerprint)]))
    let early = dated(notBefore: now + 3600, notAfter: now + 7200)
    let late = dated(notBefore: now - 7200, notAfter: now - 3600)
    #expect(
      evaluate(peer: early, peerName: "bob", options: pinned, now: now)
        == .rejected(.notYetValid(notBefore: now + 3600)))
    #expect(
      evaluate(peer: late, peerName: "bob", options: pinned, now: now) == .rejected(.expired(notAfter: now - 3600)))
    var lenient = pinned
    lenient.allowExpired = true
    #expect(evaluate(peer: late, peerName: "bob", options: lenient, now: now) == .trusted(.pinned))
    #expect(
      evaluate(peer: late, peerName: "bob", options: TrustOptions(policy: .insecure), now: now) == .trusted(.insecure))
  }

  /// A known peer's key is no excuse for its dates: an expired (or not yet valid) certificate is refused whichever
  /// way the key is found known (by the name it is met as, under another name, as a joiner judged by its key
  /// alone, or at an address a host was met at), unless expired certificates are allowed.
  @Test(arguments: ["the name met as", "another name", "a joiner's key", "a bound address"])
  func aKnownPeersExpiredCertificateIsRefused(foundBy: String) throws {
    let day = try #require(CalendarDay(year: 2026, month: 1, day: 1))
    let known = KnownPeers().adding(
      name: foundBy == "another name" ? "robert" : "bob", fingerprint: peer.fingerprint, date: day)
    var options = TrustOptions(policy: .trustOnFirstUse(known: known, file: "kp", acceptNew: false))
    if foundBy == "a bound address" { options.boundAddress = "bob.example:7177" }
    let name = foundBy == "another name" ? "robert" : "bob"
    let late = dated(notBefore: now - 7200, notAfter: now - 3600)
    let early = dated(notBefore: now + 3600, notAfter: now + 7200)
    let current = dated(notBefore: now - 10, notAfter: now + 10)
    func judged(_ certificate: PeerCertificate, _ options: TrustOptions) throws -> TrustDecision {
      if foundBy == "a joiner's key" {
        return try TrustEvaluator(options: options).evaluateSelfNamed(peer: certificate, now: now, judgingJoiner: true)
      }
      return evaluate(peer: certificate, peerName: "bob", options: options, now: now)
    }
    #expect(try judged(current, options) == .trusted(.knownPeer(name: name)), "the set-up: a known key")
    #expect(try judged(late, options) == .rejected(.expired(notAfter: now - 3600)))
    #expect(try judged(early, options) == .rejected(.notYetValid(notBefore: now + 3600)))
    options.allowExpired = true
    #expect(try judged(late, options) == .trusted(.knownPeer(name: name)))
  }

  /// A key seen for the first time with an expired certificate is refused before the player is asked.
  @Test func aNewPeersExpiredCertificateIsRefusedBeforeAsking() {
    let late = dated(notBefore: now - 7200, notAfter: now - 3600)
    let options = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: "kp", acceptNew: true))
    #expect(
      evaluate(peer: late, peerName: "bob", options: options, now: now) == .rejected(.expired(notAfter: now - 3600)))
  }

  @Test func keyIdentityIsJudgedBeforeDates() {
    let other = Fixtures.alice.fingerprint
    let late = dated(notBefore: now - 7200, notAfter: now - 3600)
    #expect(
      evaluate(peer: late, peerName: "bob", options: TrustOptions(policy: .pinned([PinnedKey(other)])), now: now)
        == .rejected(.pinMismatch(expected: [PinnedKey(other)], got: peer.fingerprint)))
  }

  @Test func failureTextsSayWhatWhyAndWhatToDo() {
    #expect(UTCCalendar.format(0) == "1970-01-01 00:00 UTC")
    #expect(UTCCalendar.format(1_780_000_000) == "2026-05-28 20:26 UTC")
    #expect(UTCCalendar.format(-1) == "1969-12-31 23:59 UTC")
    let expired = TrustFailure.expired(notAfter: 1_780_000_000).description
    #expect(expired.contains("expired on 2026-05-28 20:26 UTC"))
    let early = TrustFailure.notYetValid(notBefore: 1_780_000_000).description
    #expect(early.contains("not valid before 2026-05-28 20:26 UTC") && early.contains("clock"))
    let pin = TrustFailure.pinMismatch(expected: [PinnedKey(Fixtures.alice.fingerprint)], got: Fixtures.bob.fingerprint)
      .description
    #expect(pin.contains(Fixtures.alice.fingerprint.description) && pin.contains(Fixtures.bob.fingerprint.description))
    let name = TrustFailure.nameMismatch(expected: "bob", presented: ["mallory", "mallory.local"]).description
    #expect(name.contains("for mallory, mallory.local, not for bob"))
    #expect(TrustFailure.noCertificate.description.contains("no certificate"))
  }

  @Test func badAuthorityListIsAnExplainedRefusal() {
    let options = TrustOptions(policy: .certificateAuthority(anchorsPEM: "not a certificate", expectedName: nil))
    guard
      case .rejected(.untrustedChain(let reason)) = evaluate(peer: peer, peerName: "bob", options: options, now: now)
    else {
      Issue.record("a broken authority list was not reported")
      return
    }
    #expect(reason.contains("certificate authority"))
    #expect(throws: SecurityError.self) { try TLSContext(role: .client, identity: Fixtures.alice, options: options) }
  }

  @Test func peerCertificateReadsAPresentedChain() throws {
    let parsed = try PeerCertificate(chainDER: peer.chainDER)
    #expect(parsed == peer)
    #expect(throws: SecurityError.self) { try PeerCertificate(chainDER: [[0x30, 0x00]]) }
  }

  @Test func calendarDaysParseStrictly() {
    #expect(CalendarDay(parsing: "2024-02-29")?.description == "2024-02-29")
    #expect(CalendarDay(parsing: "2023-02-29") == nil)
    #expect(CalendarDay(parsing: "2023-2-28") == nil)
    #expect(CalendarDay(secondsSince1970: 1_780_000_000).description == "2026-05-28")
  }
}

/// The system certificate store (read from local files) does not vouch for a self-signed player.
@Suite struct SystemStoreTests {
  @Test func selfSignedPlayerIsUnknownToTheSystemStore() {
    let options = TrustOptions(policy: .certificateAuthority(anchorsPEM: nil, expectedName: nil))
    let decision = evaluate(
      peer: PeerCertificate(identity: Fixtures.bob), peerName: "bob", options: options, now: nowSeconds())
    guard case .rejected(.unknownAuthority) = decision else {
      Issue.record("expected an unknown authority, got \(decision)")
      return
    }
  }
}

import NetworkFacts
import PeerTrust
import Testing

@testable import Security

/// Every trust policy applied inside a real (in-memory) handshake, in both directions:
/// the client judging the server, and the server judging the client.
@Suite struct TLSTrustTests {
  static let judges: [TLSRole] = [.client, .server]
  static let authority = makeAuthority()
  static let file = "/home/player/.config/tictactoe/known_peers"

  static func makeAuthority() -> Identity {
    do {
      return try Identity.generateAuthority(commonName: "Test Club CA")
    } catch {
      fatalError("cannot make the test CA: \(error)")
    }
  }

  /// The name the judged side is known by: the client connects to "bob"; the server sees "alice".
  static func judgedName(_ judge: TLSRole) -> String {
    judge == .client ? "bob" : "alice"
  }

  /// A handshake where `judge` applies `options` to `judged`; the other side accepts anything.
  static func connect(judge: TLSRole, options: TrustOptions, judged: Identity) throws -> Pair {
    switch judge {
    case .client:
      return try Pair(clientOptions: options, serverIdentity: judged)
    case .server:
      return try Pair(clientIdentity: judged, serverOptions: options)
    }
  }

  static func judgeConnection(_ pair: Pair, _ judge: TLSRole) -> TLSConnection {
    judge == .client ? pair.client : pair.server
  }

  static func judgeError(_ pair: Pair, _ judge: TLSRole) -> TLSError? {
    judge == .client ? pair.outcome.clientError : pair.outcome.serverError
  }

  /// What the judged side learns: at once for a server; on its first read for a TLS 1.3 client.
  static func judgedSideError(_ pair: Pair, _ judge: TLSRole) -> TLSError? {
    if judge == .client { return pair.outcome.serverError }
    if let error = pair.outcome.clientError { return error }
    do {
      _ = try pair.client.readPlaintext()
      return nil
    } catch {
      return error
    }
  }

  static func expectAccepted(_ pair: Pair, _ judge: TLSRole, _ decision: TrustDecision) {
    #expect(pair.outcome.clientDone && pair.outcome.serverDone)
    #expect(pair.outcome.clientError == nil && pair.outcome.serverError == nil)
    #expect(judgeConnection(pair, judge).trustDecision == decision)
  }

  static func expectRefused(_ pair: Pair, _ judge: TLSRole, _ failure: TrustFailure, alert: String) {
    #expect(judgeError(pair, judge) == .untrusted(failure))
    #expect(judgeConnection(pair, judge).trustDecision == .rejected(failure))
    #expect(judgedSideError(pair, judge) == .certificateRefusedByPeer(alert: alert))
  }

  // MARK: trust on first use

  @Test(arguments: judges) func unknownPeerIsAskedAbout(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let options = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: Self.file, acceptNew: false))
    let pair = try Self.connect(judge: judge, options: options, judged: judged)
    Self.expectAccepted(pair, judge, .askUser(name: Self.judgedName(judge), fingerprint: judged.fingerprint))
  }

  @Test(arguments: judges) func unknownPeerIsAcceptedWhenAskedTo(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let options = TrustOptions(policy: .trustOnFirstUse(known: KnownPeers(), file: Self.file, acceptNew: true))
    let pair = try Self.connect(judge: judge, options: options, judged: judged)
    Self.expectAccepted(pair, judge, .trusted(.acceptedNew))
  }

  @Test(arguments: judges) func knownPeerIsTrusted(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let name = Self.judgedName(judge)
    let known = KnownPeers().adding(name: name, fingerprint: judged.fingerprint, date: CalendarDay.today())
    let options = TrustOptions(policy: .trustOnFirstUse(known: known, file: Self.file, acceptNew: false))
    let pair = try Self.connect(judge: judge, options: options, judged: judged)
    Self.expectAccepted(pair, judge, .trusted(.knownPeer(name: name)))
  }

  /// The joiner judging the host it reached: a known name with another key is KEY CHANGED, even with
  /// accept-new. (The host judges joiners by key alone: see `aJoinerIsItsKeyNotTheNameItClaims`.)
  @Test func changedHostKeyIsRefusedWithFileAndLine() throws {
    let judge = TLSRole.client
    let impostor = Fixtures.makeIdentity(Self.judgedName(judge))
    let name = Self.judgedName(judge)
    let remembered = judge == .client ? Fixtures.bob.fingerprint : Fixtures.alice.fingerprint
    let text = "# players I have met\n\(name) \(remembered) 2026-11-01\n"
    let known = try KnownPeers.parse(text, path: Self.file)
    let options = TrustOptions(policy: .trustOnFirstUse(known: known, file: Self.file, acceptNew: true))
    let pair = try Self.connect(judge: judge, options: options, judged: impostor)
    let failure = TrustFailure.keyChanged(
      name: name, known: remembered, presented: impostor.fingerprint, file: Self.file, line: 2)
    Self.expectRefused(pair, judge, failure, alert: "bad_certificate")
    let message = failure.description
    #expect(message.contains("\(Self.file):2"))
    #expect(message.contains(remembered.description) && message.contains(impostor.fingerprint.description))
    #expect(message.contains("tictactoe peers forget \(remembered)"))
  }

  @Test func aJoinerIsItsKeyNotTheNameItClaims() throws {
    let known = try KnownPeers.parse(
      "alice \(Fixtures.alice.fingerprint) 2026-11-01\ncarol \(Fixtures.bob.fingerprint) 2026-11-02\n", path: Self.file)
    // Another "alice": a new player, let in with accept-new and asked about without it, never KEY CHANGED.
    let otherAlice = Fixtures.makeIdentity("alice")
    let lenient = TrustOptions(policy: .trustOnFirstUse(known: known, file: Self.file, acceptNew: true))
    Self.expectAccepted(
      try Self.connect(judge: .server, options: lenient, judged: otherAlice), .server, .trusted(.acceptedNew))
    let asking = TrustOptions(policy: .trustOnFirstUse(known: known, file: Self.file, acceptNew: false))
    let asked = try Self.connect(judge: .server, options: asking, judged: otherAlice)
    #expect(asked.server.trustDecision == .askUser(name: "alice", fingerprint: otherAlice.fingerprint))
    // A known key is that known peer, whatever its certificate now calls it.
    // (Bob's certificate says "bob"; the player knows that key as carol.)
    let bobAsCarol = try Self.connect(judge: .server, options: asking, judged: Fixtures.bob)
    Self.expectAccepted(bobAsCarol, .server, .trusted(.knownPeer(name: "carol")))
    #expect(known.lookalikes(of: "ALICE\u{200B}").map(\.fingerprint) == [Fixtures.alice.fingerprint])
    #expect(known.lookalikes(of: "a lice").count == 1 && known.lookalikes(of: "alicia").isEmpty)
  }

  // MARK: pinning

  @Test(arguments: judges) func pinnedKeyIsTrusted(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let pair = try Self.connect(
      judge: judge, options: TrustOptions(policy: .pinned([PinnedKey(judged.fingerprint)])), judged: judged)
    Self.expectAccepted(pair, judge, .trusted(.pinned))
  }

  @Test(arguments: judges) func otherKeyThanThePinIsRefused(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let pin = Fixtures.makeIdentity("someone-else").fingerprint
    let pair = try Self.connect(judge: judge, options: TrustOptions(policy: .pinned([PinnedKey(pin)])), judged: judged)
    Self.expectRefused(
      pair, judge, .pinMismatch(expected: [PinnedKey(pin)], got: judged.fingerprint), alert: "bad_certificate")
  }

  @Test(arguments: judges) func expiredPinnedKeyIsRefusedUnlessAllowed(judge: TLSRole) throws {
    let start = nowSeconds() - 400 * 86_400
    let judged = try Identity.generate(commonName: Self.judgedName(judge), validDays: 30, notBefore: start, issuer: nil)
    let strict = TrustOptions(policy: .pinned([PinnedKey(judged.fingerprint)]))
    let refused = try Self.connect(judge: judge, options: strict, judged: judged)
    Self.expectRefused(refused, judge, .expired(notAfter: judged.notAfter), alert: "certificate_expired")
    let lenient = TrustOptions(policy: .pinned([PinnedKey(judged.fingerprint)]), allowExpired: true)
    Self.expectAccepted(try Self.connect(judge: judge, options: lenient, judged: judged), judge, .trusted(.pinned))
  }

  // MARK: certificate authority

  static func issued(_ name: String, validDays: Int = 30, notBefore: Int64? = nil) throws -> Identity {
    try Identity.generate(commonName: name, validDays: validDays, notBefore: notBefore, issuer: authority)
  }

  static func authorityOptions(expectedName: String? = nil, allowExpired: Bool = false, verifyName: Bool = true)
    -> TrustOptions
  {
    TrustOptions(
      policy: .certificateAuthority(anchorsPEM: authority.certificatePEM, expectedName: expectedName),
      allowExpired: allowExpired, verifyName: verifyName)
  }

  @Test(arguments: judges) func certificateFromTheAuthorityIsTrusted(judge: TLSRole) throws {
    let judged = try Self.issued(Self.judgedName(judge))
    let pair = try Self.connect(judge: judge, options: Self.authorityOptions(), judged: judged)
    Self.expectAccepted(pair, judge, .trusted(.certificateAuthority(issuer: "Test Club CA")))
    #expect(Self.judgeConnection(pair, judge).peerCertificate?.issuerCommonName == "Test Club CA")
    #expect(Self.judgeConnection(pair, judge).peerCertificate?.isSelfSigned == false)
  }

  @Test(arguments: judges) func selfSignedCertificateIsAnUnknownAuthority(judge: TLSRole) throws {
    let judged = judge == .client ? Fixtures.bob : Fixtures.alice
    let pair = try Self.connect(judge: judge, options: Self.authorityOptions(), judged: judged)
    guard case .untrusted(.unknownAuthority(let detail)) = Self.judgeError(pair, judge) else {
      Issue.record("expected an unknown authority, got \(String(describing: Self.judgeError(pair, judge)))")
      return
    }
    #expect(detail.contains("self-signed") || detail.contains("self signed"))
    #expect(Self.judgedSideError(pair, judge) == .certificateRefusedByPeer(alert: "unknown_ca"))
  }

  @Test(arguments: judges) func expiredCertificateIsRefusedUnlessAllowed(judge: TLSRole) throws {
    let judged = try Self.issued(Self.judgedName(judge), notBefore: nowSeconds() - 400 * 86_400)
    let refused = try Self.connect(judge: judge, options: Self.authorityOptions(), judged: judged)
    Self.expectRefused(refused, judge, .expired(notAfter: judged.notAfter), alert: "certificate_expired")
    let message = TrustFailure.expired(notAfter: judged.notAfter).description
    #expect(message.contains(UTCCalendar.format(judged.notAfter)) && message.hasSuffix("certificates."))
    let accepted = try Self.connect(judge: judge, options: Self.authorityOptions(allowExpired: true), judged: judged)
    Self.expectAccepted(accepted, judge, .trusted(.certificateAuthority(issuer: "Test Club CA")))
  }

  @Test(arguments: judges) func wrongNameIsRefusedUnlessNameCheckIsOff(judge: TLSRole) throws {
    let judged = try Self.issued("mallory")
    // The client checks the name it connected to ("bob"); the server needs an expected name.
    let expected = judge == .client ? nil : "alice"
    let refused = try Self.connect(judge: judge, options: Self.authorityOptions(expectedName: expected), judged: judged)
    Self.expectRefused(
      refused, judge, .nameMismatch(expected: Self.judgedName(judge), presented: ["mallory"]), alert: "bad_certificate")
    let lenient = Self.authorityOptions(expectedName: expected, verifyName: false)
    Self.expectAccepted(
      try Self.connect(judge: judge, options: lenient, judged: judged), judge,
      .trusted(.certificateAuthority(issuer: "Test Club CA")))
  }

  // MARK: insecure

  @Test(arguments: judges) func insecureAcceptsAnything(judge: TLSRole) throws {
    let judged = try Identity.generate(
      commonName: "whoever", validDays: 1, notBefore: nowSeconds() - 90 * 86_400, issuer: nil)
    let pair = try Self.connect(judge: judge, options: Fixtures.insecure, judged: judged)
    Self.expectAccepted(pair, judge, .trusted(.insecure))
  }
}

/// A server in certificate-authority mode accepts any member of the club, whatever its name.
@Suite struct AuthorityMemberNameTests {
  @Test func serverAcceptsAMemberWhoseNameIsNotAHostName() throws {
    let member = try TLSTrustTests.issued("Ann Lee")
    let pair = try Pair(clientIdentity: member, serverOptions: TLSTrustTests.authorityOptions())
    #expect(pair.outcome.serverError == nil)
    #expect(pair.server.trustDecision == .trusted(.certificateAuthority(issuer: "Test Club CA")))
    #expect(pair.server.peerCertificate?.commonName == "Ann Lee")
  }
}

import PeerTrust
import Testing

@testable import Security

/// A joiner binds the host's key to the address typed, as OpenSSH binds host keys to host names: another key
/// there is KEY CHANGED whatever name it claims; a known key at a new address is that known peer; a new key
/// elsewhere is a new host even when it calls itself by a known name.
@Suite struct TrustByAddressTests {
  static let file = "/home/player/.local/share/tictactoe/known_peers"

  /// Bob (the host, "bob" in his certificate) judged by a joiner that typed `address`.
  private func judge(_ host: Identity, known: KnownPeers, address: String?, acceptNew: Bool = true) throws
    -> TrustDecision?
  {
    var options = TrustOptions(policy: .trustOnFirstUse(known: known, file: Self.file, acceptNew: acceptNew))
    options.boundAddress = address
    return try Pair(clientOptions: options, serverIdentity: host).client.trustDecision
  }

  private var knownAtHome: KnownPeers {
    KnownPeers().adding(name: "bob", fingerprint: Fixtures.bob.fingerprint, date: CalendarDay.today())
      .binding(Fixtures.bob.fingerprint, to: "bob.example:7177")
  }

  @Test func anotherKeyAtTheBoundAddressIsKeyChangedWhateverItsName() throws {
    let mallory = Fixtures.makeIdentity("mallory")  // not even claiming to be bob
    let decision = try judge(mallory, known: knownAtHome, address: "bob.example:7177")
    #expect(
      decision
        == .rejected(
          .keyChanged(
            name: "bob", known: Fixtures.bob.fingerprint, presented: mallory.fingerprint, file: Self.file, line: 1)))
  }

  @Test func theKnownKeyAtANewAddressIsThatPeer() throws {
    #expect(try judge(Fixtures.bob, known: knownAtHome, address: "10.0.0.9:7177") == .trusted(.knownPeer(name: "bob")))
  }

  @Test func aNewKeyCallingItselfBobElsewhereIsANewHostNotKeyChanged() throws {
    let otherBob = Fixtures.makeIdentity("bob")
    #expect(try judge(otherBob, known: knownAtHome, address: "elsewhere:7177") == .trusted(.acceptedNew))
    #expect(
      try judge(otherBob, known: knownAtHome, address: "elsewhere:7177", acceptNew: false)
        == .askUser(name: "bob", fingerprint: otherBob.fingerprint))
  }

  @Test func anEntryFromBeforeAddressesStillProtectsItsName() throws {
    let legacy = KnownPeers().adding(name: "bob", fingerprint: Fixtures.bob.fingerprint, date: CalendarDay.today())
    let otherBob = Fixtures.makeIdentity("bob")
    guard case .rejected(.keyChanged) = try judge(otherBob, known: legacy, address: "anywhere:7177") else {
      Issue.record("a legacy entry's name was not protected")
      return
    }
  }

  @Test func addressesAreKeptInTheFileAndReadBack() throws {
    var peers = knownAtHome
    peers.bind(Fixtures.bob.fingerprint, to: "[fe80::1%eth0]:7177")
    peers.bind(Fixtures.bob.fingerprint, to: "bob.example:7177")  // already there: not repeated
    let text = peers.render()
    #expect(text.hasSuffix(" at=bob.example:7177 at=[fe80::1%25eth0]:7177\n"), "\(text)")
    let parsed = try KnownPeers.parse(text, path: Self.file)
    #expect(parsed == peers)
    #expect(parsed.lookup(address: "[fe80::1%eth0]:7177")?.name == "bob")
    #expect(throws: KnownPeersError.self) {
      try KnownPeers.parse("bob \(Fixtures.bob.fingerprint) 2026-11-01 extra\n", path: Self.file)
    }
  }
}

extension KnownPeers {
  fileprivate func binding(_ fingerprint: Fingerprint, to address: String) -> KnownPeers {
    var copy = self
    copy.bind(fingerprint, to: address)
    return copy
  }
}

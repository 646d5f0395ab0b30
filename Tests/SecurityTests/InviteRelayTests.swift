import PeerTrust
import Testing
import TransitRelay

@testable import Security

/// An invite's relay (docs/PROTOCOL.md, "Invites"): `relay:HOST/PORT/TOKEN` after the addresses, covered by the
/// check, held to the same rules as the addresses (no number that means another address) and the key (one
/// writing of the token).
@Suite struct InviteRelayTests {
  /// Computed outside this program: the key bytes 0...31 and the token bytes 32...63 with Python's
  /// base64.urlsafe_b64encode, the check with hashlib.sha256(body).digest()[:3].hex().
  static let vector =
    "tictactoe:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@192.0.2.7/7177,2001:db8::7/7177,"
    + "relay:relay.example/4001/ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8+5e2398"
  static let key = Fingerprint(bytes: Array(0..<32))!
  static let token = RelayToken(bytes: Array(32..<64))!

  private func signed(_ body: String) -> String { body + "+" + Invite.check(body) }
  private var keyText: String { Invite.base64url(Self.key.bytes) }
  private var tokenText: String { Invite.base64url(Self.token.bytes) }

  @Test func readsARelayWrittenElsewhere() throws {
    let invite = try Invite.parse(Self.vector)
    #expect(invite.key == Self.key)
    #expect(invite.addresses == [.init(host: "192.0.2.7", port: 7177), .init(host: "2001:db8::7", port: 7177)])
    let relay = try #require(invite.relay)
    #expect(relay.host == "relay.example" && relay.port == 4001 && relay.token == Self.token)
    // The token the relay is sent, in its hex: bytes 32...63.
    #expect(relay.token.hex == "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")
    #expect(invite.description == Self.vector)
  }

  /// An IPv6 relay is written bare, as an address is (brackets would be glob characters in a shell).
  @Test func roundTripsWhatItWrites() throws {
    let relay = try #require(Invite.Relay(host: "2001:db8::9", port: 65535, token: Self.token))
    let addresses = (0..<Invite.maximumAddresses).map { Invite.Address(host: "10.0.0.\($0 + 1)", port: 7177) }
    let invite = try #require(Invite(key: Self.key, addresses: addresses, relay: relay))
    #expect(try Invite.parse(invite.description) == invite)
    let wrapped = "Invite:\n  \(invite.description.prefix(50))\n  \(invite.description.dropFirst(50))"
    #expect(try Invite.parse(wrapped) == invite)
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:@/,.+%")
    #expect(invite.description.allSatisfy { safe.contains($0) })
    // Without a relay an invite is written as before.
    let plain = try #require(Invite(key: Self.key, addresses: addresses))
    #expect(!plain.description.contains("relay") && plain.relay == nil)
  }

  @Test func theCheckCoversTheRelay() throws {
    let text = Array(Self.vector)
    let start = try #require(Self.vector.range(of: "relay:")).lowerBound.utf16Offset(in: Self.vector)
    let plus = try #require(text.lastIndex(of: "+"))
    for index in start..<plus {
      var changed = text
      changed[index] = changed[index] == "1" ? "2" : "1"
      #expect(throws: InviteError.checkFailed, "\(index)") { try Invite.parse(String(changed)) }
    }
  }

  @Test func refusesARelayNotWrittenAsOne() {
    let relay = "relay:relay.example/4001/\(tokenText)"
    let cases: [(String, String)] = [
      ("\(relay),192.0.2.7/7177", relay),  // not last
      ("192.0.2.7/7177,\(relay),\(relay)", relay),  // two
      ("192.0.2.7/7177,relay:relay.example/4001", "relay:relay.example/4001"),  // no token
      ("192.0.2.7/7177,relay:", "relay:"),
      ("192.0.2.7/7177,relay:h/4001/\(tokenText.dropLast())", "relay:h/4001/\(tokenText.dropLast())"),
      ("192.0.2.7/7177,relay:h/4001/\(Self.token.hex)", "relay:h/4001/\(Self.token.hex)"),  // hex, not base64url
      ("192.0.2.7/7177,relay:h/0/\(tokenText)", "relay:h/0/\(tokenText)"),
      ("192.0.2.7/7177,relay:h/65536/\(tokenText)", "relay:h/65536/\(tokenText)"),
      ("192.0.2.7/7177,relay:h/+401/\(tokenText)", "relay:h/+401/\(tokenText)"),
      ("192.0.2.7/7177,relay:bad_name/4001/\(tokenText)", "relay:bad_name/4001/\(tokenText)"),
      ("192.0.2.7/7177,relay:[::1]/4001/\(tokenText)", "relay:[::1]/4001/\(tokenText)"),
      ("192.0.2.7/7177,relay:/4001/\(tokenText)", "relay:/4001/\(tokenText)"),
    ]
    for (places, item) in cases {
      #expect(throws: InviteError.badRelay(item), "\(places)") {
        try Invite.parse(signed("tictactoe:\(keyText)@\(places)"))
      }
    }
    // A relay alone is no invite: the addresses come first (the host always has one).
    #expect(throws: InviteError.noAddress) { try Invite.parse(signed("tictactoe:\(keyText)@\(relay)")) }
  }

  /// The token's last character carries 2 bits that are not the token's: one token has one writing.
  @Test func refusesATokenWhoseLastCharacterIsNotCanonical() throws {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let last = try #require(tokenText.last.flatMap { alphabet.firstIndex(of: $0) })
    for stray in 1...3 {
      let item = "relay:h/4001/\(tokenText.dropLast())\(alphabet[last + stray])"
      #expect(throws: InviteError.badRelay(item)) { try Invite.parse(signed("tictactoe:\(keyText)@h/1,\(item)")) }
    }
  }

  /// The relay's host is held to the addresses' rule: a number the resolver reads as another address is refused,
  /// naming the address it would have been.
  @Test(arguments: [
    ("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
    ("192.0.2.07", "192.0.2.7"),
  ])
  func refusesARelayNumberThatMeansAnotherAddress(host: String, meaning: String) {
    let body = "tictactoe:\(keyText)@192.0.2.7/7177,relay:\(host)/4001/\(tokenText)"
    do {
      let invite = try Invite.parse(signed(body))
      Issue.record("accepted \(invite)")
    } catch {
      #expect(error.code == "invite.hidden-address" && "\(error)".contains("taken for the address \(meaning)"))
    }
    #expect(Invite.Relay(host: host, port: 4001, token: Self.token) == nil)
  }

  @Test func refusesARelayNumberThatIsNoAddress() {
    for host in ["1.2.3.4.5", "256.0.0.1"] {
      let body = "tictactoe:\(keyText)@192.0.2.7/7177,relay:\(host)/4001/\(tokenText)"
      #expect(throws: InviteError.self, "\(host)") { try Invite.parse(signed(body)) }
      #expect(Invite.Relay(host: host, port: 4001, token: Self.token) == nil)
    }
  }

  @Test func aRefusedRelayIsShownEscaped() {
    let body = "tictactoe:\(keyText)@h/1,relay:\u{1B}]2;owned\u{07}/4001/\(tokenText)"
    do {
      _ = try Invite.parse(signed(body))
      Issue.record("accepted")
    } catch {
      #expect(error.code == "invite.bad-relay")
      #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(error)")
    }
  }

  /// Tokens and sides come from OpenSSL's generator: the right size, and never the same twice.
  @Test func tokensAndSidesAreDrawnAtRandom() throws {
    let tokens = try (0..<64).map { _ in try RelayToken.random() }
    #expect(Set(tokens).count == 64)
    #expect(Set(tokens.flatMap(\.bytes)).count > 200, "64 tokens of 32 bytes use most byte values")
    let sides = try (0..<64).map { _ in try RelaySide.random() }
    #expect(Set(sides).count == 64)
  }
}

import PeerTrust
import Testing

@testable import Security

/// The invite's grammar (docs/PROTOCOL.md, "Invites"): vectors computed with Python's hashlib and base64, the
/// check that catches a typo, and every refusal.
@Suite struct InviteTests {
  /// Computed outside this program: base64.urlsafe_b64encode(bytes(range(32))) and
  /// hashlib.sha256(body).digest()[:3].hex().
  static let vector =
    "tictactoe:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@192.0.2.7/7177,2001:db8::7/7177,alice.example/7000+a93f17"
  static let key = Fingerprint(bytes: Array(0..<32))!

  @Test func readsAVectorWrittenElsewhere() throws {
    let invite = try Invite.parse(InviteTests.vector)
    #expect(invite.key == InviteTests.key)
    #expect(
      invite.addresses == [
        .init(host: "192.0.2.7", port: 7177), .init(host: "2001:db8::7", port: 7177),
        .init(host: "alice.example", port: 7000),
      ])
    #expect(invite.description == InviteTests.vector)
  }

  /// Base64url's `-` and `_` (where base64 has `+` and `/`), and an IPv6 zone.
  @Test func usesBase64urlAndKeepsAZone() throws {
    let text = "tictactoe:--__--__--__--__--__--__--__--__--__--__AQI@fe80::1%eth0/7177+28e130"
    let invite = try Invite.parse(text)
    #expect(invite.key.description == "SHA256:++//++//++//++//++//++//++//++//++//++//AQI")
    #expect(invite.addresses == [.init(host: "fe80::1%eth0", port: 7177)])
    #expect(invite.description == text)
  }

  @Test func roundTripsWhatItWrites() throws {
    let addresses = [Invite.Address(host: "127.0.0.1", port: 1), .init(host: "::1", port: 65535)]
    let invite = try #require(Invite(key: InviteTests.key, addresses: addresses))
    #expect(try Invite.parse(invite.description) == invite)
    // A line copied whole, with its label and a newline, and surrounding spaces.
    #expect(try Invite.parse("  Invite: \(invite)\n") == invite)
    // Copied from a screen that wrapped it: the line breaks and the indentation are not part of it.
    let text = invite.description
    let wrapped = "Invite:\n   " + text.prefix(30) + "\n   " + text.dropFirst(30)
    #expect(try Invite.parse(wrapped) == invite)
    // Nothing in it needs quoting in a shell.
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:@/,.+%")
    #expect(invite.description.allSatisfy { safe.contains($0) })
  }

  @Test func everyChangedCharacterIsCaught() throws {
    let text = Array(InviteTests.vector)
    let plus = try #require(text.lastIndex(of: "+"))
    var caught = 0
    for index in text.indices where index != plus {
      var changed = text
      changed[index] = changed[index] == "1" ? "2" : "1"
      if (try? Invite.parse(String(changed))) == nil { caught += 1 }
    }
    #expect(caught == text.count - 1)
    var dropped = text
    dropped.remove(at: 30)
    #expect(throws: InviteError.checkFailed) { try Invite.parse(String(dropped)) }
  }

  @Test func refusesWhatIsNotAnInvite() {
    let key = Invite.base64url(InviteTests.key.bytes)
    func signed(_ body: String) -> String { body + "+" + Invite.check(body) }
    #expect(throws: InviteError.notAnInvite) { try Invite.parse("alice.example:7177") }
    #expect(throws: InviteError.noCheck) { try Invite.parse("tictactoe:\(key)@192.0.2.7/7177") }
    #expect(throws: InviteError.noCheck) { try Invite.parse("tictactoe:\(key)@192.0.2.7/7177+A93F17") }
    #expect(throws: InviteError.tooLong) { try Invite.parse(String(repeating: "a", count: 1025)) }
    #expect(throws: InviteError.badKey) { try Invite.parse(signed("tictactoe:\(key.dropLast())@192.0.2.7/7177")) }
    #expect(throws: InviteError.badKey) {
      try Invite.parse(signed("tictactoe:\(key.dropLast())+@192.0.2.7/7177"))
    }
    #expect(throws: InviteError.noAddress) { try Invite.parse(signed("tictactoe:\(key)@")) }
    #expect(throws: InviteError.noAddress) { try Invite.parse(signed("tictactoe:\(key)")) }
    #expect(throws: InviteError.badAddress("192.0.2.7")) { try Invite.parse(signed("tictactoe:\(key)@192.0.2.7")) }
    #expect(throws: InviteError.badAddress("bad_name/1")) { try Invite.parse(signed("tictactoe:\(key)@bad_name/1")) }
    #expect(throws: InviteError.badAddress("::g/1")) { try Invite.parse(signed("tictactoe:\(key)@::g/1")) }
    #expect(throws: InviteError.badAddress("fe80::1%/1")) { try Invite.parse(signed("tictactoe:\(key)@fe80::1%/1")) }
    #expect(throws: InviteError.badAddress("fe80::1%a*b/1")) {
      try Invite.parse(signed("tictactoe:\(key)@fe80::1%a*b/1"))
    }
    #expect(throws: InviteError.badPort("h/0")) { try Invite.parse(signed("tictactoe:\(key)@h/0")) }
    #expect(throws: InviteError.badPort("h/65536")) { try Invite.parse(signed("tictactoe:\(key)@h/65536")) }
    #expect(throws: InviteError.badPort("h/+1")) { try Invite.parse(signed("tictactoe:\(key)@h/+1")) }
    #expect(throws: InviteError.badAddress("")) { try Invite.parse(signed("tictactoe:\(key)@h/1,")) }
    let many = (0...Invite.maximumAddresses).map { "h\($0)/1" }.joined(separator: ",")
    #expect(throws: InviteError.tooManyAddresses) { try Invite.parse(signed("tictactoe:\(key)@\(many)")) }
    #expect(Invite(key: InviteTests.key, addresses: []) == nil)
    #expect(Invite(key: InviteTests.key, addresses: [.init(host: "a b", port: 1)]) == nil)
  }

  /// inet_aton, which the resolver uses for numbers, reads these as another address than they show: an invite
  /// holding one is refused, saying which address it would have been.
  @Test(arguments: [
    ("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0", "0.0.0.0"),
    ("127.1", "127.0.0.1"), ("192.0.2.07", "192.0.2.7"), ("010.0.0.1", "8.0.0.1"), ("0xc0.0.2.7", "192.0.2.7"),
  ])
  func refusesANumberThatMeansAnotherAddress(host: String, meaning: String) {
    let key = Invite.base64url(InviteTests.key.bytes)
    let body = "tictactoe:\(key)@192.0.2.7/7177,\(host)/7177"
    do {
      let invite = try Invite.parse(body + "+" + Invite.check(body))
      Issue.record("accepted \(invite)")
    } catch {
      #expect("\(error)".contains("taken for the address \(meaning)"), "\(error)")
    }
    #expect(Invite(key: InviteTests.key, addresses: [.init(host: host, port: 7177)]) == nil)
  }

  /// Neither an address nor a name: a name never ends in a label of digits.
  @Test func refusesANumberThatIsNoAddress() throws {
    let key = Invite.base64url(InviteTests.key.bytes)
    for host in ["1.2.3.4.5", "256.0.0.1", "example.123"] {
      let body = "tictactoe:\(key)@\(host)/7177"
      #expect(throws: InviteError.self, "\(host)") { try Invite.parse(body + "+" + Invite.check(body)) }
    }
    // What stays: four decimal numbers, names with digits, IPv6 with an IPv4 tail.
    let body = "tictactoe:\(key)@192.0.2.7/1,host7.example/1,a1/1,::ffff:192.0.2.7/1,10.0.0.255/1"
    #expect(try Invite.parse(body + "+" + Invite.check(body)).addresses.count == 5)
  }

  /// The key's last character carries 2 bits that are not the key's: only the one with them all zero is the
  /// key's own writing, so one key has one invite.
  @Test func refusesAKeyWhoseLastCharacterIsNotCanonical() throws {
    let key = Invite.base64url(InviteTests.key.bytes)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let last = try #require(key.last.flatMap { alphabet.firstIndex(of: $0) })
    #expect(last % 4 == 0)
    for stray in 1...3 {
      let body = "tictactoe:\(key.dropLast())\(alphabet[last + stray])@192.0.2.7/7177"
      #expect(throws: InviteError.badKey) { try Invite.parse(body + "+" + Invite.check(body)) }
    }
  }

  /// What a refusal says about a hostile text cannot steer the terminal.
  @Test func aRefusalShowsHostileTextEscaped() {
    let key = Invite.base64url(InviteTests.key.bytes)
    let body = "tictactoe:\(key)@\u{1B}]2;owned\u{07}/1"
    do {
      _ = try Invite.parse(body + "+" + Invite.check(body))
      Issue.record("accepted")
    } catch {
      #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 }, "\(error)")
    }
  }

  @Test func tellsAnInviteFromAnAddress() {
    #expect(Invite.isInvite(InviteTests.vector))
    #expect(Invite.isInvite(" Invite: tictactoe:x"))
    #expect(!Invite.isInvite("127.0.0.1:7177"))
    #expect(!Invite.isInvite("tictactoe.example"))
  }
}

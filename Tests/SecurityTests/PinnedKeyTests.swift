import Foundation
import PeerTrust
import Testing

@testable import Security

/// Pins as the seed articles' AFSecurityPolicy makes them: the key of a certificate file (PEM or DER), and more
/// than one (a backup key for a planned change of identity), each named in a refusal.
@Suite struct PinnedKeyTests {
  @Test func aCertificateFilePinsItsKeyWhetherPEMOrDER() throws {
    let pem = Array(Fixtures.bob.certificatePEM.utf8)
    #expect(try PinnedKey.fromCertificate(pem, file: "bob.crt").fingerprint == Fixtures.bob.fingerprint)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Fixtures.bob.certificatePEM.write(toFile: directory + "/bob.pem", atomically: false, encoding: .utf8)
    _ = try shell("openssl x509 -in \(directory)/bob.pem -outform DER -out \(directory)/bob.der")
    let der = try #require(FileManager.default.contents(atPath: directory + "/bob.der"))
    let pin = try PinnedKey.fromCertificate(Array(der), file: "bob.der")
    #expect(pin.fingerprint == Fixtures.bob.fingerprint && pin.source == "the key in bob.der")
    #expect(throws: SecurityError.self) { try PinnedKey.fromCertificate(Array("not a certificate".utf8), file: "x") }
  }

  @Test func anyOfSeveralPinsIsAcceptedAndARefusalNamesEachOne() throws {
    let backup = PinnedKey(Fixtures.makeIdentity("bob-new").fingerprint)
    let both = TrustOptions(
      policy: .pinned([backup, PinnedKey(Fixtures.bob.fingerprint, source: "the key in bob.crt")]))
    #expect(try Pair(clientOptions: both).client.trustDecision == .trusted(.pinned))
    let wrong = TrustOptions(
      policy: .pinned([backup, PinnedKey(Fixtures.alice.fingerprint, source: "the key in a.crt")]))
    let refused = try Pair(clientOptions: wrong)
    guard case .rejected(let failure) = refused.client.trustDecision else {
      Issue.record("a key matching no pin was accepted")
      return
    }
    let text = failure.description
    #expect(text.contains("not any of those you pinned"), "\(text)")
    #expect(text.contains("\(backup.fingerprint) (--pin)") && text.contains("(the key in a.crt)"), "\(text)")
    #expect(text.contains("presented: \(Fixtures.bob.fingerprint)"), "\(text)")
  }
}

import Foundation
import PeerTrust
import Testing

@testable import Security

/// Fingerprint format, parsing, stability across re-certification, and agreement with the openssl CLI.
@Suite struct FingerprintTests {
  @Test func printedFormIsOpenSSHStyle() {
    let text = Fixtures.alice.fingerprint.description
    #expect(text.hasPrefix("SHA256:"))
    #expect(!text.contains("="))
    #expect(text.dropFirst("SHA256:".count).count == 43)
    #expect(Fixtures.alice.fingerprint.bytes.count == 32)
  }

  @Test func parsesItsOwnOutput() {
    let fingerprint = Fixtures.alice.fingerprint
    #expect(Fingerprint(parsing: fingerprint.description) == fingerprint)
    #expect(Fingerprint(parsing: "  \(fingerprint)\n") == fingerprint)
    #expect(Fingerprint(parsing: "\(fingerprint)=") == fingerprint)
    #expect(Fingerprint(parsing: "MD5:\(fingerprint.description.dropFirst(7))") == nil)
    #expect(Fingerprint(parsing: "SHA256:abc") == nil)
    #expect(Fingerprint(parsing: "SHA256:" + String(repeating: "!", count: 43)) == nil)
  }

  @Test func base64MatchesKnownVectors() {
    #expect(Base64.encodeUnpadded(Array("f".utf8)) == "Zg")
    #expect(Base64.encodeUnpadded(Array("fo".utf8)) == "Zm8")
    #expect(Base64.encodeUnpadded(Array("foo".utf8)) == "Zm9v")
    #expect(Base64.encodeUnpadded(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64.decode("Zm9vYg==") == Array("foob".utf8))
    #expect(Base64.decode("Zm9vYg") == Array("foob".utf8))
    #expect(Base64.decode("Z") == nil)
  }

  @Test func readAloudIsEightGroupsOfHex() {
    let groups = Fixtures.alice.fingerprint.readAloud.split(separator: " ")
    #expect(groups.count == 8)
    #expect(groups.allSatisfy { $0.count == 4 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    let bytes = Fixtures.alice.fingerprint.bytes
    #expect(groups[0] == String(format: "%02x%02x", bytes[0], bytes[1]))
  }

  @Test func sameKeyRecertifiedKeepsTheFingerprint() throws {
    // Re-sign the same key under another name: the fingerprint covers the key only.
    let original = Fixtures.alice
    let renewed = try CertificateBuilder.build(
      commonName: "alice-renewed", key: original.key, validDays: 10, notBefore: nil, issuer: nil,
      isAuthority: false)
    let again = try Identity(key: original.key, certificate: renewed, chain: [])
    #expect(again.fingerprint == original.fingerprint)
    #expect(again.certificatePEM != original.certificatePEM)
    #expect(Fixtures.bob.fingerprint != original.fingerprint)
  }

  @Test func matchesTheOpenSSLCommandLine() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/alice.crt"
    try Fixtures.alice.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
    let output = try shell(
      "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform DER"
        + " | openssl dgst -sha256 -binary | base64")
    let expected =
      "SHA256:" + output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "=", with: "")
    #expect(Fixtures.alice.fingerprint.description == expected)
  }
}

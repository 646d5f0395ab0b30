import Foundation
import PeerTrust
import Testing

@testable import Security

/// Generating, importing and exporting identities (PEM, PKCS#12).
@Suite struct IdentityTests {
  @Test func generatedIdentityDescribesItself() throws {
    let before = nowSeconds()
    let identity = try Identity.generate(commonName: "alice", validDays: 10)
    let after = nowSeconds()
    #expect(identity.commonName == "alice")
    // Valid from the moment it was made.
    #expect(before <= identity.notBefore && identity.notBefore <= after)
    #expect(identity.notAfter - identity.notBefore == 10 * 86_400)
    #expect(identity.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
    #expect(identity.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    #expect(identity.chainPEM == nil)
    #expect(identity.certificate.dnsNames == ["alice"])
    #expect(identity.certificate.isSelfSigned)
  }

  @Test func certificateHasTheRequiredExtensions() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/c.pem"
    try Fixtures.alice.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
    let text = try shell("openssl x509 -in '\(path)' -noout -text")
    #expect(text.contains("Version: 3 (0x2)"))
    #expect(text.contains("ecdsa-with-SHA256"))
    #expect(text.contains("NIST CURVE: P-256") || text.contains("prime256v1"))
    #expect(text.contains("CA:FALSE"))
    #expect(text.contains("Digital Signature"))
    #expect(text.contains("TLS Web Server Authentication, TLS Web Client Authentication"))
    #expect(text.contains("DNS:alice"))
    let serial = try shell("openssl x509 -in '\(path)' -noout -serial")
    #expect(serial.trimmingCharacters(in: .whitespacesAndNewlines).count == "serial=".count + 32)
  }

  @Test func nameThatIsNotAHostGetsNoAlternativeName() throws {
    let identity = try Identity.generate(commonName: "Ann Lee", validDays: 1)
    #expect(identity.commonName == "Ann Lee")
    #expect(identity.certificate.dnsNames.isEmpty)
    #expect(HostName.isValid("bob.local") && !HostName.isValid("-bob") && !HostName.isValid("a..b"))
  }

  @Test func refusesImpossibleArguments() {
    #expect(throws: SecurityError.self) { try Identity.generate(commonName: "", validDays: 1) }
    #expect(throws: SecurityError.self) { try Identity.generate(commonName: "x", validDays: 0) }
  }

  @Test func pemRoundTrip() throws {
    let original = Fixtures.alice
    let loaded = try Identity(certificatePEM: original.certificatePEM, privateKeyPEM: original.privateKeyPEM)
    #expect(loaded.fingerprint == original.fingerprint)
    #expect(loaded.certificatePEM == original.certificatePEM)
    #expect(loaded.privateKeyPEM == original.privateKeyPEM)
    #expect(loaded.notAfter == original.notAfter)
  }

  @Test func keyOfAnotherIdentityIsRefused() {
    #expect(throws: SecurityError.keyDoesNotMatchCertificate) {
      try Identity(certificatePEM: Fixtures.alice.certificatePEM, privateKeyPEM: Fixtures.bob.privateKeyPEM)
    }
  }

  @Test func damagedPEMIsReported() {
    #expect(throws: SecurityError.invalidPEM(what: "certificate", reason: "no BEGIN CERTIFICATE block found")) {
      try Identity(certificatePEM: "hello", privateKeyPEM: Fixtures.alice.privateKeyPEM)
    }
    let broken = Fixtures.alice.certificatePEM.replacingOccurrences(of: "M", with: "*")
    #expect(throws: SecurityError.self) {
      try Identity(certificatePEM: broken, privateKeyPEM: Fixtures.alice.privateKeyPEM)
    }
    let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"
    #expect(throws: SecurityError.encryptedPrivateKey) {
      try Identity(certificatePEM: Fixtures.alice.certificatePEM, privateKeyPEM: encrypted)
    }
  }

  @Test func pkcs12RoundTripWithPassword() throws {
    let bytes = try Fixtures.alice.pkcs12(password: "correct horse")
    let loaded = try Identity(pkcs12: bytes, password: "correct horse")
    #expect(loaded.fingerprint == Fixtures.alice.fingerprint)
    #expect(loaded.commonName == "alice")
    #expect(loaded.chainPEM == nil)
  }

  @Test func pkcs12WithWrongPasswordIsRefusedClearly() throws {
    let bytes = try Fixtures.alice.pkcs12(password: "correct horse")
    #expect(throws: SecurityError.wrongPassword(passwordFile: "/pw")) {
      try Identity(pkcs12: bytes, password: "battery staple", passwordFile: "/pw")
    }
    #expect(throws: SecurityError.wrongPassword(passwordFile: nil)) {
      try Identity(pkcs12: bytes, password: "battery staple")
    }
    #expect(SecurityError.wrongPassword(passwordFile: "/pw").reason == "The password for the PKCS#12 file is wrong.")
    #expect(SecurityError.wrongPassword(passwordFile: "/pw").hint?.contains("--password-file (/pw)") == true)
    // Typed at the terminal, or not given at all: no word of a --password-file that was never given.
    #expect(SecurityError.wrongPassword(passwordFile: nil).hint?.contains("--password-file") == false)
    #expect(throws: SecurityError.passwordNeeded) { try Identity(pkcs12: bytes, password: nil) }
    #expect(SecurityError.passwordNeeded.hint?.contains("at a terminal") == true)
    // A file exported with no password needs none.
    let open = try Fixtures.alice.pkcs12(password: "")
    #expect(try Identity(pkcs12: open, password: nil).fingerprint == Fixtures.alice.fingerprint)
    #expect(throws: SecurityError.self) { try Identity(pkcs12: [1, 2, 3], password: "x") }
  }

  @Test func chainTravelsThroughPEMBundlesAndPKCS12() throws {
    let authority = try Identity.generateAuthority(commonName: "Club CA")
    let member = try Identity.generate(commonName: "carol", validDays: 5, notBefore: nil, issuer: authority)
    let bundled = try Identity(
      certificatePEM: member.certificatePEM + authority.certificatePEM, privateKeyPEM: member.privateKeyPEM)
    #expect(bundled.chainPEM == authority.certificatePEM)
    let restored = try Identity(pkcs12: try bundled.pkcs12(password: "pw"), password: "pw")
    #expect(restored.chainPEM == authority.certificatePEM)
    #expect(restored.fingerprint == member.fingerprint)
    #expect(PeerCertificate(identity: restored).chainDER.count == 2)
  }

  /// The public key a record keeps is made once with the certificate, and is the same however the certificate
  /// was read: from the identity, from the presented chain, or field by field.
  @Test func aPresentedCertificateCarriesItsPublicKeyAsTheIdentityWritesIt() throws {
    let identity = Fixtures.alice
    let key = try #require(identity.publicKeyBase64)
    #expect(PeerCertificate(identity: identity).publicKeyBase64 == key)
    let presented = try PeerCertificate(chainDER: [identity.certificate.der])
    #expect(presented.publicKeyBase64 == key)
    #expect(Fingerprint(publicKeyBase64: key) == identity.fingerprint)
    let described = PeerCertificate(
      fingerprint: presented.fingerprint, commonName: presented.commonName, dnsNames: [], notBefore: 0, notAfter: 0,
      issuerCommonName: presented.issuerCommonName, isSelfSigned: true, chainDER: presented.chainDER)
    #expect(described.publicKeyBase64 == key)
  }

  @Test func opensslCommandLineReadsOurPKCS12() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/alice.p12"
    try Data(try Fixtures.alice.pkcs12(password: "pw")).write(to: URL(fileURLWithPath: path))
    let output = try shell(
      "openssl pkcs12 -in '\(path)' -passin pass:pw -nokeys -clcerts 2>/dev/null | openssl x509 -noout -subject")
    #expect(output.contains("CN = alice"))
  }
}

import Foundation
import Testing

@testable import Security

/// A record's signature for every kind of key an imported identity may have: P-256 (the game's own), RSA and
/// Ed25519 (`identity import` takes any of them). Each is checked by this program and by the openssl command line
/// (`openssl dgst -sha256 -verify` for ECDSA and RSA; `openssl pkeyutl -verify -rawin` for Ed25519, which signs
/// the bytes themselves).
@Suite(.serialized) struct RecordKeyTypesTests {
  static let kinds: [(name: String, keygen: String, digest: Bool)] = [
    ("p256", "-newkey ec -pkeyopt ec_paramgen_curve:P-256", true),
    ("rsa", "-newkey rsa:2048", true),
    ("ed25519", "-newkey ed25519", false),
  ]

  @Test(arguments: kinds.map(\.name)) func aSignatureVerifiesHereAndWithOpenSSL(kind: String) throws {
    let spec = try #require(Self.kinds.first { $0.name == kind })
    let folder = try makeTemporaryDirectory()
    let identity = try opensslIdentity(spec.keygen, name: kind, in: folder)
    let bytes = Array("tictactoe record v1\nthe moves".utf8)
    let signature = try identity.sign(bytes)
    let key = try #require(identity.publicKeyBase64)
    #expect(RecordSignature.verify(signature, of: bytes, publicKeyBase64: key))
    #expect(!RecordSignature.verify(signature, of: bytes + [0], publicKeyBase64: key), "another text")
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/data"))
    try Data(signature).write(to: URL(fileURLWithPath: folder + "/signature"))
    let command =
      spec.digest
      ? "openssl dgst -sha256 -verify pub.pem -signature signature data"
      : "openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in data -sigfile signature"
    let said = try shell("cd '\(folder)' && \(command) 2>&1; true")
    #expect(said.contains("Verified OK") || said.contains("Signature Verified Successfully"), "\(kind): \(said)")
    // The key's signing context is set up once and copied for each signature: it signs again, other bytes.
    for round in 1...3 {
      let other = bytes + Array(" round \(round)".utf8)
      let again = try identity.sign(other)
      #expect(RecordSignature.verify(again, of: other, publicKeyBase64: key), "\(kind), round \(round)")
      #expect(!RecordSignature.verify(again, of: bytes, publicKeyBase64: key), "\(kind), round \(round)")
    }
  }
}

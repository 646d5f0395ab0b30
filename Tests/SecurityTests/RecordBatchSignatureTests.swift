import Foundation
import Testing

@testable import Security

/// Records signed in a batch (`RecordBatchSignature`): one signing covers every record of the batch, each record's
/// signature verifies for that record alone, and nothing about the path, the index or the root can be changed.
/// The format is checked against an implementation of its own (Python's hashlib and the openssl command line),
/// as docs/RECORDS.md describes it.
@Suite struct RecordBatchSignatureTests {
  private static let identity = Result { try Identity.generate(commonName: "batcher") }

  private func records(_ count: Int) -> [[UInt8]] {
    (0..<count).map { Array("tictactoe game record signature v1\nmoves \($0)\n".utf8) }
  }

  @Test(arguments: [1, 2, 3, 5, 8, 9, 100])
  func eachRecordOfABatchVerifiesAndNoOtherRecordDoes(count: Int) throws {
    let identity = try Self.identity.get()
    let key = try #require(identity.publicKeyBase64)
    let bytes = records(count)
    let signatures = try identity.sign(batch: bytes)
    #expect(signatures.count == count)
    for (index, signature) in signatures.enumerated() {
      #expect(RecordSignature.verify(signature, of: bytes[index], publicKeyBase64: key), "record \(index)")
      let other = bytes[(index + 1) % count] + (count == 1 ? [0x20] : [])
      #expect(!RecordSignature.verify(signature, of: other, publicKeyBase64: key), "record \(index), another's")
    }
    // A batch of one is the plain signature (DER), as every earlier program reads it.
    #expect(signatures.allSatisfy { $0.first == (count == 1 ? 0x30 : RecordBatchSignature.form) })
    // The depth is the smallest tree that holds the batch.
    let depths: [Int: Int] = [2: 1, 3: 2, 5: 3, 8: 3, 9: 4, 100: 7]
    #expect(count == 1 || signatures.allSatisfy { Int($0[1]) == depths[count] })
  }

  @Test func changingThePathTheIndexTheDepthOrTheKeyFailsIt() throws {
    let identity = try Self.identity.get()
    let key = try #require(identity.publicKeyBase64)
    let bytes = records(5)
    let signature = try identity.sign(batch: bytes)[2]
    #expect(RecordSignature.verify(signature, of: bytes[2], publicKeyBase64: key))
    func fails(_ change: (inout [UInt8]) -> Void, _ what: String) {
      var changed = signature
      change(&changed)
      #expect(!RecordSignature.verify(changed, of: bytes[2], publicKeyBase64: key), "\(what) still verifies")
    }
    fails({ $0[3] = 3 }, "another index")
    fails({ $0[3] = 8 }, "an index past the tree")
    fails({ $0[1] = 2 }, "a shallower tree")
    fails({ $0[1] = 0 }, "no tree")
    fails({ $0[1] = UInt8(RecordBatchSignature.maximumDepth + 1) }, "a tree too deep")
    fails({ $0[4] ^= 1 }, "the salt changed")
    fails({ $0[20] ^= 1 }, "the first sibling changed")
    fails({ $0[20 + 32 * 2] ^= 1 }, "the last sibling changed")
    fails({ $0[$0.count - 1] ^= 1 }, "the root's signature changed")
    fails({ $0.removeLast(40) }, "cut short")
    fails({ $0 = Array($0.prefix(20 + 32 * 3)) }, "without the root's signature")
    let stranger = try Identity.generate(commonName: "stranger")
    #expect(!RecordSignature.verify(signature, of: bytes[2], publicKeyBase64: try #require(stranger.publicKeyBase64)))
  }

  /// The largest batch's signatures fit the record signature message's 1,024 bytes with the game's P-256 key.
  @Test func theLargestBatchFitsTheMessage() throws {
    let identity = try Self.identity.get()
    #expect(identity.maximumSignatureBytes == 72)
    let signatures = try identity.sign(batch: records(RecordBatchSignature.maximumCount))
    let longest = try #require(signatures.map(\.count).max())
    #expect(longest <= RecordBatchSignature.maximumOverhead + identity.maximumSignatureBytes && longest <= 1024)
    #expect(signatures.allSatisfy { Int($0[1]) == RecordBatchSignature.maximumDepth })
  }

  /// A game's signature carries the hash of another game's leaf (its sibling); salted, it cannot confirm a guess
  /// of that game's record: the same two records signed twice give other siblings, neither the unsalted leaf.
  @Test func aSiblingsHashConfirmsNoGuessOfItsRecord() throws {
    let identity = try Self.identity.get()
    let bytes = records(2)
    let first = try identity.sign(batch: bytes)[0]
    let second = try identity.sign(batch: bytes)[0]
    let sibling = { (signature: [UInt8]) in Array(signature[20..<52]) }
    #expect(sibling(first) != sibling(second))
    #expect(sibling(first) != Digest.sha256([0x00] + bytes[1]) && Array(first[4..<20]) != Array(second[4..<20]))
  }

  /// The tree and the signed root as RECORDS.md describes them, worked out by Python's hashlib from the
  /// signature's bytes, and the root's signature checked by `openssl dgst`.
  @Test func anOutsideImplementationFindsTheSameRootAndOpenSSLChecksItsSignature() throws {
    let identity = try Self.identity.get()
    let bytes = records(6)
    let signatures = try identity.sign(batch: bytes)
    let folder = try makeTemporaryDirectory()
    let base64 = Array(try #require(identity.publicKeyBase64))
    let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
    let pem = "-----BEGIN PUBLIC KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PUBLIC KEY-----\n"
    try Data(pem.utf8).write(to: URL(fileURLWithPath: folder + "/pub.pem"))
    try Data(bytes[4]).write(to: URL(fileURLWithPath: folder + "/record"))
    try Data(signatures[4]).write(to: URL(fileURLWithPath: folder + "/batch"))
    let script = """
      import hashlib
      sig = open('batch', 'rb').read(); record = open('record', 'rb').read()
      assert sig[0] == 1
      depth, index, salt = sig[1], int.from_bytes(sig[2:4], 'big'), sig[4:20]
      h = hashlib.sha256(b'\\x00' + salt + record).digest()
      for step in range(depth):
          sibling = sig[20 + 32 * step: 20 + 32 * (step + 1)]
          h = hashlib.sha256(b'\\x01' + (h + sibling if (index >> step) & 1 == 0 else sibling + h)).digest()
      open('root', 'wb').write(b'tictactoe game record batch signature v1\\nroot ' + h.hex().encode() + b'\\n')
      open('der', 'wb').write(sig[20 + 32 * depth:])
      print(depth, index)
      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: folder + "/check.py"))
    let said = try shell(
      "cd '\(folder)' && python3 check.py && openssl dgst -sha256 -verify pub.pem -signature der root 2>&1; true")
    #expect(said.contains("3 4") && said.contains("Verified OK"), "\(said)")
  }

  /// Ed25519 signs the bytes themselves: a batch works the same, and a plain signature that happens to begin with
  /// the batch form's byte still verifies.
  @Test func anEd25519KeySignsBatchesAndItsPlainSignaturesStillVerify() throws {
    let folder = try makeTemporaryDirectory()
    let identity = try opensslIdentity("-newkey ed25519", name: "ed", in: folder)
    let key = try #require(identity.publicKeyBase64)
    let bytes = records(3)
    for (index, signature) in try identity.sign(batch: bytes).enumerated() {
      #expect(RecordSignature.verify(signature, of: bytes[index], publicKeyBase64: key))
    }
    var found = false
    for round in 0..<4096 where !found {
      let text = Array("tictactoe game record signature v1\nround \(round)\n".utf8)
      let signature = try identity.sign(text)
      guard signature.first == RecordBatchSignature.form else { continue }
      found = true
      #expect(RecordSignature.verify(signature, of: text, publicKeyBase64: key), "round \(round)")
    }
    #expect(found, "no signature began with 0x01 in 4,096: the test proves nothing")
  }
}

import Foundation
import Security
import Testing

@testable import PlayerFiles

/// Replacing the identity changes two files; a process killed between them must not leave a key and a
/// certificate from two different identities. The pending file carries the replacement to its end.
@Suite struct IdentityReplacementTests {
  @Test func aReplacementCutShortIsFinishedByTheNextLoad() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    try store.replace(with: Fixtures.alice)
    // What a process killed right after writing the pending file and the new key leaves behind.
    let pending = Fixtures.bob.privateKeyPEM + Fixtures.bob.certificatePEM
    try pending.write(toFile: store.pendingPath, atomically: false, encoding: .utf8)
    try Fixtures.bob.privateKeyPEM.write(toFile: store.keyPath, atomically: false, encoding: .utf8)
    for path in [store.pendingPath, store.keyPath] { chmod(path, 0o600) }  // as the program writes them
    #expect(try store.load()?.fingerprint == Fixtures.bob.fingerprint)
    #expect(try String(contentsOfFile: store.keyPath, encoding: .utf8) == Fixtures.bob.privateKeyPEM)
    #expect(try String(contentsOfFile: store.certificatePath, encoding: .utf8) == Fixtures.bob.certificatePEM)
    #expect(!FileManager.default.fileExists(atPath: store.pendingPath))
    #expect(try store.load()?.fingerprint == Fixtures.bob.fingerprint)
  }

  @Test func aCompleteReplacementLeavesNoPendingFile() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    try store.replace(with: Fixtures.alice)
    try store.replace(with: Fixtures.bob)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted() == [
        "identity.crt", "identity.key", "identity.past", "identity.previous",
      ])
    // identity.past: the replaced key stays the player's own (issue 29 item 4).
    #expect(store.ownKeys().past == [try #require(Fixtures.alice.publicKeyBase64)])
    #expect(try store.load()?.fingerprint == Fixtures.bob.fingerprint)
  }

  /// The identity a replacement replaced is kept (key and certificate in one private file), so a replacement
  /// made by mistake can be taken back; replacing an identity by itself keeps nothing.
  @Test func theReplacedIdentityIsKeptAndCanBeTakenBack() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    #expect(try store.replace(with: Fixtures.alice) == nil)
    #expect(!FileManager.default.fileExists(atPath: store.previousPath))
    #expect(try store.replace(with: Fixtures.bob) == store.previousPath)
    let attributes = try FileManager.default.attributesOfItem(atPath: store.previousPath)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let text = try String(contentsOfFile: store.previousPath, encoding: .utf8)
    let previous = try Identity(certificatePEM: text, privateKeyPEM: text)
    #expect(previous.fingerprint == Fixtures.alice.fingerprint)
    #expect(try store.replace(with: Fixtures.bob) == nil, "the same identity again replaces nothing")
    #expect(try Identity(certificatePEM: text, privateKeyPEM: text).fingerprint == Fixtures.alice.fingerprint)
  }

  @Test func aDamagedPendingFileIsReportedAndNothingIsReplaced() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    try store.replace(with: Fixtures.alice)
    try "-----BEGIN PRIVATE KEY-----\ncut short".write(toFile: store.pendingPath, atomically: false, encoding: .utf8)
    chmod(store.pendingPath, 0o600)
    #expect {
      try store.load()
    } throws: { error in
      guard let error = error as? SecurityError, case .corruptFile(let path, _) = error else { return false }
      return path == store.pendingPath
    }
    #expect(try String(contentsOfFile: store.keyPath, encoding: .utf8) == Fixtures.alice.privateKeyPEM)
    #expect(FileManager.default.fileExists(atPath: store.pendingPath))
  }
}

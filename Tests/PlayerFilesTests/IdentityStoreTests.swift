import Foundation
import Security
import Testing

@testable import PlayerFiles

/// The identity directory: permissions, reloading, and loud failures on damage.
@Suite struct IdentityStoreTests {
  func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
  }

  @Test func createsPrivateFilesAndReloadsTheSameIdentity() throws {
    let directory = try makeTemporaryDirectory() + "/nested/identity"
    let store = IdentityStore(directory: directory)
    let (created, isNew) = try store.loadOrCreate(commonName: "alice")
    #expect(isNew)
    #expect(try mode(directory) == 0o700)
    #expect(try mode(store.keyPath) == 0o600)
    let (reloaded, isNewAgain) = try store.loadOrCreate(commonName: "somebody else")
    #expect(!isNewAgain)
    #expect(reloaded.fingerprint == created.fingerprint)
    #expect(reloaded.commonName == "alice")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(leftovers == ["identity.crt", "identity.key"])
  }

  @Test func reportsACorruptFileWithItsPathAndKeepsIt() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    _ = try store.loadOrCreate(commonName: "alice")
    try "garbage".write(toFile: store.keyPath, atomically: false, encoding: .utf8)
    do {
      _ = try store.loadOrCreate(commonName: "alice")
      Issue.record("a corrupt key was accepted")
    } catch {
      guard case .corruptFile(let path, _) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(path == store.keyPath)
      #expect(error.description.contains(store.keyPath))
    }
    #expect(try String(contentsOfFile: store.keyPath, encoding: .utf8) == "garbage")
  }

  @Test func reportsACorruptCertificateWithItsPath() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    _ = try store.loadOrCreate(commonName: "alice")
    try "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"
      .write(toFile: store.certificatePath, atomically: false, encoding: .utf8)
    #expect {
      try store.loadOrCreate(commonName: "alice")
    } throws: { error in
      guard let error = error as? SecurityError, case .corruptFile(let path, _) = error else { return false }
      return path == store.certificatePath
    }
  }

  @Test func reportsAHalfPresentIdentity() throws {
    let store = IdentityStore(directory: try makeTemporaryDirectory())
    _ = try store.loadOrCreate(commonName: "alice")
    try FileManager.default.removeItem(atPath: store.certificatePath)
    #expect(throws: SecurityError.incompleteIdentity(present: store.keyPath, missing: store.certificatePath)) {
      try store.loadOrCreate(commonName: "alice")
    }
  }

  @Test func replaceStoresAnImportedIdentity() throws {
    let directory = try makeTemporaryDirectory()
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
    let store = IdentityStore(directory: directory)
    _ = try store.loadOrCreate(commonName: "alice")
    try store.replace(with: Fixtures.bob)
    #expect(try store.load()?.fingerprint == Fixtures.bob.fingerprint)
    #expect(try mode(directory) == 0o700)
    #expect(try mode(store.keyPath) == 0o600)
  }
}

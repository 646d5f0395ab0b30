import Security
import TestSupport

/// Identities the tests share: generating a key takes a while, so each is made once.
enum Fixtures {
  static let alice = makeIdentity("alice")
  static let bob = makeIdentity("bob")

  static func makeIdentity(_ name: String) -> Identity {
    do {
      return try Identity.generate(commonName: name)
    } catch {
      fatalError("cannot generate a test identity: \(error)")
    }
  }
}

/// A fresh empty directory in the test process's own (TestSupport's TestDirectory, removed at exit).
func makeTemporaryDirectory() throws -> String {
  try TestDirectory.make("player-files")
}

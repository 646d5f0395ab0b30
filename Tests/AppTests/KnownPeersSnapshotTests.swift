import Foundation
import Glibc
import PeerTrust
import Security
import TestSupport
import Testing

@testable import App
@testable import PlayerFiles

/// A host's or joiner's known peers are read from the file once and kept while it is unchanged: the steps of a
/// connection (trust, lookalikes, the name shown, what to remember) each asked for a whole read, which a 150 MB
/// file turned into seconds each on the event loop. A change on disk is always seen. (A match itself reads only the
/// lines it needs, through the index: `KnownPeersIndexFileTests`.)
@Suite struct KnownPeersSnapshotTests {
  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }

  @Test func theFileIsReadOnceWhileItIsUnchangedAndAgainWhenItChanges() throws {
    let root = try TestDirectory.make("snapshot")
    let profile = Profile(paths: Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"]), name: "alice")
    try profile.remember(name: "bob", fingerprint: Self.key(1))
    let path = profile.knownPeersPath
    let start = KnownPeersSnapshot.reads(of: path)
    for _ in 0..<5 { #expect(try profile.knownPeers().lookup(fingerprint: Self.key(1))?.name == "bob") }
    #expect(KnownPeersSnapshot.reads(of: path) - start <= 1, "read \(KnownPeersSnapshot.reads(of: path) - start) times")

    // Another program appends a line: seen at once.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("carol \(Self.key(2)) 2026-12-01\n".utf8))
    try handle.close()
    #expect(try profile.knownPeers().lookup(fingerprint: Self.key(2))?.name == "carol")

    // What this process writes (a host's address bound, a key appended) reads only the lines it needs, through
    // the index, never the whole file; the changed file is then seen by the next whole read.
    let beforeWrites = KnownPeersSnapshot.reads(of: path)
    try profile.remember(name: "dave", fingerprint: Self.key(3), address: "example.org:7177")
    try profile.bind(Self.key(3), to: "192.0.2.7:7177")
    #expect(KnownPeersSnapshot.reads(of: path) == beforeWrites, "the writes read the whole file")
    let kept = try profile.knownPeers()
    #expect(kept.lookup(fingerprint: Self.key(3))?.addresses == ["example.org:7177", "192.0.2.7:7177"])
    #expect(try KnownPeersFile(path: path).load() == kept)
  }
}

import Foundation
import PeerTrust
import Security
import TestSupport
import Testing

@testable import PlayerFiles

/// Atomic writes in the Security module: what a killed writer leaves behind is cleaned up, and nothing else.
@Suite struct FileSystemTests {
  @Test func aWriteRemovesTheTemporaryFilesOfKilledWritersOfTheSameFile() throws {
    let directory = try makeTemporaryDirectory()
    let dead = try ChildProcess.endedProcessID()
    let stale = "identity.key.tmp-\(dead)-0a1b2c"
    let live = "identity.key.tmp-\(getppid())-0a1b2c"
    let otherFile = "identity.crt.tmp-\(dead)-0a1b2c"
    let unrelated = "identity.key.tmp-notapid"
    for name in [stale, live, otherFile, unrelated] {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("half a key".utf8)))
    }
    try FileSystem.writeAtomically(directory + "/identity.key", bytes: Array("key".utf8), mode: 0o600)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    #expect(left == [live, otherFile, unrelated, "identity.key"])
  }

  @Test func knownPeersThatAreNotUTF8NameTheLineAndAreNotDecoded() throws {
    let path = try makeTemporaryDirectory() + "/known_peers"
    let entry = "alice SHA256:\(String(repeating: "A", count: 43)) 2026-01-01\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(Array(entry.utf8) + [0x62, 0xF6, 0x0A])))
    #expect(throws: KnownPeersError.malformed(path: path, line: 2, reason: "the line is not valid UTF-8 text")) {
      try KnownPeersFile(path: path).load()
    }
  }
}

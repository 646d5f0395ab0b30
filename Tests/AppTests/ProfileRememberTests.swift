import Foundation
import Glibc
import PeerTrust
import Security
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import PlayerFiles

/// What a host's `remember` does to known_peers: a new key is one appended line, not the file rewritten.
@Suite struct ProfileRememberTests {
  static func profile() throws -> Profile {
    let root = try TestDirectory.make("remember")
    return Profile(paths: Paths(environment: ["HOME": root, "XDG_DATA_HOME": root + "/data"]), name: "alice")
  }

  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }

  static func inode(_ path: String) -> UInt {
    var info = stat()
    return stat(path, &info) == 0 ? UInt(info.st_ino) : 0
  }

  @Test func aNewKeyIsAppendedAndTheFileKeepsItsOtherLines() throws {
    let profile = try Self.profile()
    try profile.remember(name: "bob", fingerprint: Self.key(1))
    let before = Self.inode(profile.knownPeersPath)
    try profile.remember(name: "carol", fingerprint: Self.key(2))
    #expect(Self.inode(profile.knownPeersPath) == before, "rewritten, not appended")
    let peers = try profile.knownPeers()
    #expect(peers.lookup(fingerprint: Self.key(1))?.name == "bob")
    #expect(peers.lookup(fingerprint: Self.key(2))?.name == "carol")
  }

  @Test func aHostsAddressOrATornLastLineRewritesTheFileWhole() throws {
    let profile = try Self.profile()
    try profile.remember(name: "bob", fingerprint: Self.key(1))
    // A joiner binds the host's key to the address it typed: that line changes, so the file is rewritten.
    try profile.remember(name: "host", fingerprint: Self.key(3), address: "example.org:7177")
    #expect(try profile.knownPeers().lookup(fingerprint: Self.key(3))?.addresses == ["example.org:7177"])
    // A line cut short (a program killed while appending) is dropped when the file is next written.
    let handle = try #require(FileHandle(forWritingAtPath: profile.knownPeersPath))
    handle.seekToEndOfFile()
    handle.write(Data("mallory SHA256:cut".utf8))
    try handle.close()
    try profile.remember(name: "dave", fingerprint: Self.key(4))
    let text = try String(contentsOfFile: profile.knownPeersPath, encoding: .utf8)
    #expect(!text.contains("mallory") && text.hasSuffix("\n"), "\(text)")
    #expect(try profile.knownPeers().lookup(fingerprint: Self.key(4))?.name == "dave")
  }
}

/// Issue 25, item 11: writers that change known_peers at once do not lose each other's changes (12 joins at once
/// used to remember 5 of their 12 hosts). Threads here; each opens the lock on its own, as processes do
/// (`KnownPeersLockTests` runs the binary).
@Suite struct ConcurrentKnownPeersWritesTests {
  @Test func twelveJoinsRememberingTheirHostsAtOnceKeepAllTwelve() throws {
    let root = try TestDirectory.make("concurrent-remember")
    let environment = ["HOME": root, "XDG_DATA_HOME": root + "/data"]
    let seed = Profile(paths: Paths(environment: environment), name: "bob")
    try seed.remember(name: "alice", fingerprint: ProfileRememberTests.key(100))
    let failures = Mutex<[String]>([])
    let done = DispatchGroup()
    for index in 1...12 {
      done.enter()
      Thread {
        defer { done.leave() }
        do {
          // A host's key with the address it was joined at: the whole file is read, changed and rewritten.
          try Profile(paths: Paths(environment: environment), name: "bob").remember(
            name: "host\(index)", fingerprint: ProfileRememberTests.key(UInt8(index)),
            address: "host\(index).example:7177")
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }.start()
    }
    #expect(done.wait(timeout: .now() + 60) == .success, "the writers did not finish within 60 s")
    #expect(failures.withLock { $0 }.isEmpty)
    let peers = try KnownPeersFile(path: seed.knownPeersPath).load()
    #expect(peers.count == 13, "\(peers.render())")
    for index in 1...12 {
      #expect(
        peers.lookup(address: "host\(index).example:7177")?.fingerprint == ProfileRememberTests.key(UInt8(index)),
        "host\(index) lost: \(peers.render())")
    }
  }
}

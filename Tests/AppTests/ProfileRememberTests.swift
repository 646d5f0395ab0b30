import Foundation
import Glibc
import Security
import TestSupport
import Testing

@testable import App

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

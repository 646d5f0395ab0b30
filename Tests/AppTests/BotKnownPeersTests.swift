import EventLoop
import Foundation
import PeerTrust
import Security
import TestSupport
import Testing

@testable import App
@testable import PlayerFiles
@testable import PracticeBot

/// A bot with --accept-new keeps its known peers in memory and appends each new one off the loop, rewriting
/// the file only after a torn line (or every `compactEvery` new keys).
@Suite struct BotKnownPeersTests {
  private func key(_ number: Int) -> Fingerprint {
    Fingerprint(bytes: [UInt8(number)] + [UInt8](repeating: 7, count: 31)) ?? Fingerprint(bytes: [])!
  }

  private func inode(_ path: String) -> UInt64 {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
  }

  /// Runs the loop until the writes handed out have come back (bounded).
  private func settle(_ loop: EventLoop, _ peers: BotKnownPeers) {
    for _ in 0..<500 where peers.isWriting { loop.runOnce(maximumWait: 0.01) }
  }

  @Test func newPeersAreAppendedOffTheLoopWithoutRewritingTheFile() throws {
    let root = try TestDirectory.make("bot-known")
    let path = root + "/known_peers"
    try "# players\nold \(key(0)) 2026-11-30\n".write(toFile: path, atomically: true, encoding: .utf8)
    let before = inode(path)
    let loop = EventLoop()
    let peers = try BotKnownPeers(file: KnownPeersFile(path: path), loop: loop, log: Log(path: root + "/log"))
    #expect(peers.remember(name: "a", fingerprint: key(1)))
    #expect(peers.remember(name: "b", fingerprint: key(2)))
    #expect(!peers.remember(name: "a", fingerprint: key(1)))
    // Known at once, in memory, before anything is on disk.
    #expect(peers.known.lookup(fingerprint: key(2))?.name == "b")
    settle(loop, peers)
    #expect(!peers.isWriting)
    let loaded = try KnownPeersFile(path: path).load()
    #expect(loaded.entries.map(\.name) == ["old", "a", "b"])
    #expect(inode(path) == before, "the file was rewritten, not appended to")
  }

  @Test func aTornLastLineIsDroppedLoggedAndTheFileRewrittenBeforeAppending() throws {
    let root = try TestDirectory.make("bot-known")
    let path = root + "/known_peers"
    try "old \(key(0)) 2026-11-30\nhalf SHA256:AAA".write(toFile: path, atomically: true, encoding: .utf8)
    let loop = EventLoop()
    let peers = try BotKnownPeers(file: KnownPeersFile(path: path), loop: loop, log: Log(path: root + "/log"))
    #expect(peers.known.entries.map(\.name) == ["old"])
    peers.remember(name: "a", fingerprint: key(1))
    settle(loop, peers)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains("half"))
    #expect(try KnownPeersFile(path: path).load().entries.map(\.name) == ["old", "a"])
    let log = try String(contentsOfFile: root + "/log", encoding: .utf8)
    #expect(log.contains("known_peers:2: a line cut short (a write was interrupted) was dropped"))
  }

  /// Issue 25, item 11: the whole rewrite starts from the file as it is under the lock, so a peer another process
  /// forgot while the bot served does not come back (it wrote its own copy before).
  @Test func theWholeRewriteKeepsAnotherProcesssForget() throws {
    let root = try TestDirectory.make("bot-known")
    let path = root + "/known_peers"
    try "old \(key(0)) 2026-11-30\nhalf SHA256:AAA".write(toFile: path, atomically: true, encoding: .utf8)
    let loop = EventLoop()
    let peers = try BotKnownPeers(file: KnownPeersFile(path: path), loop: loop, log: Log(path: root + "/log"))
    // `tictactoe peers forget old`, run while the bot serves.
    let file = KnownPeersFile(path: path)
    try file.locked { try file.save(try file.load().removing(nameOrFingerprint: "old").peers) }
    peers.remember(name: "a", fingerprint: key(1))  // the torn line makes this write the whole file
    settle(loop, peers)
    #expect(try KnownPeersFile(path: path).load().entries.map(\.name) == ["a"])
  }
}

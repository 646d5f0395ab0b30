import Foundation
import Glibc
import PeerTrust
import Security
import Testing

@testable import PlayerFiles

/// known_peers is read a piece at a time, with no limit on the whole file: a line may be split anywhere, and a
/// bot that let millions in still starts.
@Suite struct KnownPeersReaderTests {
  let alice = Fixtures.alice.fingerprint
  let bob = Fixtures.bob.fingerprint

  private var sample: [UInt8] {
    Array("# peers\r\n\nalice \(alice) 2026-11-01 at=h%3A1\nAnn%20Lee \(bob) 2026-11-02\r\nbo".utf8) + [0xC3]
  }

  private func read(_ bytes: [UInt8], cutAt cuts: [Int]) throws -> KnownPeers {
    var reader = KnownPeersReader(path: "p")
    var start = 0
    for cut in cuts + [bytes.count] {
      try reader.feed(bytes[start..<cut])
      start = cut
    }
    return try reader.finish()
  }

  @Test func aLineSplitAnywhereReadsAsTheWholeFileDoes() throws {
    let whole = try read(sample, cutAt: [])
    #expect(whole.entries.map(\.name) == ["alice", "Ann Lee"])
    #expect(whole.droppedTornLine == 5)
    for cut in 0...sample.count {
      let split = try read(sample, cutAt: [cut])
      #expect(split == whole && split.droppedTornLine == 5, "cut at \(cut)")
    }
    let bytewise = try read(sample, cutAt: Array(1..<sample.count))
    #expect(bytewise == whole && bytewise.entries.first?.addresses == ["h:1"])
  }

  @Test func aBadLineIsRefusedWithItsNumberWhicheverPieceItEndsIn() {
    let bytes = Array("alice \(alice) 2026-11-01\nbob SHA256:xyz 2026-01-01\nbob \(bob) 2026-11-02\n".utf8)
    let refusal = KnownPeersError.malformed(
      path: "p", line: 2, reason: "\"SHA256:xyz\" is not a fingerprint of the form SHA256:<43 base64 characters>")
    for cut in [0, 10, 50, bytes.count - 1] {
      #expect(throws: refusal, "cut at \(cut)") { try read(bytes, cutAt: [cut]) }
    }
  }

  @Test func aLineWithNoEndIsRefusedOnceItPassesTheLimit() {
    var reader = KnownPeersReader(path: "p")
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 19)
    #expect(throws: Never.self) {
      try reader.feed(piece[...])
      try reader.feed(piece[...])
    }
    #expect(throws: KnownPeersError.malformed(path: "p", line: 1, reason: "the line is longer than 1 MiB")) {
      try reader.feed([UInt8(ascii: "a")][...])
    }
  }

  @Test func aCompleteLineOverTheLimitIsRefusedWhereverThePiecesEnd() {
    let long = [UInt8](repeating: UInt8(ascii: "#"), count: KnownPeersReader.lineLimit + 1) + [UInt8(ascii: "\n")]
    for cuts in [[], [10], [long.count - 1]] {
      #expect(throws: KnownPeersError.malformed(path: "p", line: 1, reason: "the line is longer than 1 MiB")) {
        try read(long, cutAt: cuts)
      }
    }
  }

  /// Past the 256 MiB the file used to be read up to (a bot that refused to start): 257 comment lines of
  /// 1 MiB, then the one player, who is found.
  @Test func aFileLargerThan256MiBLoads() throws {
    let path = try makeTemporaryDirectory() + "/known_peers"
    defer { unlink(path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    var comment = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    comment[0] = UInt8(ascii: "#")
    comment[comment.count - 1] = UInt8(ascii: "\n")
    for _ in 0..<257 {
      #expect(comment.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == comment.count)
    }
    let last = Array("alice \(alice) 2026-11-01\n".utf8)
    #expect(last.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == last.count)
    close(fd)
    let peers = try KnownPeersFile(path: path).load()
    #expect(peers.lookup(fingerprint: alice)?.line == 258)
  }
}

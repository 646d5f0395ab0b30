import Foundation
import Glibc
import PeerTrust
import Security
import TestSupport
import Testing

@testable import PlayerFiles

/// known_peers' index on disk: made, used, and never believed over known_peers when it is stale, damaged or
/// someone else's; what a match remembers is written a line at a time, as a whole rewrite would write it.
@Suite struct KnownPeersIndexFileTests {
  static func key(_ byte: UInt8) -> Fingerprint { Fingerprint(bytes: [UInt8](repeating: byte, count: 32))! }
  static let day = CalendarDay(year: 2026, month: 11, day: 29)!

  /// A directory with a known_peers of `count` players (player0…), alice bound to alice.example:7177 among them.
  static func setUp(_ label: String, count: Int = 3000) throws -> (KnownPeersFile, KnownPeersIndexFile) {
    let directory = try TestDirectory.make("kp-index-" + label)
    let file = KnownPeersFile(path: directory + "/known_peers")
    var text = "# players\n"
    for number in 0..<count {
      let bytes = (0..<32).map { UInt8(truncatingIfNeeded: number >> (8 * ($0 % 3))) ^ UInt8($0) }
      text += "player\(number) \(Fingerprint(bytes: bytes)!) 2026-11-2\(number % 10)\n"
      if number == count / 2 { text += "alice \(key(1)) 2026-11-29 at=alice.example:7177\n" }
    }
    try write(text, to: file.path)
    return (file, KnownPeersIndexFile(peersPath: file.path))
  }

  static func write(_ text: String, to path: String, append: Bool = false) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    #expect(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
  }

  static func inode(_ path: String) -> UInt64 {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
  }

  static let queries: [KnownPeersQuery] = [
    KnownPeersQuery(key: key(1), names: ["alice"], address: "alice.example:7177"),
    KnownPeersQuery(key: key(7), names: ["ALICE"], address: "alice.example:7177"),
    KnownPeersQuery(key: key(7), names: ["player42", "nobody"], address: "elsewhere:1"),
    KnownPeersQuery(key: nil, names: ["player 2999"], address: nil),
  ]

  /// Every query answered as the whole file answers it.
  static func expectSameAsTheWholeFile(_ file: KnownPeersFile, _ index: KnownPeersIndexFile) throws {
    let whole = try file.load()
    for query in queries {
      let part = try index.excerpt(query)
      #expect(part == whole.excerpt(for: query), "\(query)")
      #expect(part.entries.map(\.line) == whole.excerpt(for: query).entries.map(\.line))
    }
  }

  @Test func theIndexIsMadeOnceAndAnswersAsTheWholeFile() throws {
    let (file, index) = try Self.setUp("made")
    #expect(try index.prepare()?.entries == 3001)
    let made = Self.inode(index.path)
    try Self.expectSameAsTheWholeFile(file, index)
    #expect(Self.inode(index.path) == made, "the index was made again though known_peers did not change")
    #expect(try index.excerpt(Self.queries[0]).lookup(address: "alice.example:7177")?.line == 1503)
  }

  @Test func aChangedKnownPeersIsNeverAnsweredFromTheOldIndex() throws {
    let (file, index) = try Self.setUp("stale")
    try index.prepare()
    // Another process binds alice's address to mallory's key, and forgets alice (a rewrite of the same size).
    let text = String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self)
    let changed = text.replacingOccurrences(of: "alice \(Self.key(1))", with: "alice \(Self.key(7))")
    try Self.write(changed, to: file.path)
    #expect(try index.excerpt(Self.queries[1]).lookup(address: "alice.example:7177")?.fingerprint == Self.key(7))
    try Self.write("carol \(Self.key(9)) 2026-11-30\n", to: file.path, append: true)
    #expect(try index.excerpt(KnownPeersQuery(key: Self.key(9), names: [], address: nil)).count == 1)
    try Self.expectSameAsTheWholeFile(file, index)
  }

  @Test func aDamagedIndexIsMadeAgainNotBelieved() throws {
    let (file, index) = try Self.setUp("damaged")
    try index.prepare()
    // One byte of a record block changed: the block's checksum fails wherever the search goes through it.
    for block in [1, 5, 17] {
      let descriptor = open(index.path, O_RDWR)
      var byte: UInt8 = 0
      _ = pread(descriptor, &byte, 1, off_t(block * KnownPeersIndex.blockSize + 200))
      byte ^= 0x40
      _ = pwrite(descriptor, &byte, 1, off_t(block * KnownPeersIndex.blockSize + 200))
      close(descriptor)
      try Self.expectSameAsTheWholeFile(file, index)
    }
    // An index cut short, and one of garbage.
    truncate(index.path, off_t(3 * KnownPeersIndex.blockSize))
    try Self.expectSameAsTheWholeFile(file, index)
    try Self.write(String(repeating: "x", count: 9000), to: index.path)
    try Self.expectSameAsTheWholeFile(file, index)
  }

  @Test func anIndexPointingAtOtherLinesIsNotBelieved() throws {
    let (file, index) = try Self.setUp("misplaced", count: 200)
    try index.prepare()
    // player42 and player43 swap places (lines of the same length): each one's records point at the other's line.
    let text = String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.swapAt(43, 44)
    #expect(lines[43].count == lines[44].count && lines[44].hasPrefix("player42 "))
    try Self.write(lines.joined(separator: "\n"), to: file.path)
    // The stamp is made to match again: only the lines themselves can tell.
    let header = try #require(KnownPeersIndex.decodeHeader(Self.block(index.path, 0)))
    var moved = header
    let descriptor = open(file.path, O_RDONLY)
    moved.source = try #require(KnownPeersIndexFile.stamp(descriptor))
    close(descriptor)
    let headerBytes = KnownPeersIndex.encode(moved)
    let indexDescriptor = open(index.path, O_WRONLY)
    #expect(pwrite(indexDescriptor, headerBytes, headerBytes.count, 0) == headerBytes.count)
    close(indexDescriptor)
    try Self.expectSameAsTheWholeFile(file, index)
  }

  static func block(_ path: String, _ number: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: KnownPeersIndex.blockSize)
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    _ = pread(descriptor, &bytes, bytes.count, off_t(number * KnownPeersIndex.blockSize))
    return bytes
  }

  @Test func anIndexOthersCouldWriteIsNeitherBelievedNorWritten() throws {
    let (file, index) = try Self.setUp("exposed", count: 100)
    try index.prepare()
    chmod(index.path, 0o666)
    let made = Self.inode(index.path)
    try Self.expectSameAsTheWholeFile(file, index)
    #expect(Self.inode(index.path) == made, "an index others can write was replaced in place")
  }

  @Test func aTornLastLineIsReportedAndLeftOut() throws {
    let (file, index) = try Self.setUp("torn", count: 50)
    try Self.write("mallory SHA256:cut", to: file.path, append: true)
    #expect(try index.prepare()?.droppedTornLine == 53)
    #expect(try index.excerpt(KnownPeersQuery(key: nil, names: ["mallory"], address: nil)).count == 0)
  }

  @Test func linesAppendedUnderTheLockAreMergedIntoTheIndex() throws {
    let (file, index) = try Self.setUp("append", count: 2000)
    let before = try #require(try index.prepare())
    // The file ends without its newline (an entry, not a torn line): the append puts one first.
    let text = String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self)
    try Self.write(String(text.dropLast()), to: file.path)
    #expect(try index.prepare()?.droppedTornLine == nil)
    let lines: [KnownPeers.Line] = [
      .peer(name: "Erin", fingerprint: Self.key(5), added: Self.day, addresses: ["erin.example:1"]),
      .peer(name: "frank", fingerprint: Self.key(6), added: Self.day),
    ]
    try file.locked { try index.appending(lines) { try file.append(lines: lines) } }
    let after = try #require(try index.prepare())
    #expect(after.entries == before.entries + 2 && after.lines == before.lines + 2)
    #expect(after.records == before.records + 5)
    let found = try index.excerpt(KnownPeersQuery(key: Self.key(6), names: ["ERIN"], address: "erin.example:1"))
    #expect(found.entries.map(\.line) == [before.lines + 1, before.lines + 2])
    try Self.expectSameAsTheWholeFile(file, index)
    // An index that was not the file's before the append is made again, not merged into.
    try Self.write("# changed by hand\n", to: file.path, append: true)
    let more: [KnownPeers.Line] = [.peer(name: "gina", fingerprint: Self.key(8), added: Self.day)]
    try file.locked { try index.appending(more) { try file.append(lines: more) } }
    #expect(
      try index.excerpt(KnownPeersQuery(key: Self.key(8), names: [], address: nil)).entries.map(\.line)
        == [before.lines + 4])
    try Self.expectSameAsTheWholeFile(file, index)
  }

  @Test func oneLineReplacedCopiesTheRestAsItIsAndBringsTheIndexAlong() throws {
    let (file, index) = try Self.setUp("replace", count: 3000)
    try Self.write("# a comment\r\nzoe \(Self.key(3)) 2026-11-30\n", to: file.path, append: true)
    try index.prepare()
    let before = String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self)
    let alice = KnownPeers.Line.peer(
      name: "alice", fingerprint: Self.key(1), added: Self.day, addresses: ["alice.example:7177", "[::1]:7392"])
    // Not alice's line: nothing is written.
    #expect(try !index.replace(line: 1502, of: Self.key(1), with: alice))
    #expect(String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self) == before)
    #expect(try index.replace(line: 1503, of: Self.key(1), with: alice))
    let expected = before.replacingOccurrences(
      of: "alice.example:7177\n", with: "alice.example:7177 at=[::1]:7392\n")
    #expect(String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self) == expected)
    let made = Self.inode(index.path)
    let found = try index.excerpt(KnownPeersQuery(key: Self.key(3), names: ["player2999"], address: "[::1]:7392"))
    #expect(found.entries.map(\.line) == [1503, 3002, 3004])
    try Self.expectSameAsTheWholeFile(file, index)
    #expect(Self.inode(index.path) == made, "the index was made again: the replace did not bring it along")
    // An index that is not the file's: nothing is written.
    try Self.write("# by hand\n", to: file.path, append: true)
    let changed = String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self)
    #expect(try !index.replace(line: 1503, of: Self.key(1), with: alice))
    #expect(String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self) == changed)
  }

  @Test func aLookupWaitsForAWriterAtWorkInsteadOfMakingTheIndexItself() throws {
    let (file, index) = try Self.setUp("writer", count: 500)
    try index.prepare()
    let appended = DispatchSemaphore(value: 0)
    let line = KnownPeers.Line.peer(name: "hana", fingerprint: Self.key(9), added: Self.day)
    let writer = Thread {
      try? file.locked {
        try file.append(lines: [line])  // the index is out of date from here
        appended.signal()
        usleep(400_000)  // the writer's work, then the index brought up to date, all under the lock
        try index.rebuild()
      }
    }
    writer.start()
    #expect(appended.wait(timeout: .now() + 10) == .success)
    let start = DispatchTime.now()
    let found = try index.excerpt(KnownPeersQuery(key: Self.key(9), names: [], address: nil))
    let waited = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    #expect(found.count == 1)
    #expect(waited > 0.2, "the lookup did not wait for the writer (\(waited) s)")
  }

  @Test func aLineAtATimeRewriteWritesWhatAWholeRewriteWouldWithItsIndex() throws {
    let (file, _) = try Self.setUp("rewrite", count: 500)
    try Self.write("dave \(Self.key(4)) 2026-11-30\r\ncut", to: file.path, append: true)
    var expected = try file.load()
    expected.bind(Self.key(1), to: "[::1]:7392")
    expected.add(name: "erin", fingerprint: Self.key(5), date: Self.day, address: "erin.example:1")
    let aliceLine = try #require(expected.lookup(fingerprint: Self.key(1))?.line)
    try file.rewrite(
      { line, number in number == aliceLine ? KnownPeersFile.adding("[::1]:7392", to: line) : line },
      appending: [.peer(name: "erin", fingerprint: Self.key(5), added: Self.day, addresses: ["erin.example:1"])])
    #expect(String(decoding: try #require(try FileSystem.read(file.path)), as: UTF8.self) == expected.render())
    // The index was made for the new file as it was written: used as it is, not made again.
    let index = KnownPeersIndexFile(peersPath: file.path)
    let made = Self.inode(index.path)
    #expect(made != 0, "no index was made with the rewrite")
    try Self.expectSameAsTheWholeFile(file, index)
    #expect(Self.inode(index.path) == made, "the index made with the rewrite was not the new file's")
  }

  @Test func anExcerptIsNeverSavedInPlaceOfTheFile() throws {
    let (file, index) = try Self.setUp("excerpt", count: 10)
    let part = try index.excerpt(Self.queries[0])
    #expect(throws: SecurityError.self) { try file.save(part) }
    #expect(try file.load().count == 11)
  }
}

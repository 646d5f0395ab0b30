import Foundation
import PeerTrust
import Security
import Testing

@testable import PlayerFiles

/// A bot that lets everyone in appends to known_peers: a torn last line (killed while appending) is dropped,
/// not refused; a file of 100,000 players loads, and its lookups go through the index.
@Suite struct KnownPeersAppendTests {
  let day = CalendarDay(parsing: "2026-12-01") ?? CalendarDay.today()

  private func key(_ number: Int) -> Fingerprint {
    var bytes = [UInt8](repeating: 0, count: 32)
    withUnsafeBytes(of: UInt64(number).bigEndian) { bytes.replaceSubrange(0..<8, with: $0) }
    return Fingerprint(bytes: bytes) ?? Fixtures.alice.fingerprint
  }

  @Test func appendedLinesLoadBackWithoutRewritingTheFile() throws {
    let path = try makeTemporaryDirectory() + "/data/known_peers"
    let file = KnownPeersFile(path: path)
    try file.append([(name: "ann lee", fingerprint: key(1), added: day)])
    try file.append([(name: "bob", fingerprint: key(2), added: day), (name: "cy", fingerprint: key(3), added: day)])
    let peers = try file.load()
    #expect(peers.entries.map(\.name) == ["ann lee", "bob", "cy"])
    #expect(peers.lookup(fingerprint: key(3))?.line == 3)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func aTornLastLineIsDroppedAndTheNextAppendStartsOnItsOwnLine() throws {
    let path = try makeTemporaryDirectory() + "/known_peers"
    let whole = "alice \(key(1)) 2026-12-01\n"
    let torn = "bob \(key(2))".prefix(20)
    try (whole + torn).write(toFile: path, atomically: true, encoding: .utf8)
    let file = KnownPeersFile(path: path)
    let peers = try file.load()
    #expect(peers.entries.map(\.name) == ["alice"])
    #expect(peers.droppedTornLine == 2)
    // Cut inside a multi-byte character: not UTF-8, still a torn line.
    try FileManager.default.removeItem(atPath: path)
    try Data(Array(whole.utf8) + [0x62, 0xC3]).write(to: URL(fileURLWithPath: path))
    #expect(try file.load().droppedTornLine == 2)
    try file.append([(name: "cy", fingerprint: key(3), added: day)])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes == Array(whole.utf8) + [0x62, 0xC3] + Array("\ncy \(key(3)) 2026-12-01\n".utf8))
  }

  @Test func aBadLineThatEndsWithItsNewlineIsStillRefused() throws {
    let path = try makeTemporaryDirectory() + "/known_peers"
    try "alice \(key(1)) 2026-12-01\nbob SHA256:xyz 2026-01-01\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      throws: KnownPeersError.malformed(
        path: path, line: 2, reason: "\"SHA256:xyz\" is not a fingerprint of the form SHA256:<43 base64 characters>")
    ) {
      try KnownPeersFile(path: path).load()
    }
    // A complete last line without its newline (a hand edit) is kept.
    try "alice \(key(1)) 2026-12-01".write(toFile: path, atomically: true, encoding: .utf8)
    let peers = try KnownPeersFile(path: path).load()
    #expect(peers.count == 1 && peers.droppedTornLine == nil)
  }

  @Test func aHundredThousandPlayersLoadAndAreLookedUpByKeyNameAndAddress() throws {
    let path = try makeTemporaryDirectory() + "/known_peers"
    var text = "# a bot's players\n"
    for number in 0..<100_000 { text += "player\(number) \(key(number)) 2026-12-01\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(text.utf8.count > 7_000_000)
    var peers = try KnownPeersFile(path: path).load()
    #expect(peers.count == 100_000)
    #expect(peers.lookup(fingerprint: key(99_999))?.name == "player99999")
    #expect(peers.lookup(fingerprint: key(99_999))?.line == 100_001)
    #expect(peers.lookup(name: "player5")?.fingerprint == key(5))
    peers.bind(key(7), to: "bot.example:7177")
    #expect(peers.lookup(address: "bot.example:7177")?.name == "player7")
    #expect(peers.remove(nameOrFingerprint: "player0") == 1)
    #expect(peers.lookup(fingerprint: key(99_999))?.line == 100_000)
    #expect(peers.lookup(address: "bot.example:7177")?.name == "player7")
    #expect(peers.rename(nameOrFingerprint: "player7", to: "seven") == 1)
    #expect(peers.lookup(name: "seven")?.fingerprint == key(7) && peers.lookup(name: "player7") == nil)
    peers.add(name: "new", fingerprint: key(100_000), date: day)
    #expect(peers.lookup(fingerprint: key(100_000))?.line == 100_001)
    #expect(peers.contains(name: "new", fingerprint: key(100_000)))
  }
}

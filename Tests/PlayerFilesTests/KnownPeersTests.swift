import Foundation
import PeerTrust
import Security
import Testing

@testable import PlayerFiles

/// The known-peers file format: round trips, escaping, line-numbered errors, removal.
@Suite struct KnownPeersTests {
  let alice = Fixtures.alice.fingerprint
  let bob = Fixtures.bob.fingerprint
  let day = CalendarDay(year: 2026, month: 11, day: 29)

  var sample: String {
    """
    # tictactoe known peers

    alice \(alice) 2026-11-01
    bob \(bob) 2026-11-02
    Ann%20Lee \(alice) 2026-11-03

    """
  }

  @Test func parseAndRenderRoundTrip() throws {
    let peers = try KnownPeers.parse(sample, path: "kp")
    #expect(peers.render() == sample)
    #expect(peers.entries.map(\.name) == ["alice", "bob", "Ann Lee"])
    #expect(peers.entries.map(\.line) == [3, 4, 5])
    #expect(peers.lookup(name: "bob")?.fingerprint == bob)
    #expect(peers.lookup(name: "bob")?.added == CalendarDay(year: 2026, month: 11, day: 2))
    #expect(peers.lookup(fingerprint: alice)?.name == "alice")
    #expect(peers.lookup(name: "carol") == nil)
    #expect(try KnownPeers.parse(peers.render(), path: "kp") == peers)
  }

  @Test func acceptsWindowsLineEndingsAndTabs() throws {
    let peers = try KnownPeers.parse("alice\t\(alice)\t2026-11-01\r\n", path: "kp")
    #expect(peers.lookup(name: "alice")?.fingerprint == alice)
  }

  @Test func namesWithSpacesAndSignsAreEscaped() throws {
    guard let day else { return }
    let peers = KnownPeers().adding(name: "Zoë #1 100%", fingerprint: bob, date: day)
    #expect(peers.render() == "Zo\u{eb}%20%231%20100%25 \(bob) 2026-11-29\n")
    #expect(try KnownPeers.parse(peers.render(), path: "kp").entries.first?.name == "Zoë #1 100%")
  }

  @Test(arguments: [
    ("alice \(Fixtures.alice.fingerprint)", "expected 3 fields (name, fingerprint, date) but found 2"),
    ("alice MD5:abc 2026-01-01", "\"MD5:abc\" is not a fingerprint of the form SHA256:<43 base64 characters>"),
    ("alice \(Fixtures.alice.fingerprint) 2026-02-30", "\"2026-02-30\" is not a date of the form YYYY-MM-DD"),
    ("al%2 \(Fixtures.alice.fingerprint) 2026-02-03", "the name \"al%2\" has a % not followed by two hex digits"),
  ])
  func errorsNameThePathLineAndReason(line: String, reason: String) {
    let text = "# header\nbob \(Fixtures.bob.fingerprint) 2026-11-02\n\(line)\n"
    #expect(throws: KnownPeersError.malformed(path: "/tmp/kp", line: 3, reason: reason)) {
      try KnownPeers.parse(text, path: "/tmp/kp")
    }
    let message = KnownPeersError.malformed(path: "/tmp/kp", line: 3, reason: reason).description
    #expect(message.hasPrefix("/tmp/kp:3: \(reason)"))
  }

  @Test func removesByNameAndByFingerprint() throws {
    let peers = try KnownPeers.parse(sample, path: "kp")
    let (withoutBob, removedBob) = peers.removing(nameOrFingerprint: "bob")
    #expect(removedBob == 1)
    #expect(withoutBob.entries.map(\.name) == ["alice", "Ann Lee"])
    let (withoutAliceKey, removedKey) = peers.removing(nameOrFingerprint: alice.description)
    #expect(removedKey == 2)
    #expect(withoutAliceKey.entries.map(\.name) == ["bob"])
    #expect(withoutAliceKey.render().hasPrefix("# tictactoe known peers\n\nbob "))
    #expect(peers.removing(nameOrFingerprint: "nobody").removed == 0)
  }

  /// A petname: the player's own name for a key. Renaming keeps the key, the date and the addresses.
  @Test func renamesByNameAndByFingerprint() throws {
    var peers = try KnownPeers.parse(sample + "carol \(bob) 2026-11-04 at=h.example:7177\n", path: "kp")
    #expect(peers.rename(nameOrFingerprint: "alice", to: "Alice (work)") == 1)
    #expect(peers.entries.map(\.name) == ["Alice (work)", "bob", "Ann Lee", "carol"])
    #expect(peers.rename(nameOrFingerprint: bob.description, to: "Bob") == 2)
    #expect(peers.entries.map(\.name) == ["Alice (work)", "Bob", "Ann Lee", "Bob"])
    #expect(peers.entries[3].addresses == ["h.example:7177"])
    #expect(peers.entries[3].added == CalendarDay(year: 2026, month: 11, day: 4))
    #expect(peers.rename(nameOrFingerprint: "nobody", to: "x") == 0)
    let again = try KnownPeers.parse(peers.render(), path: "kp")
    #expect(again == peers)
    #expect(again.lookup(fingerprint: alice)?.name == "Alice (work)")
  }

  @Test func addingIsIdempotentForTheSamePair() throws {
    guard let day else { return }
    let peers = KnownPeers().adding(name: "alice", fingerprint: alice, date: day)
    #expect(peers.adding(name: "alice", fingerprint: alice, date: day) == peers)
    #expect(peers.adding(name: "alice", fingerprint: bob, date: day).entries(named: "alice").count == 2)
  }

  @Test func fileIsSavedPrivatelyAndLoadedBack() throws {
    let path = try makeTemporaryDirectory() + "/config/known_peers"
    let file = KnownPeersFile(path: path)
    #expect(try file.load() == KnownPeers())
    let peers = try KnownPeers.parse(sample, path: path)
    try file.save(peers)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try file.load() == peers)
    try "alice nonsense 2026-01-01\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: KnownPeersError.self) { try file.load() }
  }
}

import PeerTrust
import Security
import Testing
import UntrustedText

@testable import App
@testable import MatchCoordination

/// An invite pins a key for one connection: it never renames, shadows or rebinds a known peer (issue 25, item
/// 4). Mallory's certificate says `alice`; the alice the player knows has another key. Hello names never enter
/// here: what is remembered comes from the certificate, and the hello names in the pair test differ from it.
struct InviteMemoryTests {
  static let alice = MatchPair.key(1)
  static let mallory = MatchPair.key(9)
  static let carol = MatchPair.key(3)
  static let aliceAddress = "127.0.0.1:7177"

  /// alice met at her address; carol met at another.
  static func known() throws -> KnownPeers {
    try KnownPeers.parse(
      "alice \(alice) 2026-11-29 at=\(aliceAddress)\ncarol \(carol) 2026-11-30 at=carol.example:7177\n",
      path: "known_peers")
  }

  @Test func aNewKeyUnderAKnownNameIsNotRememberedAndThePlayerIsWarned() throws {
    let (memory, warnings) = InviteMemory.decide(
      certificateName: "alice", key: Self.mallory, address: "192.0.2.7:7177", known: try Self.known())
    #expect(memory == .nothing)
    #expect(warnings.first == "WARNING: a new player calling itself alice — not the alice you know.", "\(warnings)")
    #expect(warnings.contains { $0.contains("known alice: \(Self.alice) (known_peers line 1)") }, "\(warnings)")
    #expect(warnings.contains { $0.contains("this one:  \(Self.mallory)") }, "\(warnings)")
  }

  @Test func aLookalikeNameCountsAsTheKnownOne() throws {
    let (memory, warnings) = InviteMemory.decide(
      certificateName: "A\u{200B}lice ", key: Self.mallory, address: nil, known: try Self.known())
    #expect(memory == .nothing)
    #expect(!warnings.isEmpty)
  }

  @Test func aNewKeyAtAKnownHostsAddressIsNeverBoundThere() throws {
    // Another name, so only the address is at stake: the key is remembered without it.
    let (memory, warnings) = InviteMemory.decide(
      certificateName: "mal", key: Self.mallory, address: Self.aliceAddress, known: try Self.known())
    #expect(memory == .remember(name: "mal", key: Self.mallory, address: nil))
    #expect(warnings.count == 1 && warnings[0].contains("where you met alice"), "\(warnings)")
    // Under alice's own name, at alice's address: nothing at all.
    let (both, said) = InviteMemory.decide(
      certificateName: "alice", key: Self.mallory, address: Self.aliceAddress, known: try Self.known())
    #expect(both == .nothing)
    #expect(said.contains { $0.contains("where you met alice") } && said.contains { $0.contains("not the alice") })
  }

  @Test func aKnownKeyKeepsItsNameAndIsBoundOnlyWhereNoOtherKeyIs() throws {
    // carol's key, whatever its certificate says now, is carol: no new entry, the free address bound to it.
    let (memory, warnings) = InviteMemory.decide(
      certificateName: "alice", key: Self.carol, address: "198.51.100.4:7177", known: try Self.known())
    #expect(memory == .bind(Self.carol, address: "198.51.100.4:7177") && warnings.isEmpty)
    let (taken, said) = InviteMemory.decide(
      certificateName: "carol", key: Self.carol, address: Self.aliceAddress, known: try Self.known())
    #expect(taken == .nothing && said.count == 1, "\(said)")
    let (already, none) = InviteMemory.decide(
      certificateName: "carol", key: Self.carol, address: "carol.example:7177", known: try Self.known())
    #expect(already == .nothing && none.isEmpty)
  }

  @Test func aNewHostWithAFreshNameIsRememberedWithItsAddress() throws {
    let (memory, warnings) = InviteMemory.decide(
      certificateName: "dave", key: MatchPair.key(4), address: "192.0.2.9:7177", known: try Self.known())
    #expect(memory == .remember(name: "dave", key: MatchPair.key(4), address: "192.0.2.9:7177"))
    #expect(warnings.isEmpty)
  }

  /// The model itself never moves an address from one key to another (a write re-applied under the lock goes
  /// through it).
  @Test func knownPeersNeverRebindsAnAddressHeldByAnotherKey() throws {
    var peers = try Self.known()
    peers.bind(Self.carol, to: Self.aliceAddress)
    let day = try #require(CalendarDay(parsing: "2026-12-01"))
    peers.add(name: "mal", fingerprint: Self.mallory, date: day, address: Self.aliceAddress)
    #expect(peers.lookup(address: Self.aliceAddress)?.fingerprint == Self.alice)
    #expect(!peers.render().contains("carol \(Self.carol) 2026-11-30 at=carol.example:7177 at="), "\(peers.render())")
    #expect(!peers.render().contains("mal \(Self.mallory) 2026-12-01 at="), "\(peers.render())")
  }

  /// The joiner's coordinator, joined with Mallory's invite (hello name `mallory`, certificate `alice`): the
  /// player is warned, and nothing is written.
  @Test func theJoinerIsWarnedAndRemembersNothing() throws {
    var pair = MatchPair(known: try Self.known())
    pair.joiner.inviteKey = Self.mallory
    pair.connect(joinerSees: MatchPair.facts("alice", Self.mallory, .trusted(.pinned)))
    let writes = pair.joinerCommands.filter {
      switch $0 {
      case .remember, .bind: true
      default: false
      }
    }
    #expect(writes.isEmpty, "\(writes)")
    let statuses = pair.joinerEvents.compactMap { if case .status(let line) = $0 { line } else { nil } }
    #expect(statuses.contains { $0.contains("not the alice you know") }, "\(statuses)")
    #expect(statuses.contains { $0.contains("where you met alice") }, "\(statuses)")
  }

  /// The host's hello name is not its certificate's: Mallory's certificate says `mal`, her hello `alice` (the
  /// pair's host). She is remembered as `mal`, and the hello draws the warning the certificate did not.
  @Test func aHelloNameLikeAKnownPeersIsWarnedOfToo() throws {
    var pair = MatchPair(known: try Self.known())
    pair.joiner.inviteKey = Self.mallory
    pair.connect(joinerSees: MatchPair.facts("mal", Self.mallory, .trusted(.pinned)))
    let remembered = pair.joinerCommands.compactMap {
      if case .remember(let name, let key, _) = $0 { (name, key) } else { nil }
    }
    #expect(remembered.count == 1 && remembered.first?.0 == "mal" && remembered.first?.1 == Self.mallory)
    let statuses = pair.joinerEvents.compactMap { if case .status(let line) = $0 { line } else { nil } }
    #expect(
      statuses.contains("WARNING: a new player calling itself alice — not the alice you know."), "\(statuses)")
    // A known key saying hello by another known name is that known peer: shown by its name, nothing to warn of.
    var known = MatchPair(known: try Self.known())
    known.connect(joinerSees: MatchPair.facts("carol", Self.carol, .trusted(.knownPeer(name: "carol"))))
    #expect(!known.joinerEvents.contains { if case .status(let line) = $0 { line.contains("WARNING") } else { false } })
  }

  /// --accept-new lets a new key in without a question: one whose certificate name is like a known peer's is
  /// still shown as not that peer (the host did this already; the joiner said nothing).
  @Test func underAcceptNewTheJoinerIsWarnedOfALookalike() throws {
    var pair = MatchPair(known: try Self.known())
    pair.connect(joinerSees: MatchPair.facts("Alice", Self.mallory, .trusted(.acceptedNew)))
    let statuses = pair.joinerEvents.compactMap { if case .status(let line) = $0 { line } else { nil } }
    #expect(
      statuses.contains("WARNING: a new player calling itself Alice — not the Alice you know."), "\(statuses)")
    #expect(statuses.contains { $0.contains("known alice: \(Self.alice)") }, "\(statuses)")
  }
}

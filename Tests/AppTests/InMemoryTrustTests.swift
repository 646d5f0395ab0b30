import PeerTrust
import PlayerFiles
import TestSupport
import Testing

@testable import App
@testable import MatchCoordination
@testable import NetworkShell

/// Keys met again, changed, forgotten and declined, on the real host and joiner shells in memory: what the
/// end-to-end `NetworkTests` checked of trust with processes, each with the exit status the command line gives.
@Suite(.serialized) struct InMemoryTrustTests {
  static var acceptNew: NetworkOptions {
    var options = NetworkOptions()
    options.acceptNew = true
    return options
  }

  /// `tictactoe peers forget NAME` in `home`, as the command line runs it.
  static func forget(_ name: String, in home: [String: String]) {
    _ = IdentityCommands.run(PeersCommand.forget(name), profile: Profile(paths: Paths(environment: home), name: "me"))
  }

  /// Bob (in `bobHome`) meets the host once and leaves; the host is taken off the table.
  static func meetOnce(_ table: InMemoryMatch, host: MemoryPlayer, bobHome: [String: String]) throws {
    let bob = try table.join(host, options: acceptNew, home: bobHome)
    try table.meet(host, bob)
    bob.take(bob.match.quit())
    #expect(table.run { host.end != nil })
    table.remove(bob)
    table.remove(host)
  }

  /// Alice comes back with a new key at the address where Bob met her: KEY CHANGED (21) even with --accept-new,
  /// naming both keys, the file and the command that forgets the old one. Elsewhere the new key is a new host,
  /// asked about with a warning that it is not the alice Bob knows; after `peers forget` Bob plays the new alice.
  @Test func aChangedHostKeyIsRefusedLoudlyByTheJoiner() throws {
    let table = InMemoryMatch()
    let bobHome = try SandboxHome.make().environment
    var first: MemoryPlayer? = try table.host(options: Self.acceptNew)
    let port = try #require(first?.hostMatch.port)
    let old = try #require(first?.identity.fingerprint)
    try Self.meetOnce(table, host: try #require(first), bobHome: bobHome)
    first = nil
    let aliceHome = try SandboxHome.make().environment
    let host = try table.host(options: Self.acceptNew, port: port, home: aliceHome)
    let new = host.identity.fingerprint
    #expect(new != old)
    let joiner = try table.join(host, options: Self.acceptNew, home: bobHome)
    #expect(table.run { joiner.end != nil })
    let end = try #require(joiner.end)
    #expect(ExitStatus.code(for: end) == 21, "\(end)")
    let message = end.description
    #expect(message.contains("\(old)") && message.contains("\(new)"), "\(message)")
    #expect(message.contains("known_peers") && message.contains("tictactoe peers forget \(old)"), "\(message)")
    let elsewhere = try table.host(home: aliceHome)
    let wary = try table.join(elsewhere, home: bobHome)
    #expect(table.run { wary.question != nil })
    let asked = try #require(wary.question).text
    #expect(asked.contains("Trust this new host?") && asked.contains("not the alice you know"), "\(asked)")
    #expect(asked.contains("\(old)") && asked.contains("\(new)"), "\(asked)")
    wary.take(wary.match.answer(accept: false))
    #expect(table.run { wary.end != nil })
    #expect(wary.end.map(ExitStatus.code(for:)) == 26, "\(String(describing: wary.end))")
    table.remove(elsewhere)
    // The host at the old address served on; once Bob forgot the old key, he plays the new alice there.
    Self.forget("alice", in: bobHome)
    let again = try table.join(host, options: Self.acceptNew, home: bobHome)
    #expect(table.run { again.myMark != nil && host.myMark != nil }, "\(again.events)")
    again.take(again.match.quit())
    #expect(table.run { host.end != nil })
    #expect(host.end.map(ExitStatus.code(for:)) == 30)
  }

  /// A host knows joiners by key: Bob with a new key is a new player calling himself bob, let in with
  /// --accept-new with a warning naming both keys; without it the host's player is asked, with the same warning,
  /// and a refusal is the joiner's 27.
  @Test func aChangedJoinerKeyIsANewPlayerAndTheHostIsWarned() throws {
    let table = InMemoryMatch()
    let aliceHome = try SandboxHome.make().environment
    let oldHome = try SandboxHome.make().environment
    try Self.meetOnce(table, host: try table.host(options: Self.acceptNew, home: aliceHome), bobHome: oldHome)
    let oldBob = try Profile(paths: Paths(environment: oldHome), name: "bob").identity(options: NetworkOptions()).0
    let host = try table.host(options: Self.acceptNew, home: aliceHome)
    let joiner = try table.join(host, options: Self.acceptNew)
    #expect(table.run { joiner.myMark != nil && host.myMark != nil }, "\(joiner.events)")
    let warning = host.statuses.joined(separator: "\n")
    #expect(warning.contains("WARNING: a new player calling itself bob — not the bob you know."), "\(warning)")
    #expect(warning.contains("\(oldBob.fingerprint)") && warning.contains("\(joiner.identity.fingerprint)"))
    joiner.take(joiner.match.quit())
    #expect(table.run { host.end != nil })
    #expect(host.end.map(ExitStatus.code(for:)) == 30)
    table.remove(host)
    let asking = try table.host(home: aliceHome)
    let third = try table.join(asking, options: Self.acceptNew, address: "127.0.0.3")
    #expect(table.run { asking.question != nil })
    let asked = try #require(asking.question).text
    #expect(asked.contains("Let this new player join?") && asked.contains("not the bob you know"), "\(asked)")
    asking.take(asking.match.answer(accept: false))
    #expect(table.run { third.end != nil })
    #expect(third.end.map(ExitStatus.code(for:)) == 27, "\(String(describing: third.end))")
  }

  /// The host decides on known_peers as the file is when a joiner comes, not as it was when hosting began: bob,
  /// forgotten meanwhile (`peers forget` from another process) and back with a new key, is a new player, with no
  /// warning about a bob the host no longer knows.
  @Test func aPeerForgottenWhileHostingIsForgottenByTheHost() throws {
    let table = InMemoryMatch()
    let aliceHome = try SandboxHome.make().environment
    try Self.meetOnce(
      table, host: try table.host(options: Self.acceptNew, home: aliceHome), bobHome: try SandboxHome.make().environment
    )
    let host = try table.host(options: Self.acceptNew, home: aliceHome)
    table.settle(0.1)
    Self.forget("bob", in: aliceHome)
    let joiner = try table.join(host, options: Self.acceptNew)
    #expect(table.run { joiner.myMark != nil && host.myMark != nil }, "\(joiner.events)")
    #expect(!host.statuses.contains { $0.contains("not the bob you know") }, "\(host.statuses)")
  }

  /// A pin names the only key accepted: a host with another key is refused (20), the refusal naming the pin; a
  /// host with that key is played with nothing asked.
  @Test func pinsAcceptOnlyThatKey() throws {
    let table = InMemoryMatch()
    let host = try table.host(options: Self.acceptNew)
    var wrong = NetworkOptions()
    let other = try table.host(name: "mallory")
    wrong.pins = [PinnedKey(other.identity.fingerprint)]
    let refused = try table.join(host, options: wrong)
    #expect(table.run { refused.end != nil })
    let end = try #require(refused.end)
    #expect(ExitStatus.code(for: end) == 20 && end.description.contains("\(other.identity.fingerprint)"), "\(end)")
    var right = NetworkOptions()
    right.pins = [PinnedKey(host.identity.fingerprint)]
    let pinned = try table.join(host, name: "carol", options: right, address: "127.0.0.3")
    #expect(table.run { pinned.myMark != nil && host.myMark != nil }, "\(pinned.events)")
    #expect(pinned.question == nil)
  }

  /// The host declines bob (27, "declined"); carol declines the host's key (26); the host serves dave after both.
  @Test func declinesOnEitherSideAreNamed() throws {
    let table = InMemoryMatch()
    let host = try table.host()
    let bob = try table.join(host, options: Self.acceptNew)
    #expect(table.run { host.question != nil })
    host.take(host.match.answer(accept: false))
    #expect(table.run { bob.end != nil })
    #expect(bob.end?.description == "The host declined to play with you.")
    #expect(bob.end.map(ExitStatus.code(for:)) == 27)
    let carol = try table.join(host, name: "carol", address: "127.0.0.3")
    #expect(table.run { carol.question != nil })
    carol.take(carol.match.answer(accept: false))
    #expect(table.run { carol.end != nil })
    #expect(carol.end == .declinedByPlayer && carol.end.map(ExitStatus.code(for:)) == 26)
    table.settle(0.1)
    let dave = try table.join(host, name: "dave", options: Self.acceptNew, address: "127.0.0.4")
    #expect(table.run { host.question?.peerName.description == "dave" })
    host.take(host.match.answer(accept: true))
    #expect(table.run { dave.myMark != nil && host.myMark != nil })
    dave.take(dave.match.quit())
    #expect(table.run { host.end != nil })
    #expect(host.end.map(ExitStatus.code(for:)) == 30)
  }
}

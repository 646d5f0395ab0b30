import Foundation
import PeerTrust
import Security
import TestSupport
import Testing

/// Invites between two real processes over loopback: `host` prints one and `tictactoe invite` prints it again;
/// `join INVITE` asks nothing, remembers the host, and refuses any other key; a typo is caught before connecting.
@Suite(.serialized) struct InviteTests {
  typealias Home = NetworkTests.Home

  private func host(_ home: Home, _ extra: [String] = []) throws -> (Player, port: Int, invite: String) {
    let player = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--accept-new", "--ui", "plain"] + extra,
      environment: home.environment)
    let port = try #require(player.announcedPort(), "host did not start: \(player.errors)")
    #expect(player.waitFor("Waiting for an opponent"), "\(player.output)")
    let line = try #require(
      player.output.split(separator: "\n").first { $0.hasPrefix("Invite: ") }, "no invite: \(player.output)")
    return (player, port, String(line.dropFirst("Invite: ".count)))
  }

  @Test func joiningWithTheInviteAsksNothingAndRemembersTheHost() throws {
    let alice = try Home("alice")
    let bob = try Home("bob")
    let (host, port, invite) = try host(alice)
    let parsed = try Invite.parse(invite)
    #expect(parsed.key.description == (try alice.fingerprint()))
    #expect(parsed.addresses == [.init(host: "127.0.0.1", port: UInt16(port))])
    // `tictactoe invite` prints the running host's invite, for copying.
    let printed = try Binary.run(["invite"], environment: alice.environment)
    #expect(printed.status == 0 && printed.stdout == invite + "\n", "\(printed)")

    let joiner = try Player(["join", invite, "--ui", "plain"], environment: bob.environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(!joiner.output.contains("Trust it?"))
    let known = try String(
      contentsOfFile: bob.environment["XDG_DATA_HOME"]! + "/tictactoe/known_peers", encoding: .utf8)
    #expect(known.contains("alice \(try alice.fingerprint()) "), "\(known)")
    #expect(known.contains("at=127.0.0.1:\(port)"), "\(known)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    #expect(host.exitStatus() == 30)
    // The host is gone, and so is its invite.
    let after = try Binary.run(["invite"], environment: alice.environment)
    #expect(after.status == 1 && after.stdout.isEmpty, "\(after)")
    #expect(after.stderr.contains("you are not hosting a game"), "\(after)")
    // Bob gives her key the name he knows her by; a name that could steer a terminal is refused.
    let renamed = try Binary.run(["peers", "rename", "alice", "Alice W"], environment: bob.environment)
    #expect(renamed.status == 0 && renamed.stdout == "Renamed 1 key to Alice W.\n", "\(renamed)")
    let hostile = try Binary.run(
      ["peers", "rename", try alice.fingerprint(), "\u{1B}]2;owned\u{07}"], environment: bob.environment)
    #expect(hostile.status == 64 && hostile.stderr.contains("cannot be a name"), "\(hostile)")
    #expect(!hostile.stderr.contains("\u{1B}"))
    let listed = try Binary.run(["peers"], environment: bob.environment)
    #expect(
      listed.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("Alice W\t\(try alice.fingerprint())") == true,
      "\(listed)")
    // Bob knows her now: joining her by address asks nothing either, and she is shown by his name for her.
    let (again, port2, _) = try self.host(alice)
    let byAddress = try Player(["join", "127.0.0.1:\(port2)", "--ui", "plain"], environment: bob.environment)
    #expect(byAddress.waitFor("game 1:"), "\(byAddress.output)\(byAddress.errors)")
    #expect(!byAddress.output.contains("Trust it?"))
    #expect(byAddress.output.contains("opponent: Alice W (calls itself alice)"), "\(byAddress.output)")
    byAddress.send("quit")
    #expect(byAddress.exitStatus() == 0)
    #expect(again.exitStatus() == 30)
  }

  /// An invite whose key is not the host's (someone else answers at its address) is refused as a pin mismatch
  /// that names the invite, and nothing is remembered.
  @Test func anInviteForAnotherKeyIsRefused() throws {
    let alice = try Home("alice")
    let bob = try Home("bob")
    let (host, port, _) = try host(alice)
    let carolKey = try #require(Fingerprint(parsing: try Home("carol").fingerprint()))
    let forged = try #require(Invite(key: carolKey, addresses: [.init(host: "127.0.0.1", port: UInt16(port))]))
    let joiner = try Player(["join", forged.description, "--ui", "plain"], environment: bob.environment)
    #expect(joiner.exitStatus() == 20, "\(joiner.output)\(joiner.errors)")
    #expect(joiner.errors.contains("\(carolKey) (the invite)"), "\(joiner.errors)")
    #expect(joiner.errors.contains(try alice.fingerprint()), "\(joiner.errors)")
    let known =
      (try? String(contentsOfFile: bob.environment["XDG_DATA_HOME"]! + "/tictactoe/known_peers", encoding: .utf8)) ?? ""
    #expect(!known.contains(try alice.fingerprint()), "\(known)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  /// The full-screen host and the lobby: the invite pasted into the join field pins the key (no question on the
  /// joiner's side), and one with a typo is refused on the screen before anything is sent.
  @Test func anInvitePastedIntoTheLobbyJoinsWithNothingToCheck() throws {
    let alice = try Home("alice")
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port 0 --bind 127.0.0.1; echo EXIT=$?; sleep 30'",
      environment: alice.environment)
    try host.waitFor(text: "Waiting for an opponent")
    let invite = try Binary.run(["invite"], environment: alice.environment).stdout.trimmingCharacters(in: .newlines)
    #expect(invite.hasPrefix("tictactoe:"), "\(invite)")
    let lobby = try TmuxSession(
      command: "sh -c '\(Binary.path); echo EXIT=$?; sleep 30'", environment: try Home("bob").environment)
    try lobby.waitFor(text: "Play the computer")
    func join(_ text: String) throws {
      try lobby.send("Up", "Up", "Up", "Up", "Up", "Up")
      try lobby.send("Down", "Down", "Down", "Enter")
      let screen = try lobby.waitFor(text: "Join a game by address")
      #expect(screen.contains("or an invite (tictactoe:…)"), "\(screen)")
      try lobby.send("C-u")
      try lobby.send("-l", text)
      try lobby.send("Enter")
    }
    var typo = Array(invite)
    typo[15] = typo[15] == "x" ? "y" : "x"
    try join(String(typo))
    try lobby.waitFor(text: "its check does not match")
    try lobby.send("Escape")
    try lobby.waitFor(text: "Play the computer")
    try join(invite)
    let waiting = try lobby.waitFor(text: "Waiting for alice to let you in")
    #expect(!waiting.contains("Trust it?"))
    try host.waitFor(text: "bob wants to join — accept?")
    try host.send("y")
    try lobby.waitFor(text: "Game 1:")
    try host.waitFor(text: "Game 1:")
  }

  /// Issue 25, item 4: Mallory hosts with her own key, a certificate named `alice` and the hello name `mal`, at
  /// the address where bob met the real alice. Bob joins with her invite: the game goes on (the invite pins her
  /// key for it), he is warned twice (not the alice he knows; alice's address), and known_peers is left as it
  /// was, so a plain `join` to that address still finds Mallory's key changed.
  @Test func anInviteNeitherShadowsNorRebindsAKnownHost() throws {
    let mallory = try Home("alice")
    let malloryKey = try mallory.fingerprint()
    let bob = try Home("bob")
    let alice = try Identity.generate(commonName: "alice")
    #expect(alice.fingerprint.description != malloryKey)
    let (host, port, invite) = try host(mallory, ["--name", "mal", "--keep-hosting"])
    let data = try #require(bob.environment["XDG_DATA_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(
      atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let known = "alice \(alice.fingerprint) 2026-11-29 at=127.0.0.1:\(port)\n"
    try known.write(toFile: data + "/known_peers", atomically: true, encoding: .utf8)

    let joiner = try Player(["join", invite, "--ui", "plain"], environment: bob.environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    let said = joiner.output + joiner.errors
    #expect(said.contains("not the alice you know"), "\(said)")
    #expect(said.contains("127.0.0.1:\(port) is where you met alice"), "\(said)")
    #expect(said.contains("opponent: mal"), "\(said)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0, "\(joiner.errors)")
    #expect(try String(contentsOfFile: data + "/known_peers", encoding: .utf8) == known)

    let plain = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain"], environment: bob.environment)
    #expect(plain.exitStatus() == 21, "\(plain.output)\(plain.errors)")
    #expect(plain.errors.contains("alice's key has changed"), "\(plain.errors)")
    #expect(try String(contentsOfFile: data + "/known_peers", encoding: .utf8) == known)
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  /// Issue 25, item 9: `tictactoe invite` prints nothing from a hosting directory others may write (they could
  /// plant an invite there), and a FIFO there neither hangs it nor hides the real invite.
  @Test func inviteBelievesOnlyTheUsersOwnList() throws {
    let alice = try Home("alice")
    let (host, _, invite) = try host(alice)
    let hosting = try #require(alice.environment["XDG_STATE_HOME"]) + "/tictactoe/hosting"
    #expect(chmod(hosting, 0o777) == 0)
    let open = try Binary.run(["invite"], environment: alice.environment, timeout: 20)
    #expect(open.status == 1 && open.stdout.isEmpty, "\(open)")
    #expect(open.stderr.contains("others can write (mode 777)") && open.stderr.contains("chmod 700 \(hosting)"))
    #expect(chmod(hosting, 0o700) == 0)
    #expect(mkfifo(hosting + "/1", 0o600) == 0)
    let fifo = try Binary.run(["invite"], environment: alice.environment, timeout: 20)
    #expect(fifo.status == 0 && fifo.stdout == invite + "\n", "\(fifo)")
    #expect(fifo.stderr.contains("\(hosting)/1 is not a regular file"), "\(fifo)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }

  @Test func aMistypedInviteIsCaughtBeforeConnecting() throws {
    let alice = try Home("alice")
    let (host, _, invite) = try host(alice)
    var typo = Array(invite)
    typo[20] = typo[20] == "x" ? "y" : "x"
    let result = try Binary.run(["join", String(typo), "--ui", "plain"], environment: try Home("bob").environment)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("its check does not match"), "\(result)")
    let pinned = try Binary.run(
      ["join", invite, "--pin", try alice.fingerprint()], environment: try Home("bob").environment)
    #expect(pinned.status == 64 && pinned.stderr.contains("cannot be combined with --pin"), "\(pinned)")
    host.signal(SIGTERM)
    #expect(host.exitStatus() == 128 + SIGTERM)
  }
}

import Foundation
import GameCore
import PeerTrust
import Security
import TestSupport
import Testing
import TransitRelay
import WireProtocol

/// Games through Debian's transit relay on loopback (`TransitRelayProcess`), between two real processes: the
/// host waits at the relay (`--relay`), the joiner tries the invite's direct addresses first and the relay
/// beside them; a recording proxy in front of the relay shows what the relay is given. Each failure is named.
@Suite(.serialized) struct RelayGameTests {
  typealias Home = NetworkTests.Home

  /// A host in plain mode waiting at `relay` beside its listener on 127.0.0.1; its printed invite.
  func host(_ home: Home, relay: UInt16, _ extra: [String] = []) throws -> (Player, invite: Invite) {
    let player = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--accept-new", "--ui", "plain", "--relay", "127.0.0.1:\(relay)"]
        + extra, environment: home.environment)
    #expect(player.waitFor("Waiting for an opponent"), "\(player.output)\(player.errors)")
    let line = try #require(
      player.output.split(separator: "\n").first { $0.hasPrefix("Invite: ") }, "no invite: \(player.output)")
    return (player, try Invite.parse(String(line.dropFirst("Invite: ".count))))
  }

  /// `invite` with its direct addresses replaced by `direct` (its key and relay kept): what a joiner sees when
  /// the host's own addresses cannot be reached from where it is.
  func unreachable(_ invite: Invite, direct: UInt16) throws -> String {
    try #require(Invite(key: invite.key, addresses: [.init(host: "127.0.0.1", port: direct)], relay: invite.relay))
      .description
  }

  /// A port on 127.0.0.1 where nothing listens (connections are refused).
  func closedPort() -> UInt16 {
    let (fd, port) = Loopback.listen(backlog: 1)
    close(fd)
    return port
  }

  /// A game from the printed invite (its direct address made unreachable) is played through the relay to its
  /// result; the relay saw no move, no name and no chat line; the joiner bound no address to the host's key.
  @Test func aGameFromTheInviteFinishesThroughTheRelayWhichSeesNoPlaintext() throws {
    let relay = try TransitRelayProcess()
    let tap = try FaultProxy.start(target: relay.port)
    let alice = try Home("alice-behind-cgnat")
    let bob = try Home("bob-on-a-phone")
    let (host, invite) = try host(alice, relay: tap.port)
    let printed = try Binary.run(["invite"], environment: alice.environment)
    #expect(printed.stdout == invite.description + "\n", "\(printed)")
    #expect(invite.relay?.host == "127.0.0.1" && invite.relay?.port == tap.port, "\(invite)")
    let joiner = try Player(
      ["join", try unreachable(invite, direct: closedPort()), "--ui", "plain"], environment: bob.environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("Connection refused by 127.0.0.1:"), "the direct address first: \(joiner.output)")
    #expect(joiner.output.contains("Connected to the host through the relay 127.0.0.1:\(tap.port)"), "\(joiner.output)")
    joiner.send("say the-secret-chat-line")
    #expect(host.waitFor("the-secret-chat-line"), "\(host.output)")
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)\(joiner.output)")
    let known = try String(
      contentsOfFile: bob.environment["XDG_DATA_HOME"]! + "/tictactoe/known_peers", encoding: .utf8)
    #expect(known.contains(try alice.fingerprint()), "\(known)")
    #expect(!known.contains("at="), "a relayed join binds no address: \(known)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0, "\(joiner.errors)")
    _ = host.exitStatus()

    let (toRelay, fromRelay) = tap.captured
    #expect(toRelay.count > 1000 && fromRelay.count > 1000, "\(toRelay.count) \(fromRelay.count)")
    // What the relay must read is there in the clear, so the capture is of the right bytes.
    #expect(toRelay.contains(Array("please relay \(try #require(invite.relay).token.hex) for side ".utf8)))
    #expect(fromRelay.contains(Array("ok\n".utf8)))
    var secrets = ["the-secret-chat-line", "alice-behind-cgnat", "bob-on-a-phone"].map { Array($0.utf8) }
    // Every move either side could have sent, as its frame on the wire.
    for ply in 1...9 {
      for cell in 0..<9 {
        secrets.append(Message.move(ply: UInt16(ply), position: Position(row: cell / 3, column: cell % 3)).bytes)
      }
    }
    for secret in secrets {
      #expect(!toRelay.contains(secret) && !fromRelay.contains(secret), "in the clear: \(secret)")
    }
  }

  /// With the printed invite unchanged the direct address answers first: the joiner never goes to the relay.
  @Test func theDirectAddressWinsWhenItAnswers() throws {
    let relay = try TransitRelayProcess()
    let tap = try FaultProxy.start(target: relay.port)
    let (host, invite) = try host(try Home("alice"), relay: tap.port)
    #expect(tap.waitFor { $0.accepted == 1 }, "the host waits at the relay")
    let joiner = try Player(["join", invite.description, "--ui", "plain"], environment: try Home("bob").environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("Connected to 127.0.0.1:"), "\(joiner.output)")
    // Past the relay's delay: still only the host's wait came to the relay.
    usleep(2_500_000)
    #expect(tap.counters.accepted == 1, "\(tap.counters)")
    #expect(!joiner.output.contains("relay"), "\(joiner.output)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    _ = host.exitStatus()
  }

  /// A direct address that takes the connection but never answers TLS: after the stated delay the relay is
  /// tried beside it, the host's hello comes there first, and the game is played through the relay.
  @Test func theRelayIsTriedAfterItsDelayBesideASilentAddress() throws {
    let relay = try TransitRelayProcess()
    let (host, invite) = try host(try Home("alice"), relay: relay.port)
    let (silent, silentPort) = Loopback.listen(backlog: 4)
    defer { close(silent) }
    let joiner = try Player(
      ["join", try unreachable(invite, direct: silentPort), "--ui", "plain"], environment: try Home("bob").environment)
    let started = Date()
    #expect(joiner.waitFor("Trying the relay"), "\(joiner.output)\(joiner.errors)")
    let waited = Date().timeIntervalSince(started)
    #expect(waited > 1.5 && waited < 8, "the relay came after \(waited) s")
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    Player.playOut(host, joiner)
    #expect(joiner.output.contains("result: "), "\(joiner.output)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    _ = host.exitStatus()
  }

  /// The relay is down: the joiner tried the direct address first, then the relay, and says which failed,
  /// with the relay's own exit status.
  @Test func aRelayThatIsDownIsNamedAndTheDirectAddressIsStillTried() throws {
    let relay = try TransitRelayProcess()
    let port = relay.port
    relay.stop()
    let key = try #require(Fingerprint(parsing: try Home("carol").fingerprint()))
    let token = try RelayToken.random()
    let invite = try #require(
      Invite(
        key: key, addresses: [.init(host: "127.0.0.1", port: closedPort())],
        relay: Invite.Relay(host: "127.0.0.1", port: port, token: token)))
    let joiner = try Player(["join", invite.description, "--ui", "plain"], environment: try Home("bob").environment)
    #expect(joiner.exitStatus() == 40, "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("Connection refused by 127.0.0.1:"), "\(joiner.output)")
    #expect(
      joiner.errors.contains("The relay 127.0.0.1:\(port) refused the connection: no relay is running on that port"),
      "\(joiner.errors)")
  }

  /// A host whose relay refuses its wait keeps hosting at its own address and says so.
  @Test func aHostWhoseRelayIsDownStillHostsDirectly() throws {
    let relay = try TransitRelayProcess()
    let port = relay.port
    relay.stop()
    let (host, invite) = try host(try Home("alice"), relay: port)
    #expect(host.waitFor("refused the connection"), "\(host.output)")
    #expect(host.output.contains("joiners can still come to the direct addresses"), "\(host.output)")
    let joiner = try Player(["join", invite.description, "--ui", "plain"], environment: try Home("bob").environment)
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    _ = host.exitStatus()
  }

  /// The relayed connection drops mid-game (the proxy in front of the relay resets every connection through
  /// it): the joiner goes back to the relay with the same token, the host waits there again, and the game is
  /// resumed at the same move and played to its result.
  @Test func aDropMidGameResumesThroughTheRelay() throws {
    let relay = try TransitRelayProcess()
    let tap = try FaultProxy.start(target: relay.port)
    let (host, invite) = try host(try Home("alice"), relay: tap.port)
    let joiner = try Player(
      ["join", try unreachable(invite, direct: closedPort()), "--ui", "plain"], environment: try Home("bob").environment
    )
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(host.waitFor("(X moves first)"), "\(host.output)")
    let (mover, other) = host.output.contains("you play X") ? (host, joiner) : (joiner, host)
    #expect(mover.waitFor("your move ("))
    mover.send("5")
    #expect(other.waitFor("plays 5 ("), "\(other.output)")
    let before = tap.counters.accepted
    tap.dropNow()
    #expect(joiner.waitFor("Reconnected: game 1 goes on at move 2.", timeout: 30), "\(joiner.output)\(joiner.errors)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 2."), "\(host.output)")
    #expect(tap.counters.accepted > before, "the joiner and the host came back through the relay: \(tap.counters)")
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(joiner.output)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    _ = host.exitStatus()
  }

  /// Someone else waits at the relay with the invite's token (its own key, not the invite's): the joiner's TLS
  /// refuses it as a pin mismatch naming the invite, through the relay as directly.
  @Test func aKeyThatIsNotTheInvitesIsRefusedThroughTheRelay() throws {
    let relay = try TransitRelayProcess()
    let (host, invite) = try host(try Home("mallory"), relay: relay.port)
    let carolKey = try #require(Fingerprint(parsing: try Home("carol").fingerprint()))
    let forged = try #require(
      Invite(key: carolKey, addresses: [.init(host: "127.0.0.1", port: closedPort())], relay: invite.relay))
    let joiner = try Player(["join", forged.description, "--ui", "plain"], environment: try Home("bob").environment)
    #expect(joiner.exitStatus() == 20, "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("Trying the relay"), "\(joiner.output)")
    #expect(joiner.errors.contains("\(carolKey) (the invite)"), "\(joiner.errors)")
    host.signal(SIGTERM)
    _ = host.exitStatus()
  }

  /// No host waits at the relay and two joiners come with the same token: the relay glues them to each other,
  /// TLS finds two clients, each is told so and goes back to the relay; in the end each names what happened.
  @Test func twoJoinersGluedToEachOtherAreToldSo() throws {
    let relay = try TransitRelayProcess()
    let key = try #require(Fingerprint(parsing: try Home("alice").fingerprint()))
    let invite = try #require(
      Invite(
        key: key, addresses: [.init(host: "127.0.0.1", port: closedPort())],
        relay: Invite.Relay(host: "127.0.0.1", port: relay.port, token: try RelayToken.random())))
    let first = try Player(["join", invite.description, "--ui", "plain"], environment: try Home("bob").environment)
    let second = try Player(["join", invite.description, "--ui", "plain"], environment: try Home("carol").environment)
    for joiner in [first, second] {
      #expect(joiner.waitFor("paired us with another joiner instead of the host"), "\(joiner.output)")
      let status = joiner.exitStatus(timeout: 40)
      #expect(status == 43 || status == 42, "\(String(describing: status)) \(joiner.output)\(joiner.errors)")
    }
  }

  /// The relay named in the settings: the host waits there without --relay (its invite names it), and
  /// `doctor` checks it with two connections of its own (both answered ok, bytes through); with the relay
  /// stopped, `doctor` names the failure.
  @Test func theRelaySettingIsUsedByTheHostAndCheckedByDoctor() throws {
    let relay = try TransitRelayProcess()
    var environment = try Home("alice").environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/ttt-no-bus"
    let config = try #require(environment["XDG_CONFIG_HOME"]) + "/tictactoe"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "relay = 127.0.0.1:\(relay.port)\n".write(toFile: config + "/settings.conf", atomically: false, encoding: .utf8)

    let checked = try Binary.run(["doctor"], environment: environment)
    let line = checked.stdout.split(separator: "\n").first { $0.contains(" relay: ") }.map(String.init) ?? ""
    #expect(line.hasPrefix("ok") && line.contains("paired two connections of ours"), "\(checked.stdout)")
    #expect(relay.logged("buddy_disconnected"), "the relay glued doctor's two connections: \(relay.log)")

    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain"], environment: environment)
    #expect(host.waitFor("Waiting for an opponent"), "\(host.output)\(host.errors)")
    #expect(host.output.contains(",relay:127.0.0.1/\(relay.port)/"), "\(host.output)")
    #expect(host.output.contains("Joiners can also come through the relay 127.0.0.1:\(relay.port)"), "\(host.output)")
    host.signal(SIGTERM)
    _ = host.exitStatus()

    relay.stop()
    let down = try Binary.run(["doctor"], environment: environment)
    #expect(down.status == 1, "\(down.stdout)")
    #expect(
      down.stdout.contains("PROBLEM relay: The relay 127.0.0.1:\(relay.port) refused the connection"), "\(down.stdout)")
  }

  /// Whoever comes through the relay with the token reaches the host's own trust question like any joiner: a
  /// host without --accept-new is asked about the new key (with the relay's address as where it came from), and
  /// the game starts only once its player says yes.
  @Test func aJoinerThroughTheRelayIsAskedAboutLikeAnyOther() throws {
    let relay = try TransitRelayProcess()
    let alice = try Home("alice")
    let bob = try Home("bob")
    let bobKey = try bob.fingerprint()
    let host = try Player(
      ["host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--relay", "127.0.0.1:\(relay.port)"],
      environment: alice.environment)
    #expect(host.waitFor("Waiting for an opponent"), "\(host.output)\(host.errors)")
    let line = try #require(host.output.split(separator: "\n").first { $0.hasPrefix("Invite: ") })
    let invite = try Invite.parse(String(line.dropFirst("Invite: ".count)))
    let joiner = try Player(
      ["join", try unreachable(invite, direct: closedPort()), "--ui", "plain"], environment: bob.environment)
    #expect(host.waitFor("bob (\(bobKey)) wants to join — accept?"), "\(host.output)")
    #expect(!joiner.output.contains("game 1:"), "no game before the host's player answers: \(joiner.output)")
    host.send("y")
    #expect(joiner.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("through the relay"), "\(joiner.output)")
    joiner.send("quit")
    #expect(joiner.exitStatus() == 0)
    _ = host.exitStatus()
  }
}

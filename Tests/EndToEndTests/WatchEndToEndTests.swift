import Foundation
import Testing

/// `tictactoe watch` against a real host and joiner over loopback (three processes): the spectator judges the
/// host's key as a joiner does, then sees the players, each move and the result; both players are told that it
/// watches; the players' chat does not reach it.
@Suite(.serialized) struct WatchEndToEndTests {
  @Test func aSpectatorSeesTheGameButNotTheChat() throws {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--name", "alice", "--accept-new"],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "bob", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    var players = [host, joiner]
    defer {
      for player in players where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\n\(host.output)")
    // A first meeting: the spectator is asked about the host's key, as a joiner would be.
    let carol = try NetworkTests.Home("carol")
    let watcher = try Player(
      ["watch", "127.0.0.1:\(port)", "--name", "carol", "--ui", "plain"], environment: carol.environment)
    players.append(watcher)
    #expect(watcher.waitFor("[y/n or paste the fingerprint]: "), "\(watcher.output)\(watcher.errors)")
    watcher.send("y")
    #expect(watcher.waitFor("watching game 1: "), "\(watcher.output)\(watcher.errors)")
    #expect(host.waitFor("spectators watching: 1\n"), "\(host.output)")
    #expect(joiner.waitFor("spectators watching: 1\n"), "\(joiner.output)")
    let (x, o) = host.output.contains("you play X") ? (host, joiner) : (joiner, host)
    let (xName, oName) = x === host ? ("alice", "bob") : ("bob", "alice")
    #expect(watcher.output.contains("\(xName) (X) against \(oName) (O)"), "\(watcher.output)")
    joiner.send("chat a secret between players")
    #expect(host.waitFor("a secret between players"), "\(host.output)")
    for (player, cell, mark) in [(x, "1", "X"), (o, "4", "O"), (x, "2", "X"), (o, "5", "O"), (x, "3", "X")] {
      player.send(cell)
      let name = mark == "X" ? xName : oName
      #expect(watcher.waitFor("\(name) (\(mark)) plays \(cell) "), "\(watcher.output)")
    }
    #expect(watcher.waitFor("game 1: \(xName) (X) wins with a line\n"), "\(watcher.output)")
    let score = x === host ? "score: alice 1, bob 0, drawn 0" : "score: alice 0, bob 1, drawn 0"
    #expect(watcher.waitFor(score), "\(watcher.output)")
    #expect(!watcher.output.contains("secret"), "a spectator must not see the players' chat:\n\(watcher.output)")
    // Once the players' signatures crossed, the spectator keeps their record (rule 28), and `verify` checks it.
    #expect(watcher.waitFor("The record of game 1, signed by both players, is kept"), "\(watcher.output)")
    let verified = try Binary.run(["verify", "1"], environment: carol.environment)
    #expect(verified.status == 0 && verified.stdout.contains("\nverified"), "\(verified.stdout)\(verified.stderr)")
    let listed = try Binary.run(["games"], environment: carol.environment)
    #expect(listed.stdout.contains("\(xName) vs \(oName)") && listed.stdout.contains("X won"), "\(listed.stdout)")
    // The host leaves: the spectator is told the match is over, and its program ends.
    host.send("quit")
    #expect(watcher.waitFor("the match is over", in: \.errors), "\(watcher.output)\(watcher.errors)")
    #expect(watcher.exitStatus() != nil, "\(watcher.output)")
  }

  /// A spectator whose connection drops mid-game (a proxy between it and the host resets it, after holding back a
  /// move) reconnects to the same address on its own, is sent a fresh snapshot with the move it missed, and
  /// watches on to the result (PROTOCOL.md rule 23).
  @Test func aSpectatorReconnectsAfterADropAndWatchesOn() throws {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--name", "alice", "--accept-new"],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "bob", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    var players = [host, joiner]
    defer {
      for player in players where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\n\(host.output)")
    let proxy = try FaultProxy.start(target: UInt16(port))
    let watcher = try Player(
      ["watch", "127.0.0.1:\(proxy.port)", "--name", "carol", "--ui", "plain", "--accept-new"],
      environment: try NetworkTests.Home("carol").environment)
    players.append(watcher)
    #expect(watcher.waitFor("watching game 1: "), "\(watcher.output)\(watcher.errors)")
    let (x, o) = host.output.contains("you play X") ? (host, joiner) : (joiner, host)
    let (xName, oName) = x === host ? ("alice", "bob") : ("bob", "alice")
    x.send("1")
    #expect(watcher.waitFor("\(xName) (X) plays 1 "), "\(watcher.output)")
    // The move to the spectator is held, then its connection reset: it never sees that move on the old one.
    proxy.stall()
    o.send("4")
    #expect(x.waitFor("\(oName) plays 4 "), "\(x.output)")
    proxy.dropNow(.reset)
    proxy.resume()
    #expect(watcher.waitFor("reconnecting"), "\(watcher.output)\(watcher.errors)")
    #expect(watcher.waitFor("Reconnected to the host: watching again."), "\(watcher.output)\(watcher.errors)")
    #expect(proxy.waitFor { $0.accepted >= 2 }, "the spectator came back through the same address")
    // Its hello again, then the host's fresh snapshot: the board it prints holds the move held back.
    let deadline = monotonicNow() + 20
    while watcher.count("watching game 1: ") < 2 && monotonicNow() < deadline { usleep(20_000) }
    let again = watcher.output.components(separatedBy: "watching game 1: ").dropFirst(2).first ?? ""
    #expect(again.contains(" X | 2 | 3\n---+---+---\n O | 5 | 6\n"), "\(watcher.output)\(watcher.errors)")
    #expect(!watcher.output.contains("\(oName) (O) plays 4 "), "the move was held back: \(watcher.output)")
    // The rest of the game follows the snapshot, which held the missed move (else the next would be refused).
    for (player, cell, mark) in [(x, "2", "X"), (o, "5", "O"), (x, "3", "X")] {
      player.send(cell)
      let name = mark == "X" ? xName : oName
      #expect(watcher.waitFor("\(name) (\(mark)) plays \(cell) "), "\(watcher.output)\(watcher.errors)")
    }
    #expect(watcher.waitFor("game 1: \(xName) (X) wins with a line\n"), "\(watcher.output)\(watcher.errors)")
    #expect(!watcher.output.contains("unfinished"), "\(watcher.output)")
    host.send("quit")
    #expect(watcher.exitStatus() != nil, "\(watcher.output)")
  }
}

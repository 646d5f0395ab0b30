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
}

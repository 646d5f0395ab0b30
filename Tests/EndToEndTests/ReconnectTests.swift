import Foundation
import Glibc
import TestSupport
import Testing

/// Reconnect and resume with the real program: a connection dropped in the middle of a match (by the fault
/// proxy, with or without bytes in flight, or by a frozen or killed peer) resumes the same game with no move
/// lost or applied twice; another key cannot take the game over. A move lost with the connection, the claim
/// after the grace period, a restarted joiner keeping its coin and another key at the host's address are checked
/// on the real shells in memory (`InMemoryReconnectTests`).
@Suite struct ReconnectTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  /// A host (plain mode, accepting new joiners) and a joiner that reaches it through a fault proxy.
  private func match(grace: Int = 120, delay: Double = 0) throws -> (Player, Player, FaultProxy, UInt16) {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--accept-new", "--grace", "\(grace)"], environment: try home("alice"))
    let port = UInt16(try #require(host.announcedPort(), "host did not start: \(host.errors)"))
    let proxy = try FaultProxy.start(target: port, delay: delay)
    let joiner = try Player(
      ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new", "--grace", "\(grace)"],
      environment: try home("bob"))
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.errors)\(host.errors)")
    return (host, joiner, proxy, port)
  }

  @Test func gamesCompleteOverASlowNetworkThatDropsAgainAndAgain() throws {
    let (host, joiner, proxy, _) = try match(delay: 0.2)
    defer { proxy.stop() }
    // After every second answer, three times, the connection is dropped while that move is in the 0.2 s
    // network or just past it (which of the two is up to the scheduler: both must come out right).
    var drops = 0
    Player.playOut(host, joiner, timeout: 60) { answers in
      guard answers.isMultiple(of: 2) && drops < 3 else { return }
      proxy.dropNow()
      drops += 1
    }
    #expect(drops >= 1, "no drop happened: \(host.output)")
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)\(joiner.output)")
    #expect(lastBoard(host) == lastBoard(joiner), "\(host.output)\n\(joiner.output)")
    let results = [host, joiner].map { player in
      // The result, less the side it is said from (": you win" on one screen, ": you lose" on the other).
      (player.output.components(separatedBy: "\n").first { $0.hasPrefix("result: ") } ?? "")
        .components(separatedBy: ": you ")[0]
    }
    #expect(results[0] == results[1] && !results[0].isEmpty)
    // Each drop was followed by a new connection through the proxy, and the game was resumed (a drop that
    // lands while a resume is under way, or after the last move, shows no resume of its own).
    #expect(proxy.counters.accepted == 1 + drops, "\(drops) drops; \(host.output)")
    #expect((1...max(1, drops)).contains(host.count("Reconnected: game 1")), "\(drops) drops; \(host.output)")
    // Each move the host saw from the joiner appears once: no cell was announced twice.
    for player in [host, joiner] {
      for cell in 1...9 { #expect(player.count("plays \(cell) (") <= 1, "cell \(cell): \(player.output)") }
    }
    #expect(host.waitFor("result: "))
    #expect(joiner.waitFor("type rematch"))
    joiner.send("quit")
    #expect(host.exitStatus(timeout: 30) == 30, "\(host.output)")
  }

  @Test func anotherKeyCannotTakeOverAWaitingGame() throws {
    let (host, joiner, proxy, port) = try match()
    defer { proxy.stop() }
    proxy.refusing = true  // the joiner cannot come back for now
    proxy.dropNow()
    #expect(host.waitFor("The connection dropped. The game is kept"))
    #expect(joiner.waitFor("Reconnection attempt 1 failed"), "\(joiner.output)")
    let carol = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: try home("carol"))
    #expect(carol.exitStatus() == 27)
    #expect(carol.errors.contains("The host is busy"), "\(carol.errors)")
    proxy.refusing = false
    #expect(joiner.waitFor("Reconnected: game 1 goes on at move 1.", timeout: 30), "\(joiner.output)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 1."))
    joiner.send("quit")
    #expect(host.exitStatus() == 30)
  }

  /// A joiner that typed a host name looks the name up again for each reconnection: the host, moved to another
  /// address, is found there. (The name is in a hosts file bind-mounted over /etc/hosts in the joiner's own
  /// mount namespace, changed while the game waits; both addresses are on loopback.) The restarted host no
  /// longer has the game in memory: once the joiner reaches it, it offers the game it kept (PROTOCOL.md rule 19),
  /// which goes on if the host's journal of it was written before the kill, else is lost by the host.
  @Test(.enabled(if: getuid() == 0)) func aHostNameIsLookedUpAgainWhenReconnecting() throws {
    let directory = try TestDirectory.make("hosts")
    let hosts = directory + "/hosts"
    try "127.0.0.2 tttlab.test\n".write(toFile: hosts, atomically: false, encoding: .utf8)
    let alice = try home("alice")
    func host(at address: String, port: Int) throws -> Player {
      try Player(
        ["host", "--port", "\(port)", "--bind", address, "--ui", "plain", "--accept-new"], environment: alice)
    }
    // The system picks the first host's port; the moved host takes the same number on another loopback address,
    // where nothing can hold it (a listener on every address would have kept the first from binding it).
    let first = try host(at: "127.0.0.2", port: 0)
    let port = try #require(first.announcedPort(), "\(first.errors)")
    #expect(first.waitFor("Waiting for an opponent"), "\(first.errors)")
    let joiner = try Player(
      [
        "-m", "sh", "-c",
        "mount --bind \(hosts) /etc/hosts && exec \(Binary.path) join tttlab.test:\(port) --ui plain --accept-new",
      ], environment: try home("bob"), executable: "/usr/bin/unshare")
    #expect(joiner.waitFor("game 1:") && first.waitFor("game 1:"), "\(joiner.output)\(joiner.errors)")
    #expect(joiner.output.contains("Connected to tttlab.test:\(port)"), "\(joiner.output)")
    first.signal(SIGKILL)
    #expect(joiner.waitFor("Reconnection attempt 1 failed"), "\(joiner.output)")
    // The same file (same inode, so the bind mount sees it): the name now points elsewhere.
    try "127.0.0.3 tttlab.test\n".write(toFile: hosts, atomically: false, encoding: .utf8)
    let moved = try host(at: "127.0.0.3", port: port)
    #expect(moved.waitFor("Waiting for an opponent"), "\(moved.errors)")
    let reached = ["Reconnected: game 1 goes on at move 1.", "it counts as lost by the host, whose program restarted."]
    let deadline = Date().addingTimeInterval(30)
    while !reached.contains(where: joiner.output.contains) && Date() < deadline { usleep(20_000) }
    #expect(reached.contains(where: joiner.output.contains), "\(joiner.output)\(joiner.errors)")
    moved.signal(SIGTERM)
    _ = moved.exitStatus()
  }

  @Test func theFullScreenShowsTheCountdownAndTheClaim() throws {
    let bob = try home("bob")
    let alice = try home("alice")
    let host = try TmuxSession(
      command: "sh -c '\(Binary.path) host --port 0 --accept-new --grace 6; echo EXIT=$?; sleep 30'",
      environment: alice)
    try host.waitFor(text: "Waiting for an opponent")
    let hostPort = try TmuxSession.hostedPort(alice)
    let proxy = try FaultProxy.start(target: UInt16(hostPort))
    defer { proxy.stop() }
    let joiner = try Player(
      ["join", "127.0.0.1:\(proxy.port)", "--ui", "plain", "--accept-new", "--grace", "6"], environment: bob)
    #expect(joiner.waitFor("game 1:"))
    try host.waitFor(text: "Game 1: you play")
    proxy.refusing = true
    proxy.dropNow()
    // Both on one screen (a capture can catch a screen half redrawn, so wait for the two together).
    try host.waitFor("the countdown and the notice of the drop") {
      $0.contains("Connection lost: waiting for bob to reconnect (0:0")
        && $0.contains("The connection dropped. The game is kept 6 s for bob to reconnect.")
    }
    let claimable = try host.waitFor(text: "bob did not come back: w claim the win", timeout: 15)
    #expect(claimable.contains("w claim the win"))
    try host.send("w")
    // The claim ends the match; the full-screen host hosts on, saying how it ended (wrapped whole).
    let claimed = try host.waitFor(text: "The match with bob is over: You claimed the game")
    #expect(claimed.contains("within 6 seconds. Hosting on for the next opponent."), "\(claimed)")
    try host.send("q")
    try host.waitFor(text: "EXIT=0")
  }
}

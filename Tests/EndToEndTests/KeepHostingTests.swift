import Foundation
import TestSupport
import Testing

/// After a match the full-screen host hosts on (the next joiner, until the player leaves); plain mode does so
/// only with --keep-hosting and otherwise ends as before.
@Suite(.serialized) struct KeepHostingTests {
  @Test func plainKeepHostingServesOneJoinerAfterAnother() throws {
    let alice = try NetworkTests.Home("alice")
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--accept-new", "--keep-hosting"], environment: alice.environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    for (index, name) in ["bob", "carol"].enumerated() {
      let joiner = try Player(
        ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"],
        environment: try NetworkTests.Home(name).environment)
      #expect(joiner.waitFor("game 1:"), "\(name): \(joiner.output)\(joiner.errors)")
      #expect(host.waitFor("opponent: \(name) ("), "\(host.output)")
      joiner.send("quit")
      #expect(joiner.exitStatus() == 0)
      #expect(waitForCount(host, "Hosting on for the next opponent", index + 1), "\(host.output)")
    }
    #expect(host.output.contains("match over: Your opponent left the game. Hosting on for the next opponent"))
    host.send("quit")
    #expect(host.exitStatus() == 0, "\(host.errors)")
  }

  /// Waits (bounded) until `text` was printed `count` times.
  private func waitForCount(_ player: Player, _ text: String, _ count: Int) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if player.count(text) >= count { return true }
      usleep(20_000)
    }
    return false
  }

  @Test func theFullScreenHostHostsOnUntilThePlayerLeaves() throws {
    let (host, port) = try TmuxSession.aliceHosts()
    let (joiner, _, _) = try TmuxSession.bobJoins(host, port: port)
    try joiner.send("q")
    try joiner.waitFor(text: "Leave the match?")
    try joiner.send("y")
    try joiner.waitFor(text: "EXIT=0")
    let waiting = try host.waitFor(text: "The match with bob is over")
    #expect(waiting.contains("Waiting for an opponent"), "\(waiting)")
    #expect(waiting.contains("Friends join with"), "the welcome again: \(waiting)")
    // carol joins the same host, without it being restarted.
    var carol = try Binary.sandbox().environment
    carol["USER"] = "carol"
    let next = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: carol)
    try next.waitFor(text: "The host alice is new to you. Trust it?")
    try next.send("y")
    try host.waitFor(text: "carol wants to join — accept?")
    try host.send("y")
    try host.waitFor(text: "Game 1: you play")
    try next.waitFor(text: "Game 1: you play")
    // The host leaves between games only when asked; during a game it asks first.
    try host.send("q")
    try host.waitFor(text: "Leave the match?")
    try host.send("y")
    try host.waitFor(text: "EXIT=0")
    try next.waitFor(text: "left")
  }
}

/// A joiner whose host went away and came back joins it again with one key.
@Suite(.serialized) struct RejoinTests {
  @Test func theJoinerJoinsARestartedHostWithR() throws {
    let alice = try Binary.sandbox().environment
    let (host, port) = try TmuxSession.aliceHosts(home: alice)
    let (joiner, _, _) = try TmuxSession.bobJoins(host, port: port)
    try host.send("q")
    try host.waitFor(text: "Leave the match?")
    try host.send("y")
    try host.waitFor(text: "EXIT=0")
    let ended = try joiner.waitFor(text: "r join again")
    #expect(ended.contains("any other key: leave"), "\(ended)")
    // alice starts hosting again on the same port, with the same identity: each knows the other's key now.
    let (again, _) = try TmuxSession.aliceHosts(home: alice, port: port)
    try joiner.send("r")
    try joiner.waitFor(text: "Game 1: you play")
    try again.waitFor(text: "Game 1: you play")
    #expect(!(try joiner.screen()).contains("new to you"), "the same host, trusted already")
    try joiner.send("q")
    try joiner.waitFor(text: "Leave the match?")
    try joiner.send("y")
    try joiner.waitFor(text: "EXIT=0")
    withExtendedLifetime(host) {}
  }
}

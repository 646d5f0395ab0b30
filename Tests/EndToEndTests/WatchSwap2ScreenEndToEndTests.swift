import Foundation
import Testing

/// `tictactoe watch` on the full screen at 80×24 (tmux) of a network game that opens with Swap2, its two players in
/// plain mode over loopback: the spectator's status line says each step of the opening as the players' screens
/// do, by the players' names, and a note says each choice.
@Suite(.serialized) struct WatchSwap2ScreenEndToEndTests {
  @Test func aSpectatorSeesEachStepOfTheOpening() throws {
    let host = try Player(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--name", "alice", "--accept-new", "--size",
        "15", "--opening", "swap2",
      ],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "bob", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    defer {
      for player in [host, joiner] where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    #expect(joiner.waitFor("with the Swap2 opening, untimed."), "\(joiner.output)")
    joiner.send("y")
    for player in [host, joiner] { #expect(player.waitFor("game 1: 15×15, 5 in a row; Swap2\n"), "\(player.output)") }
    // The coin decides who is the first player: the one asked for the first stone.
    let deadline = Date().addingTimeInterval(20)
    while host.count("stone 1 of 3 (X): ") + joiner.count("stone 1 of 3 (X): ") == 0 && Date() < deadline {
      usleep(20_000)
    }
    let hostFirst = host.count("stone 1 of 3 (X): ") > 0
    let (first, second) = hostFirst ? (host, joiner) : (joiner, host)
    let (firstName, secondName) = hostFirst ? ("alice", "bob") : ("bob", "alice")

    let carol = try NetworkTests.Home("carol")
    let watcher = try TmuxSession(
      command: "sh -c '\(Binary.path) watch 127.0.0.1:\(port) --name carol --accept-new; echo EXIT=$?; sleep 30'",
      environment: carol.environment)
    let panel = NetSwap2ScreenEndToEndTests.panel
    try watcher.waitFor("the opening's first step") {
      panel($0).contains("Swap2: \(firstName) places 3 stones (X, O, X): 0 of 3 down, X next")
    }
    for (index, cell) in ["h8", "i9", "h9"].enumerated() {
      #expect(first.waitFor("stone \(index + 1) of 3 ("), "\(first.output)")
      first.send(cell)
      #expect(second.waitFor(" plays \(cell)\n"), "\(second.output)")
      if index == 0 {
        try watcher.waitFor("one stone down") {
          panel($0).contains(
            "\(firstName) plays h8. Swap2: \(firstName) places 3 stones (X, O, X): 1 of 3 down, O next")
        }
      }
    }
    try watcher.waitFor("the second player's choice") {
      panel($0).contains("Swap2: \(secondName) chooses X (black), O (white) or 2 more stones")
    }
    #expect(second.waitFor("black, white, two: "), "\(second.output)")
    second.send("two")
    try watcher.waitFor("two more") {
      panel($0).contains("\(secondName) places 2 more stones.")
        && panel($0).contains("Swap2: \(secondName) places 2 stones (O, X): 0 of 2 down, O next")
    }
    for cell in ["g7", "j10"] {
      second.send(cell)
      #expect(first.waitFor(" plays \(cell)\n"), "\(first.output)")
    }
    try watcher.waitFor("the first player's choice") {
      panel($0).contains("\(secondName) plays j10. Swap2: \(firstName) chooses X (black) or O (white)")
    }
    #expect(first.waitFor("black, white: "), "\(first.output)")
    first.send("white")
    let settled = try watcher.waitFor("the colours settled") {
      panel($0).contains("\(firstName) takes O (white).") && panel($0).contains("\(firstName) (O) to move.")
    }
    #expect(!panel(settled).contains("Swap2: "), "no step once settled: \(settled)")
    host.send("quit")
    try watcher.waitFor(text: "any key: leave")
    try watcher.send("Enter")
    try watcher.waitFor(text: "EXIT=30")  // the host quit
  }
}

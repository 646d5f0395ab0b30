import Foundation
import Testing

/// Plain network mode as a first-time player meets it: the trust question stays the last line, the joiner hears
/// that the host is deciding, `help` lists what can be typed, and results are said from the player's side.
@Suite(.serialized) struct PlainNetworkWordsEndToEndTests {
  @Test func theJoinerIsToldWhatHappensAndHelpListsTheCommands() throws {
    // Neither side knows the other: both are asked about the other's key.
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--name", "alice"],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--name", "bob"],
      environment: try NetworkTests.Home("bob").environment)
    defer {
      for player in [host, joiner] where player.exitStatus(timeout: 0.1) == nil { player.signal(SIGKILL) }
    }
    let question = "[y/n or paste the fingerprint]: "
    #expect(joiner.waitFor(question), "\(joiner.output)\(joiner.errors)")
    // Whatever arrives while the question waits, the question is asked again last.
    #expect(joiner.waitFor("opponent: alice"), "\(joiner.output)")
    usleep(300_000)
    #expect(joiner.output.hasSuffix(question), "the last line is what to type:\n\(joiner.output)")
    joiner.send("y")
    #expect(joiner.waitFor("waiting for alice to let you in\n"), "\(joiner.output)")
    #expect(host.waitFor(question), "\(host.output)")
    host.send("y")
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\n\(host.output)")
    joiner.send("help")
    for line in ["  chat TEXT ", "  resign ", "  code ", "  quit ", "  rematch "] {
      #expect(joiner.waitFor(line), "\(line) in:\n\(joiner.output)")
    }
    #expect(!joiner.output.contains("not a move"), "\(joiner.output)")
    // The host leaves a game in progress: the joiner wins it, and is told so.
    let joinerMark = joiner.output.contains("you play X") ? "X" : "O"
    host.send("quit")
    let other = joinerMark == "X" ? "O" : "X"
    #expect(
      joiner.waitFor("result: \(joinerMark) wins (\(other) left the game): you win\n"), "\(joiner.output)")
  }
}

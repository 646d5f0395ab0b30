import Foundation
import TestSupport
import Testing

/// Plain network mode asks again after every interruption: the last thing printed is always what to type.
@Suite(.serialized) struct PlainNetworkPromptTests {
  @Test func aChatLineOrAnErrorIsFollowedByTheQuestionAgain() throws {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--accept-new", "--size", "15", "--k", "5"],
      environment: try NetworkTests.Home("alice").environment)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"],
      environment: try NetworkTests.Home("bob").environment)
    #expect(joiner.waitFor("game 1:") && host.waitFor("game 1:"), "\(joiner.output)\(host.errors)")
    // Whoever the coin made X is asked first.
    let deadline = Date().addingTimeInterval(20)
    while ![host, joiner].contains(where: { $0.output.contains("your move (X): ") }) && Date() < deadline {
      usleep(20_000)
    }
    let (mover, other, otherName) =
      host.output.contains("your move (X): ") ? (host, joiner, "bob") : (joiner, host, "alice")
    #expect(mover.waitFor("your move (X): "))
    let prompts = mover.count("your move (X): ")
    other.send("chat good luck")
    #expect(mover.waitFor("\(otherName) says: good luck\nyour move (X): "), "\(mover.output)")
    mover.send("zz")
    #expect(
      mover.waitFor(
        "error: \"zz\" is not a move; type a coordinate (a1-o15), a cell number (1-225) or row,col\n"
          + "your move (X): "), "\(mover.output)")
    #expect(mover.count("your move (X): ") == prompts + 2)
    // The move in notation, announced to the other side in notation, on a board of 32 columns.
    mover.send("h8")
    #expect(other.waitFor(" plays h8\n"), "\(other.output)")
    // The board follows the announcement in a write of its own: waited for, not read at once.
    #expect(other.waitFor(" 8 . . . . . . . X . . . . . . .\n"), "\(other.output)")
    #expect(other.waitFor("your move (O): "))
    other.send("quit")
    mover.send("quit")
    _ = other.exitStatus()
    _ = mover.exitStatus()
  }
}

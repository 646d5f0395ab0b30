import Foundation
import TestSupport
import Testing

/// The record against each opponent, from the saved games: shown when you meet again and in `peers`; the computer
/// by level.
@Suite(.serialized) struct OpponentRecordTests {
  /// One whole game of alice hosting bob; returns both outputs.
  private func match(_ alice: [String: String], _ bob: [String: String]) throws -> (host: String, joiner: String) {
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new"], environment: bob)
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"))
    Player.playOut(host, joiner)
    host.send("quit")
    #expect(host.exitStatus() == 0)
    _ = joiner.exitStatus()
    return (host.output + host.errors, joiner.output + joiner.errors)
  }

  @Test func meetingAgainShowsTheRecordSoFarAndPeersListsIt() throws {
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let first = try match(alice, bob)
    #expect(!first.host.contains("you and "), "no games yet: \(first.host)")
    let afterOne = Self.tally([first.host])
    let second = try match(alice, bob)
    #expect(second.host.contains("you and bob: \(afterOne)"), "\(first.host)\n----\n\(second.host)")
    #expect(second.joiner.contains("you and alice: \(Self.tally([first.joiner]))"), "\(second.joiner)")
    let peers = try Binary.run(["peers"], environment: alice)
    let line = peers.stdout.split(separator: "\n").first { $0.hasPrefix("bob\t") }
    let afterTwo = Self.tally([first.host, second.host])
    #expect(line?.hasSuffix("\t" + afterTwo) == true, "\(peers.stdout) \(afterTwo)")
  }

  /// On the full screen the record stays in view once the game is on: a note in the conversation pane.
  @Test func theFullScreenKeepsTheRecordInViewDuringTheGame() throws {
    var alice = try Binary.sandbox().environment
    alice["USER"] = "alice"
    var bob = try Binary.sandbox().environment
    bob["USER"] = "bob"
    let first = try match(alice, bob)
    let host = try Player(["host", "--port", "0", "--ui", "plain", "--accept-new"], environment: alice)
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port); echo EXIT=$?; sleep 30'", environment: bob)
    let screen = try joiner.waitFor(text: "Game 1:")
    #expect(host.waitFor("game 1:"))
    let line = "you and alice: \(Self.tally([first.joiner]))"
    let seen = screen.contains(line) ? screen : try joiner.waitFor(text: line)
    #expect(seen.contains("Game 1:"), "the record is there with the game on:\n\(seen)")
    host.signal(SIGTERM)
  }

  /// The record from these outputs of one side (one game each), written as the game writes it: `1–0, 1 drawn`.
  static func tally(_ outputs: [String]) -> String {
    var (wins, losses, draws) = (0, 0, 0)
    for output in outputs {
      let mine = output.contains("; you play X") ? "X" : "O"
      if output.contains("result: draw") {
        draws += 1
      } else if output.contains("result: \(mine) wins") {
        wins += 1
      } else {
        losses += 1
      }
    }
    return "\(wins)–\(losses)" + (draws > 0 ? ", \(draws) drawn" : "")
  }

  @Test func peersListsTheRecordAgainstTheComputerByLevel() throws {
    let home = try Binary.sandbox().environment
    let everyCell = (1...9).map(String.init).joined(separator: "\n") + "\n"
    for level in ["perfect", "easy", "perfect"] {
      _ = try Binary.run(["play", "--ui", "plain", "--ai", level], input: everyCell, environment: home)
    }
    let peers = try Binary.run(["peers"], environment: home)
    let line = try #require(peers.stdout.split(separator: "\n").last.map(String.init))
    #expect(line.hasPrefix("against the computer: easy "), "\(peers.stdout)")
    let perfect = try #require(line.split(separator: "; ").last)
    // The perfect computer never loses: two games, no wins for the player.
    #expect(perfect.hasPrefix("perfect 0–"), "\(line)")
    let numbers = perfect.dropFirst("perfect 0–".count).split(separator: ",").first.flatMap { Int($0) } ?? -1
    let draws = perfect.contains(" drawn") ? Int(perfect.split(separator: " ")[2]) ?? -1 : 0
    #expect(numbers + draws == 2, "\(line)")
  }
}

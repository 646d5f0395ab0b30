import Foundation
import Glibc
import TestSupport
import Testing

/// A host killed mid-game (kill -9) and started again on the same port with the same identity, while its joiner
/// keeps reconnecting (PROTOCOL.md rule 19), with the real program in plain mode over loopback.
@Suite struct HostRestartEndToEndTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  private func data(_ player: Player) -> String { player.environment["XDG_DATA_HOME"]! + "/tictactoe" }

  /// A game with three moves (cells 1, 5, 9) kept in both journals, then the host killed; its port and its mark.
  private func hostKilledMidGame() throws -> (host: Player, joiner: Player, port: Int, hostWasX: Bool) {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--accept-new", "--grace", "60"], environment: try home("alice"))
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: try home("bob"))
    #expect(joiner.waitFor("(X moves first)") && host.waitFor("(X moves first)"), "\(joiner.errors)\(host.errors)")
    let hostWasX = host.output.contains("you play X")
    let (x, o) = hostWasX ? (host, joiner) : (joiner, host)
    for (index, cell) in [1, 5, 9].enumerated() {
      let mover = index.isMultiple(of: 2) ? x : o
      #expect(waitUntil { mover.count("your move (") > index / 2 }, "\(mover.output)")
      mover.send("\(cell)")
    }
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    let moves = "move 0 0\nmove 1 1\nmove 2 2\nsha256 "
    #expect(waitUntil { journals(host).values.contains { $0.contains(moves) } }, "\(journals(host))")
    host.signal(SIGKILL)
    _ = host.exitStatus()
    #expect(joiner.waitFor("Reconnection attempt 1 failed"), "\(joiner.output)")
    return (host, joiner, port, hostWasX)
  }

  private func restart(_ host: Player, port: Int) throws -> Player {
    try Player(
      ["host", "--port", "\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: host.environment)
  }

  @Test func aHostKilledMidGameTakesTheJoinersGameBackAndFinishesIt() throws {
    let (host, joiner, port, hostWasX) = try hostKilledMidGame()
    let again = try restart(host, port: port)
    let goesOn = "Reconnected: game 1 goes on at move 4."
    #expect(joiner.waitFor(goesOn, timeout: 30), "\(joiner.output)\(joiner.errors)")
    #expect(again.waitFor(goesOn), "\(again.output)\(again.errors)")
    #expect(again.output.contains("you play \(hostWasX ? "X" : "O")"), "\(again.output)")
    #expect(lastBoard(again) == lastBoard(joiner) && lastBoard(again).contains("X"), "\(again.output)")
    #expect(!again.output.contains("result: ") && !joiner.output.contains("result: "))
    // Played to its end from there: one result, the same on both sides, and no journal left.
    Player.playOut(again, joiner)
    #expect(again.count("result: ") == 1 && joiner.count("result: ") == 1, "\(again.output)\(joiner.output)")
    #expect(lastBoard(again) == lastBoard(joiner))
    // The same result on both sides, each saying it from its own side (": you win", ": you lose").
    let result = { (player: Player) in
      player.output.components(separatedBy: "\n").first { $0.contains("result: ") }?.components(separatedBy: ": you ")
    }
    #expect(result(again)?.count == 2 && result(again)?.first == result(joiner)?.first)
    #expect(Set([result(again)?.last, result(joiner)?.last]) == ["win", "lose"] || result(again)?.last == "draw")
    #expect(waitUntil { journals(again).isEmpty && journals(joiner).isEmpty }, "\(journals(again))")
    joiner.send("quit")
    #expect(again.exitStatus() == 30)
  }

  /// The restarted host's journal is gone: it cannot check the game the joiner kept, so the game is lost by the
  /// host, the side that went away; both are told why and both records say the host forfeited.
  @Test func aHostRestartedWithoutItsJournalLosesTheKeptGame() throws {
    let (host, joiner, port, hostWasX) = try hostKilledMidGame()
    for name in journals(host).keys { try FileManager.default.removeItem(atPath: journalDirectory(host) + "/" + name) }
    let again = try restart(host, port: port)
    let lost =
      "was not taken up (the host restarted and keeps no journal of this game): it counts as lost by the host,"
      + " whose program restarted."
    #expect(joiner.waitFor(lost, timeout: 30) && again.waitFor(lost), "\(joiner.output)\(again.output)")
    let result = "result: \(hostWasX ? "O" : "X") wins (\(hostWasX ? "X" : "O") did not come back)"
    #expect(joiner.waitFor(result) && again.waitFor(result), "\(joiner.output)\(again.output)")
    for player in [again, joiner] {
      let games = data(player) + "/games"
      #expect(
        waitUntil {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: games)) ?? []
          return names.contains { name in
            let sgf = (try? String(contentsOfFile: games + "/" + name, encoding: .utf8)) ?? ""
            return sgf.contains("RE[\(hostWasX ? "W" : "B")+F]") && sgf.contains("TTE[claim]")
              && sgf.components(separatedBy: ";B[").count + sgf.components(separatedBy: ";W[").count == 5
          }
        }, "\(data(player))")
    }
    #expect(waitUntil { journals(again).isEmpty && journals(joiner).isEmpty }, "\(journals(joiner))")
    joiner.send("quit")
    #expect(again.exitStatus() == 30)
  }
}

import Foundation
import Glibc
import TestSupport
import Testing

/// The journal of a game in progress with the real program (PROTOCOL.md rule 19): kept on disk by both sides as
/// the game goes, still there when a program is killed mid-game, removed once the game ended and was recorded.
@Suite struct GameJournalEndToEndTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  /// A plain-mode host and joiner with a game begun; the player with X first.
  private func match(grace: Int) throws -> (host: Player, joiner: Player, x: Player, o: Player, port: Int) {
    let host = try Player(
      ["host", "--port", "0", "--ui", "plain", "--accept-new", "--grace", "\(grace)"], environment: try home("alice"))
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "\(grace)"],
      environment: try home("bob"))
    #expect(joiner.waitFor("(X moves first)") && host.waitFor("(X moves first)"), "\(joiner.errors)\(host.errors)")
    let hostIsX = host.output.contains("you play X")
    return (host, joiner, hostIsX ? host : joiner, hostIsX ? joiner : host, port)
  }

  /// X and O play `cells` in turn, each when its program asks for its move.
  private func play(_ cells: [Int], x: Player, o: Player) {
    for (index, cell) in cells.enumerated() {
      let mover = index.isMultiple(of: 2) ? x : o
      #expect(waitUntil { mover.count("your move (") > index / 2 }, "\(mover.output)")
      mover.send("\(cell)")
    }
  }

  @Test func aKilledJoinersGameIsStillOnDiskAndTheHostsGoesWithItsClaim() throws {
    let (host, joiner, x, o, _) = try match(grace: 5)
    play([1, 5, 9], x: x, o: o)
    // O is asked for its second move: the third of the game has reached it.
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    let moves = "move 0 0\nmove 1 1\nmove 2 2\nsha256 "
    #expect(waitUntil { journals(joiner).values.contains { $0.contains(moves) } }, "\(journals(joiner))")
    #expect(waitUntil { journals(host).values.contains { $0.contains(moves) } }, "\(journals(host))")
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    // What the killed joiner left: its journal of the game, the file 0600 in a 0700 directory, naming both keys.
    let kept = journals(joiner)
    #expect(kept.count == 1, "\(kept)")
    let (name, text) = try #require(kept.first)
    #expect(mode(journalDirectory(joiner) + "/" + name) == 0o600 && mode(journalDirectory(joiner)) == 0o700)
    #expect(text.hasPrefix("tictactoe journal 2\nme ") && text.contains("\nrole joiner\nrules 3 3 3\nclock none\n"))
    let hostText = try #require(journals(host).values.first)
    let line = { (text: String, word: String) in text.components(separatedBy: "\n").first { $0.hasPrefix(word) } }
    // Each side's journal names its own key as "me" and the other's as "peer".
    #expect(line(text, "me ")?.dropFirst(3) == line(hostText, "peer ")?.dropFirst(5))
    #expect(line(text, "peer ")?.dropFirst(5) == line(hostText, "me ")?.dropFirst(3))
    #expect(line(text, "me ") != line(text, "peer "))
    // Nobody came back: the host claims the game, which is recorded, and its journal goes.
    #expect(host.waitFor("bob did not come back in time: type claim", timeout: 15), "\(host.output)")
    host.send("claim")
    #expect(host.exitStatus() == 0)
    #expect(journals(host).isEmpty, "\(journals(host))")
    #expect(journals(joiner) == kept)
  }

  @Test func aGamePlayedToItsEndLeavesNoJournal() throws {
    let (host, joiner, _, _, _) = try match(grace: 120)
    Player.playOut(host, joiner)
    #expect(host.output.contains("result: ") && joiner.output.contains("result: "), "\(host.output)")
    #expect(waitUntil { journals(host).isEmpty && journals(joiner).isEmpty }, "\(journals(host))\(journals(joiner))")
    // A journal was kept while the game went on (its directory is there).
    #expect(mode(journalDirectory(host)) == 0o700 && mode(journalDirectory(joiner)) == 0o700)
    joiner.send("quit")
    #expect(host.exitStatus() == 30 && joiner.exitStatus() == 0)
    #expect(journals(host).isEmpty && journals(joiner).isEmpty)
  }

  /// kill -9 the joiner mid-game and start it again: it joins with the same key, its journal agrees with the game
  /// the host kept, and the game goes on from where it stood to its end.
  @Test func aJoinerKilledMidGameComesBackToTheSameGameAndFinishesIt() throws {
    let (host, joiner, x, o, port) = try match(grace: 60)
    play([1, 5, 9], x: x, o: o)
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    let moves = "move 0 0\nmove 1 1\nmove 2 2\nsha256 "
    #expect(waitUntil { journals(joiner).values.contains { $0.contains(moves) } }, "\(journals(joiner))")
    let joinerWasX = joiner === x
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    #expect(host.waitFor("The connection dropped. The game is kept"), "\(host.output)")
    let again = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: joiner.environment)
    #expect(host.waitFor("bob came back after a restart: offering game 1 at move 4, kept here."), "\(host.output)")
    #expect(again.waitFor("Reconnected: game 1 goes on at move 4."), "\(again.output)\(again.errors)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 4."), "\(host.output)")
    #expect(again.output.contains("you play \(joinerWasX ? "X" : "O")"), "\(again.output)")
    #expect(lastBoard(again) == lastBoard(host) && lastBoard(again).contains("X"), "\(again.output)")
    #expect(!again.output.contains("game 2:") && !host.output.contains("result: "))
    // The game is played to its end from there: one result, the same on both sides, and no journal left.
    Player.playOut(host, again)
    #expect(host.output.contains("result: ") && again.output.contains("result: "), "\(host.output)\(again.output)")
    #expect(lastBoard(host) == lastBoard(again))
    #expect(host.count("result: ") == 1 && again.count("result: ") == 1)
    #expect(waitUntil { journals(host).isEmpty && journals(again).isEmpty }, "\(journals(host))")
    again.send("quit")
    #expect(host.exitStatus() == 30)
  }

  /// A journal changed on disk is not used: the joiner is told which file and why, its player is shown the position
  /// and declines it, and the kept game is lost by the joiner on both sides; the changed file is left in place.
  @Test func aChangedJournalIsNotUsedAndTheKeptGameIsLostByTheJoiner() throws {
    let (host, joiner, x, o, port) = try match(grace: 60)
    play([1, 5, 9], x: x, o: o)
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    let moves = "move 0 0\nmove 1 1\nmove 2 2\nsha256 "
    #expect(waitUntil { journals(joiner).values.contains { $0.contains(moves) } }, "\(journals(joiner))")
    let joinerWasX = joiner === x
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    let (name, text) = try #require(journals(joiner).first)
    let changed = text.replacingOccurrences(of: "move 1 1\n", with: "move 1 2\n")
    try changed.write(toFile: journalDirectory(joiner) + "/" + name, atomically: true, encoding: .utf8)
    #expect(host.waitFor("The connection dropped. The game is kept"), "\(host.output)")
    let again = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: joiner.environment)
    let unusable =
      "(\(journalDirectory(joiner))/\(name)) cannot be used: the journal's SHA-256 does not match its lines"
    #expect(again.waitFor(unusable), "\(again.output)\(again.errors)")
    #expect(again.waitFor("alice kept this game from before your program restarted, at move 4 (shown): take it up?"))
    #expect(again.waitFor("[y/n]: "), "\(again.output)")
    again.send("n")
    let lost = "was not taken up (its player did not take it up): it counts as lost by the joiner."
    #expect(again.waitFor(lost) && host.waitFor(lost), "\(again.output)\(host.output)")
    let loser = joinerWasX ? "X" : "O"
    let result = "result: \(joinerWasX ? "O" : "X") wins (\(loser) did not come back)"
    #expect(again.waitFor(result) && host.waitFor(result), "\(again.output)\(host.output)")
    #expect(waitUntil { journals(host).isEmpty }, "\(journals(host))")
    #expect(journals(again) == [name: changed])
    // Both records say the joiner forfeited the game, with its three moves.
    for player in [host, again] {
      let games = player.environment["XDG_DATA_HOME"]! + "/tictactoe/games"
      #expect(
        waitUntil {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: games)) ?? []
          return names.contains { name in
            let sgf = (try? String(contentsOfFile: games + "/" + name, encoding: .utf8)) ?? ""
            return sgf.contains("RE[\(joinerWasX ? "W" : "B")+F]") && sgf.contains("TTE[claim]")
              && sgf.components(separatedBy: ";B[").count + sgf.components(separatedBy: ";W[").count == 5
          }
        }, "\(player.environment["XDG_DATA_HOME"]!)")
    }
    again.send("quit")
    #expect(host.exitStatus() == 30)
  }

  /// With its journal gone, the restarted joiner's player is shown the position and takes it up: the game goes on.
  @Test func withoutItsJournalTheJoinersPlayerIsAskedAndTakesTheGameUp() throws {
    let (host, joiner, x, o, port) = try match(grace: 60)
    play([1, 5, 9], x: x, o: o)
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    for name in journals(joiner).keys { unlink(journalDirectory(joiner) + "/" + name) }
    #expect(host.waitFor("The connection dropped. The game is kept"), "\(host.output)")
    let again = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: joiner.environment)
    #expect(again.waitFor("take it up? Declining counts as a loss. [y/n]: "), "\(again.output)\(again.errors)")
    // The position is shown before the question: X on a1 and c3 (cells 1 and 9), O in the middle.
    #expect(lastBoard(again) == lastBoard(host), "\(again.output)")
    #expect(!host.output.contains("Reconnected"))
    again.send("y")
    #expect(
      again.waitFor("Reconnected: game 1 goes on at move 4.") && host.waitFor("Reconnected: game 1 goes on at move 4."))
    Player.playOut(host, again)
    #expect(host.count("result: ") == 1 && again.count("result: ") == 1 && lastBoard(host) == lastBoard(again))
    again.send("quit")
    #expect(host.exitStatus() == 30)
  }

  /// The same question on the full screen: the board offered is drawn behind it, and y takes the game up.
  @Test func theFullScreenJoinerIsAskedTooAndSeesTheBoard() throws {
    let (host, joiner, x, o, port) = try match(grace: 60)
    play([1, 5, 9], x: x, o: o)
    #expect(waitUntil { o.count("your move (") >= 2 }, "\(o.output)")
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    for name in journals(joiner).keys { unlink(journalDirectory(joiner) + "/" + name) }
    #expect(host.waitFor("The connection dropped. The game is kept"), "\(host.output)")
    // The host is known to this joiner now (accepted on first use): nothing is asked about its key.
    let again = try TmuxSession(
      command: "sh -c '\(Binary.path) join 127.0.0.1:\(port) --grace 60; echo EXIT=$?; sleep 30'",
      environment: joiner.environment, width: 100, height: 30)
    let asked = try again.waitFor(text: "at move 4 (shown): take it up?")
    #expect(asked.contains("alice kept this game from before your program restarted"), "\(asked)")
    #expect(asked.contains("Declining counts as a loss."), "\(asked)")
    #expect(asked.contains("Game 1, kept at move 4: you play"), "\(asked)")
    // The board offered is drawn: two X and one O in its cells (the cursor may bracket one of them).
    let cells = asked.components(separatedBy: "\n").filter { $0.contains("│") && !$0.contains("take it up") }
      .joined()
    #expect(
      cells.filter { $0 == "X" }.count == 2 && cells.filter { $0 == "O" }.count == 1, "the board offered: \(asked)")
    try again.send("y")
    let resumed = try again.waitFor(text: "Reconnected: game 1 goes on at move 4.")
    #expect(!resumed.contains("take it up?"), "\(resumed)")
    #expect(host.waitFor("Reconnected: game 1 goes on at move 4."), "\(host.output)")
  }
}

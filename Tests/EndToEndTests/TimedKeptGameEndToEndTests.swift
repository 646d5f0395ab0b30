import Foundation
import GameRecords
import Glibc
import TestSupport
import Testing

/// A timed game kept through a joiner's kill -9 (PROTOCOL.md rule 19) between two real programs: the score of the
/// game before it and every earlier move's agreed times come back with it, so both records of the resumed game
/// hold the same times for every move and the match's score counts both games.
@Suite(.serialized) struct TimedKeptGameEndToEndTests {
  private func home(_ name: String) throws -> [String: String] {
    var environment = try Binary.sandbox().environment
    environment["USER"] = name
    return environment
  }

  /// The moves of the game in `player`'s journal.
  private func journalMoves(_ player: Player) -> Int {
    journals(player).values.first.map { $0.components(separatedBy: "\nmove ").count - 1 } ?? 0
  }

  /// What `player` printed since game 2 began.
  private func sinceGame2(_ player: Player) -> String {
    let output = player.output
    return output.range(of: "game 2:").map { String(output[$0.lowerBound...]) } ?? ""
  }

  /// Both sides' records of their latest game once both signatures have crossed.
  /// The last record of each player once each has `games` records and that last one is signed by both: a record
  /// of an earlier game is signed too, so the count tells the game asked for from one written before it.
  private func signedRecords(_ players: [Player], games: Int) -> [String] {
    var texts: [String] = []
    _ = waitUntil(timeout: 20) {
      let records = players.map { (try? RecordsEndToEndTests.records($0.environment)) ?? [] }
      texts = records.map { $0.count == games ? $0.last?.text ?? "" : "" }
      return texts.allSatisfy { $0.contains("TTSB[") && $0.contains("TTSW[") }
    }
    return texts
  }

  @Test func aKilledJoinersTimedGameComesBackWithTheScoreAndEveryMovesTimes() throws {
    let host = try Player(
      [
        "host", "--port", "0", "--bind", "127.0.0.1", "--ui", "plain", "--accept-new", "--clock", "60s+1", "--grace",
        "60",
      ], environment: try home("alice"))
    let port = try #require(host.announcedPort(), "host did not start: \(host.errors)")
    let bob = try home("bob")
    let joiner = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: bob)
    #expect(joiner.waitFor("Play on these terms? [y/n]: "), "\(joiner.output)\(joiner.errors)")
    joiner.send("y")
    #expect(host.waitFor("game 1:") && joiner.waitFor("game 1:"), "\(host.output)\(joiner.output)")
    // Game 1: the joiner resigns; a rematch begins game 2.
    joiner.send("resign")
    #expect(host.waitFor("match: you 1, bob 0, draws 0") && joiner.waitFor("match: you 0, alice 1, draws 0"))
    joiner.send("rematch")
    host.send("rematch")
    #expect(host.waitFor("game 2:") && joiner.waitFor("game 2:"), "\(host.output)\(joiner.output)")
    let hostIsX = sinceGame2(host).contains("you play X")
    let (x, o) = hostIsX ? (host, joiner) : (joiner, host)
    // Three moves, each thought about for a while: the third (X's second) is charged its thinking time.
    for (index, cell) in [5, 1, 9].enumerated() {
      let mover = index.isMultiple(of: 2) ? x : o
      let prompts = { self.sinceGame2(mover).components(separatedBy: "your move (").count - 1 }
      #expect(waitUntil { prompts() > index / 2 }, "\(mover.output)")
      usleep(400_000)
      mover.send("\(cell)")
    }
    #expect(waitUntil { self.journalMoves(joiner) == 3 }, "\(journals(joiner))")
    let joinerMark = hostIsX ? "O" : "X"
    joiner.signal(SIGKILL)
    _ = joiner.exitStatus()
    #expect(host.waitFor("The connection dropped. The game is kept"), "\(host.output)")

    let again = try Player(
      ["join", "127.0.0.1:\(port)", "--ui", "plain", "--accept-new", "--grace", "60"], environment: bob)
    #expect(again.waitFor("Play on these terms? [y/n]: "), "\(again.output)\(again.errors)")
    again.send("y")
    #expect(again.waitFor("Reconnected: game 2 goes on at move 4."), "\(again.output)\(again.errors)")
    #expect(host.waitFor("Reconnected: game 2 goes on at move 4."), "\(host.output)")
    #expect(again.output.contains("you play \(joinerMark)"), "\(again.output)")
    Player.playOut(host, again)
    // The host's output holds game 1's result already: wait for game 2's there too.
    #expect(
      waitUntil { host.count("result: ") == 2 } && again.count("result: ") == 1, "\(host.output)\(again.output)")
    // The score counts game 1 on both sides, the returning joiner's too.
    let hostLine = host.output.components(separatedBy: "\n").last { $0.hasPrefix("match: ") } ?? ""
    let joinerLine = again.output.components(separatedBy: "\n").last { $0.hasPrefix("match: ") } ?? ""
    let numbers = { (line: String) in
      line.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
    }
    #expect(numbers(hostLine).reduce(0, +) == 2 && numbers(joinerLine).reduce(0, +) == 2, "\(hostLine) / \(joinerLine)")
    #expect(
      numbers(hostLine).count == 3
        && numbers(hostLine) == [numbers(joinerLine)[1], numbers(joinerLine)[0], numbers(joinerLine)[2]])

    // Both records of game 2 are the same bytes, with agreed times for every move, the earlier ones charged.
    let texts = signedRecords([host, again], games: 2)
    #expect(texts.count == 2 && texts[0] == texts[1] && !texts[0].isEmpty, "the two records differ:\n\(texts)")
    let record = try GameRecord.parse(try #require(texts.first))
    #expect(record.times.count == record.moves.count && record.moves.count > 3, "\(texts[0])")
    #expect(
      record.times[2].charged >= 300 && record.times[2].left == 60_000 - record.times[2].charged + 1_000, "\(texts[0])")
    print("kept timed game: move 3 charged \(record.times[2].charged) ms, \(record.moves.count) moves")
    again.send("quit")
    _ = host.exitStatus()
  }
}

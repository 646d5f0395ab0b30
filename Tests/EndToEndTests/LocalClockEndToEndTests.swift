import Foundation
import GameRecords
import TestSupport
import Testing

/// A short timed game against the computer, played by the real program (issue 24): the player lets a 5-second
/// clock run out, line by line and on the full screen. The flag falls when it should (not before), the game ends
/// as a loss on time, and the record says so with each move's times, as sgfmill reads it.
@Suite(.serialized) struct LocalClockEndToEndTests {
  @Test func plainModeLosesOnTimeAndRecordsTheTimes() throws {
    let home = try NetworkTests.Home("ann").environment
    let player = try Player(
      ["play", "--ui", "plain", "--ai", "easy", "--first", "me", "--clock", "5s+0"], environment: home)
    defer {
      player.send("quit")
      _ = player.exitStatus()
    }
    #expect(player.waitFor("Clock: 5 s a game for each side"), "\(player.output)")
    #expect(player.waitFor("your move (X): "))
    player.send("5")
    #expect(player.waitFor("computer plays "))
    let started = Date()
    #expect(player.waitFor("clock: you 0:05, computer 0:05 (yours is running)\nyour move (X): "), "\(player.output)")
    player.send("clock")
    #expect(player.waitFor("clock: you 0:0"))
    #expect(player.waitFor("your time is up\nresult: O wins (X lost on time)\n", timeout: 15), "\(player.output)")
    let waited = Date().timeIntervalSince(started)
    #expect(waited >= 4.9 && waited < 8, "the flag fell after \(waited) s of a 5 s clock")
    #expect(player.exitStatus() == 0)

    let text = try #require(try RecordsEndToEndTests.records(home).first?.text)
    for property in ["RE[W+T]", "TTE[time]", "TM[5]OT[0 fischer]", ";B[bb]BL[5]TTQ[0]", "WL[5]TTQ[0]"] {
      #expect(text.contains(property), "\(property) in \(text)")
    }
    let record = try GameRecord.parse(text)
    #expect(record.times.count == 2 && record.timesProblem == nil && record.result == .won(.o, .time))
    let read = try SgfmillTests.readWithSgfmill(try SgfmillTests.files(home))
    #expect(read.count == 1)
    for read in read { SgfmillTests.expect(read, is: record) }
  }

  @Test func theFullScreenShowsBothClocksAndLosesOnTime() throws {
    let home = try Binary.sandbox().environment
    let tmux = try TmuxSession(
      command: "sh -c '\(Binary.path) play --ai easy --first me --clock 5s+0; echo EXIT=$?; sleep 30'",
      environment: home)
    try tmux.waitFor(text: "You 0:05 · Computer 0:05 (5s+0)")
    try tmux.send("5")
    // The computer answers; then the player's clock runs, the screen woken each second.
    try tmux.waitFor(text: "▸You 0:03 · Computer 0:05")
    let screen = try tmux.waitFor(text: "You lost on time.", timeout: 10)
    #expect(screen.contains("You 0:00 · Computer 0:05") && screen.contains("Computer 1"), "\(screen)")
    try tmux.send("q")
    try tmux.waitFor(text: "EXIT=0")
    let text = try #require(try RecordsEndToEndTests.records(home).first?.text)
    #expect(text.contains("RE[W+T]") && text.contains("TM[5]OT[0 fischer]"), "\(text)")
  }

  /// The computer's search is bounded by its time left: on 15×15 with 1 second a game it would lose on time
  /// within five moves at its usual 250 ms a move. Its opponent is this program's own Gomocup brain (100 ms a
  /// move). A game the computer wins by a line before its eighth move shows too little of its clock (seen once
  /// in a loaded full run): another is played, at most three in all.
  @Test func theComputerNeverThinksPastItsClockOnABigBoard() throws {
    var longest = 0
    for _ in 0..<3 where longest < 8 {
      let output = try Self.gameAgainstTheBrain()
      let result = output.split(separator: "\n").first { $0.hasPrefix("result: ") }.map(String.init)
      #expect(result != nil && result?.contains("O lost on time") == false, "\(output.suffix(1_500))")
      longest = max(longest, output.components(separatedBy: "computer plays ").count - 1)
    }
    #expect(longest >= 8, "the computer never made 8 moves in a game")
  }

  /// One game of `play` (X, 15×15, 1 s a game for each side) against the brain: what `play` printed.
  private static func gameAgainstTheBrain() throws -> String {
    let home = try Binary.sandbox().environment
    let brain = try Player(["brain"], environment: home)
    let game = try Player(
      ["play", "--ui", "plain", "--ai", "perfect", "--size", "15", "--first", "me", "--clock", "1s+0"],
      environment: home)
    brain.send("START 15")
    #expect(brain.waitFor("OK"))
    brain.send("INFO timeout_turn 100")
    var prompts = 0
    let deadline = Date().addingTimeInterval(90)
    while Date() < deadline, !game.output.contains("result:") {
      guard game.count("your move (X): ") > prompts else {
        usleep(5_000)
        continue
      }
      prompts += 1
      if prompts == 1 {
        brain.send("BEGIN")
      } else {
        // "computer plays h8": the brain's x is the column, its y the row from the top.
        let last = try #require(game.output.components(separatedBy: "computer plays ").last?.prefix { $0 != "\n" })
        let column = Int(try #require(last.first?.asciiValue)) - 97
        let row = try #require(Int(last.dropFirst()))
        brain.send("TURN \(column),\(15 - row)")
      }
      let answers = { brain.output.split(separator: "\r\n").filter { $0.contains(",") && !$0.contains(" ") } }
      let before = prompts - 1
      while Date() < deadline, answers().count == before { usleep(2_000) }
      let move = try #require(answers().last?.split(separator: ","))
      let (x, y) = (try #require(Int(move[0])), try #require(Int(move[1])))
      game.send("\(y + 1),\(x + 1)")
    }
    return game.output
  }
}

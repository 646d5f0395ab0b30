import Foundation
import GameCore
import GameRecords
import Testing

/// `play --ui plain --opening swap2` through the real binary: a game against the computer where the player is
/// the first player and the computer answers, and a hot-seat game to a win whose record keeps the choice.
@Suite struct Swap2PlainEndToEndTests {
  @Test func againstTheComputerEachStepIsSaid() throws {
    let home = try NetworkTests.Home("swap2a").environment
    // Three stones, then (whatever the computer chose) moves until the input ends.
    let lines = ["h8", "j8", "h9", "black", "two", "a1", "o15", "white", "quit"]
    let result = try Binary.run(
      ["play", "--ui", "plain", "--ai", "normal", "--size", "15", "--opening", "swap2", "--first", "me"],
      input: lines.joined(separator: "\n") + "\n", environment: home, timeout: 60)
    let out = result.stdout
    #expect(result.status == 0, "\(result.stderr)")
    #expect(out.contains("Opening: Swap2.") && out.contains("You are the first player."))
    for step in [
      "place 3 stones: 1 of 3 (X next)", "place 3 stones: 2 of 3 (O next)", "place 3 stones: 3 of 3 (X next)",
    ] {
      #expect(out.contains("swap2 (you): \(step)"), "\(step)")
    }
    #expect(out.contains("swap2 (the computer): choose: black, white, or place 2 more (two)"))
    #expect(out.contains("computer chose "), "\(out)")
    // Once the colours are settled, who plays what is said and the prompt names the player's mark.
    #expect(out.contains("swap2: you play ") || out.contains("swap2: the computer plays "), "\(out)")
    #expect(!out.unicodeScalars.contains { $0 == "\u{1B}" })
  }

  @Test func aHotSeatGameKeepsTheChoiceInItsRecord() throws {
    let home = try NetworkTests.Home("swap2b").environment
    let lines = ["h8", "j8", "h9", "white", "a1", "h10", "a2", "h11", "a3", "h12"]
    let result = try Binary.run(
      ["play", "--ui", "plain", "--hotseat", "--size", "15", "--opening", "swap2"],
      input: lines.joined(separator: "\n") + "\n", environment: home, timeout: 60)
    #expect(result.status == 0 && result.stdout.hasSuffix("result: X wins\n"), "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("the second player (P2) chose white"))
    let text = try #require(try RecordsEndToEndTests.records(home).first?.text)
    #expect(text.contains("RE[B+]TTK[5]TTE[line]TTO[swap2 white]"), "\(text)")
    let record = try GameRecord.parse(text)
    let opening = try #require(record.opening).replay(rules: record.rules, moves: record.moves)
    #expect(opening.mark(of: .first) == .x && opening.game.outcome?.winner == .x)
  }
}

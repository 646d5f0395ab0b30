import Foundation
import Testing

/// `tictactoe brain` as a manager's pipe sees it: whatever comes in, only protocol answers go out, each one line
/// ending in CR LF, and nothing at all on standard error.
@Suite struct BrainCommandTests {
  /// The forms an answer of this brain may take.
  static func isAnswer(_ line: Substring) -> Bool {
    if line == "OK" || line.hasPrefix("ERROR ") || line.hasPrefix("UNKNOWN ") || line.hasPrefix("name=\"") {
      return true
    }
    let parts = line.split(separator: ",", omittingEmptySubsequences: false)
    return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
  }

  @Test("hostile input: long lines, NUL and escape bytes, stray CRs, junk in BOARD; only answers come out")
  func onlyAnswersComeOut() throws {
    let lines = [
      "START 9", "INFO timeout_turn 100", String(repeating: "A", count: 200_000), "TURN 4,4\u{0}", "\u{1B}[2J\u{7}",
      "TURN 4,4\r\r", "BOARD", "1,1,1", "x", "DONE", "TAKEBACK 8,8", "TURN 99999999999999999999,1", "RESTART",
      "RECTSTART 7,5", "BEGIN", "SWAP2BOARD", "1,1", "DONE", "ABOUT", "END", "TURN 1,1",
    ]
    let input = lines.joined(separator: "\r\n") + "\r\n"
    let result = try Binary.run(["brain"], input: input, timeout: 60)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("\r\n"))
    let answers = result.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
    for answer in answers {
      #expect(Self.isAnswer(answer), "not an answer: \(answer.prefix(80))")
      #expect(
        !answer.contains("\n") && !answer.contains("\r") && !answer.contains("\u{1B}") && !answer.contains("\u{0}"))
    }
    // One answer each for: START, the long line, TURN (a move), the escape line, TURN 4,4 again (taken), BOARD
    // (refused at DONE), TAKEBACK, the huge TURN, RESTART, RECTSTART, BEGIN, SWAP2BOARD, ABOUT; nothing after END.
    #expect(answers.count == 13, "\(answers)")
    #expect(answers.first == "OK" && answers.last?.hasPrefix("name=\"tictactoe\"") == true)
  }

  @Test("SWAP2BOARD through the real binary: three stones, then SWAP, a move or two stones, then SWAP or a move")
  func swap2Answers() throws {
    let lines = [
      "START 15", "INFO timeout_turn 300", "SWAP2BOARD", "DONE", "SWAP2BOARD", "7,7", "8,7", "8,8", "DONE",
      "SWAP2BOARD", "7,7", "8,7", "8,8", "6,6", "9,9", "DONE", "END",
    ]
    let start = Date()
    let result = try Binary.run(["brain"], input: lines.joined(separator: "\r\n") + "\r\n", timeout: 60)
    let took = Date().timeIntervalSince(start)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let answers = result.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast().map {
      $0.split(separator: " ")
    }
    #expect(answers.count == 4, "\(result.stdout)")
    guard answers.count == 4 else { return }
    #expect(answers[0] == ["OK"])
    // Three distinct cells on the board.
    #expect(answers[1].count == 3 && answers[1].allSatisfy { Self.isAnswer($0) && !$0.hasPrefix("ERROR") })
    #expect(Set(answers[1]).count == 3)
    // SWAP, one cell (white's fourth stone) or two (white, black): none on the three given.
    let given: Set<Substring> = ["7,7", "8,7", "8,8", "6,6", "9,9"]
    #expect(answers[2] == ["SWAP"] || ((1...2).contains(answers[2].count) && answers[2].allSatisfy(Self.isAnswer)))
    #expect(answers[2].allSatisfy { !given.contains($0) })
    #expect(answers[3] == ["SWAP"] || (answers[3].count == 1 && Self.isAnswer(answers[3][0])))
    #expect(answers[3].allSatisfy { !given.contains($0) })
    // Three answers of at most 300 ms each (the process's start and a debug build's slowness besides).
    #expect(took < 5, "\(took) s")
  }
}

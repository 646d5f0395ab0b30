import GameCore
import Session
import Testing

@testable import App
@testable import FrontEnds

/// Plain network mode's `help` and its result lines, said from the player's side.
@Suite struct PlainNetworkWordsTests {
  @Test func helpListsWhatCanBeTypedInAMatch() {
    let text = PlainNetworkWords.help(flow: false, invite: false, timed: false)
    for word in ["chat TEXT", "resign", "rematch", "code", "claim", "quit", "help"] {
      #expect(text.contains("\n  \(word) ") || text.hasPrefix("  \(word) "), "\(word) in:\n\(text)")
    }
    for later in ["draw", "takeback", "decline", "abort", "clock", "new invite"] {
      #expect(!text.contains("  \(later) "), "\(later) is not offered in this match")
    }
    let all = PlainNetworkWords.help(flow: true, invite: true, timed: true)
    for word in ["draw", "takeback", "decline", "abort", "clock", "new invite"] {
      #expect(all.contains("\n  \(word) "), "\(word) in:\n\(all)")
    }
    #expect(all.split(separator: "\n").allSatisfy { $0.count <= 80 }, "each line fits 80 columns")
  }

  @Test func aResultSaysWhoWonFromThisPlayersSide() {
    #expect(PlainNetworkWords.resultLine(.line(winner: .x), mine: .x) == "result: X wins: you win")
    #expect(PlainNetworkWords.resultLine(.line(winner: .x), mine: .o) == "result: X wins: you lose")
    #expect(PlainNetworkWords.resultLine(.resigned(loser: .o), mine: .o) == "result: X wins (O resigned): you lose")
    #expect(
      PlainNetworkWords.resultLine(.lostOnTime(loser: .x), mine: .o) == "result: O wins (X lost on time): you win")
    #expect(PlainNetworkWords.resultLine(.draw, mine: .x) == "result: draw")
    #expect(PlainNetworkWords.opponentLeftLine(mine: .o) == "result: O wins (X left the game): you win")
  }
}

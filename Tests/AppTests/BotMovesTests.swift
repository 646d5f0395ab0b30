import EventLoop
import Foundation
import GameCore
import PlayerFiles
import Testing

@testable import App
@testable import PracticeBot

/// Where the bot's moves come from: boards it solves from its book at once are answered on the loop; bigger ones
/// (5×5 with 4 in a row past its table, where a move took up to 156 ms of the loop) go to a worker thread and
/// come back on the loop, which stays free meanwhile.
@Suite struct BotMovesTests {
  private func moves(_ engine: (words: [String], cap: Int)? = nil) -> BotMoves {
    let path = NSTemporaryDirectory() + "/botmoves-\(UUID().uuidString).log"
    return BotMoves(
      engine: engine, ai: AIPlayer(level: .perfect, budget: BotHost.moveBudget, book: MoveBook()), botName: "robo",
      loop: EventLoop(), log: Log(path: path, maximumBytes: 65536))
  }

  @Test func onlyBoardsOfUpTo16CellsAreChosenOnTheLoop() throws {
    let computer = moves()
    #expect(computer.chooserOnLoop(rules: .standard) != nil)
    #expect(computer.chooserOnLoop(rules: try Rules(size: 4, k: 4)) != nil)
    #expect(computer.chooserOnLoop(rules: try Rules(size: 5, k: 4)) == nil)
    #expect(computer.chooserOnLoop(rules: try Rules(size: 9, k: 5)) == nil)
    #expect(moves((["brain"], 2)).chooserOnLoop(rules: .standard) == nil)
  }

  @Test func aSearchPast5x5sTableAnswersOnTheLoopWhichStaysFree() throws {
    let loop = EventLoop()
    let path = NSTemporaryDirectory() + "/botmoves-\(UUID().uuidString).log"
    let moves = BotMoves(
      engine: nil, ai: AIPlayer(level: .perfect, budget: BotHost.moveBudget, book: MoveBook()), botName: "robo",
      loop: loop, log: Log(path: path, maximumBytes: 65536))
    // Stones the perfect level would not have played: not in the shipped table, solved from scratch.
    var game = Game(rules: try Rules(size: 5, k: 4))
    for (row, column) in [(0, 0), (4, 1), (0, 4), (4, 3)] { try game.play(Position(row: row, column: column)) }
    let ticket = BotMoveRequest.Ticket(gameNumber: 1, moves: 4)
    var answer: BotMoveAnswer?
    let start = Monotonic.now()
    moves.ask(BotMoveRequest(game: game, ticket: ticket), for: ObjectIdentifier(loop)) { answer = $0 }
    let asked = Monotonic.now() - start
    #expect(answer == nil, "answered before the loop ran: the search ran on it")
    // Meanwhile the loop serves a timer every millisecond.
    var ticks = 0
    while answer == nil, Monotonic.now() - start < 30 {
      _ = loop.schedule(at: loop.now + 0.001) { ticks += 1 }
      loop.runOnce(maximumWait: 0.05)
    }
    let answered = Monotonic.now() - start
    guard case .move(let position?) = answer else {
      Issue.record("no move came back within 30 s: \(String(describing: answer))")
      return
    }
    #expect(game.legalMoves.contains(position))
    // The search took a while, and all that time the loop went on: asking took a small part of it.
    #expect(answered > 0.02, "the search was too quick to tell: \(answered) s")
    #expect(asked < answered / 4, "asking took \(asked) s of \(answered) s")
    #expect(ticks >= 3, "the loop ran \(ticks) timers while the search took \(answered) s")
  }
}

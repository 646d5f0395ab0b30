import GameCore
import GameRecords
import MatchCoordination
import TerminalUI

/// The records of local games: against the computer, an outside engine, or at one keyboard.
extension RecordOfGame {
  /// A local game (against the computer or hot seat), once it is over (on the board, or on `clock` when its
  /// flag fell: then with the time control and each move's times); nil while it is not. A game that opened with
  /// `swap2` keeps its choices once they settled the colours, and on a clock each stone's time as its turns were
  /// charged (`LocalClock.stoneCharges`, as a network game's records keep them).
  static func local(
    game: Game, opponent: Opponent, humanMark: Mark, playerName: String, date: String, clock: LocalClock? = nil,
    swap2: Swap2? = nil
  ) -> GameRecord? {
    let result: RecordResult
    if let loser = clock?.flaggedColour(in: swap2) {
      result = .won(loser.opponent, .time)
    } else if let outcome = game.outcome {
      result = outcome.winner.map { .won($0, .line) } ?? .drawn(.full)
    } else {
      return nil
    }
    let black: GameRecord.Player
    let white: GameRecord.Player
    switch opponent {
    case .hotseat:
      // Two people at one keyboard give no names: the marks stand for them.
      black = .init(name: "X")
      white = .init(name: "O")
    case .computer(let level):
      let human = GameRecord.Player(name: playerName)
      let computer = GameRecord.Player(name: GameRecord.Player.computerName, level: level.rawValue)
      (black, white) = humanMark == .x ? (human, computer) : (computer, human)
    case .engine(let name):
      (black, white) = engineSides(name: name, humanMark: humanMark, playerName: playerName)
    }
    var record = GameRecord(
      rules: game.rules, black: black, white: white, date: date, result: result, moves: game.history)
    record.opening = swap2.flatMap(RecordOpening.init)
    if let clock {
      // One referee: each move's (turn's) charge is the time it took, the same the screen showed.
      record.timeControl = clock.control
      record.times = clock.stoneCharges(in: swap2).map { MoveTime(charged: $0.charged, left: $0.left) }
    }
    return record
  }

  /// A game an outside engine lost by a fault before it was over: won by the player, the moves so far.
  static func forfeit(game: Game, engine name: String, humanMark: Mark, playerName: String, date: String)
    -> GameRecord
  {
    let (black, white) = engineSides(name: name, humanMark: humanMark, playerName: playerName)
    return GameRecord(
      rules: game.rules, black: black, white: white, date: date, result: .won(humanMark, .forfeit), moves: game.history)
  }

  /// The player and the engine (its level "engine") as black and white.
  private static func engineSides(name: String, humanMark: Mark, playerName: String) -> (
    GameRecord.Player, GameRecord.Player
  ) {
    let human = GameRecord.Player(name: playerName)
    let engine = GameRecord.Player(name: name, level: GameRecord.Player.engineLevel)
    return humanMark == .x ? (human, engine) : (engine, human)
  }
}

import GameCore
import GameRecords
import PeerTrust
import Security
import Session
import TerminalUI

/// Makes the record of a finished game from what the front ends know about it. Pure: the caller gives the date.
enum RecordOfGame {
  /// A local game (against the computer or hot seat), once it is over (on the board, or on `clock` when its
  /// flag fell: then with the time control and each move's times); nil while it is not.
  static func local(
    game: Game, opponent: Opponent, humanMark: Mark, playerName: String, date: String, clock: LocalClock? = nil
  ) -> GameRecord? {
    let result: RecordResult
    if let loser = clock?.flagged {
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
    if let clock {
      // One referee: each move's charge is the time it took, the same the screen showed.
      record.timeControl = clock.control
      record.times = clock.charges.map { MoveTime(charged: $0.charged, left: $0.left) }
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

  /// How a network game ended, as the session reports it.
  enum NetworkEnd: Equatable {
    case result(Session.GameResult)
    /// The player with this mark left the game in progress (a goodbye, or quitting).
    case left(Mark)
  }

  /// A network game: the names each side gave in its hello, both keys, and how it ended.
  static func network(
    game: Game, myMark: Mark, myName: String, peerName: String, myKey: String?, peerKey: String?, end: NetworkEnd,
    date: String
  ) -> GameRecord {
    let me = GameRecord.Player(name: myName, publicKey: myKey)
    let peer = GameRecord.Player(name: peerName, publicKey: peerKey)
    let (black, white) = myMark == .x ? (me, peer) : (peer, me)
    let result: RecordResult
    switch end {
    case .result(.line(let winner)): result = .won(winner, .line)
    case .result(.draw): result = .drawn(.full)
    case .result(.resigned(let loser)): result = .won(loser.opponent, .resignation)
    case .result(.abandoned(let loser)): result = .won(loser.opponent, .claim)
    case .result(.lostOnTime(let loser)): result = .won(loser.opponent, .time)
    case .result(.drawAgreed): result = .drawn(.agreed)
    case .result(.deadPosition): result = .drawn(.dead)
    case .result(.aborted): result = .void
    case .result(.disputed): result = .disputed
    case .left(let leaver): result = .won(leaver.opponent, .left)
    }
    return GameRecord(rules: game.rules, black: black, white: white, date: date, result: result, moves: game.history)
  }

  /// Today, `YYYY-MM-DD` in UTC.
  static func today() -> String { "\(CalendarDay.today())" }
}

extension RecordOfGame {
  /// The record a session's output finishes, if it finishes one: a game's end (a line, a draw, a resignation, a
  /// claim), or a goodbye from either side while a game was in progress (which that side loses).
  static func network(after output: SessionOutput, session: NetSession, myKey: String?, peerKey: String?, date: String)
    -> GameRecord?
  {
    guard let game = session.game, let myMark = session.myMark else { return nil }
    let end: NetworkEnd
    switch output {
    case .gameEnded(let result): end = .result(result)
    // Left with a game in progress: not after a game that ended (by agreement, on time, an abort, a resignation:
    // its board is not full and has no line, but it has a result already).
    case .closed(.localQuit) where !game.isOver && session.lastResult == nil: end = .left(myMark)
    case .closed(.peerQuit) where !game.isOver && session.lastResult == nil: end = .left(myMark.opponent)
    default: return nil
    }
    var record = network(
      game: game, myMark: myMark, myName: session.configuration.name, peerName: session.peerName?.unsanitised ?? "",
      myKey: myKey, peerKey: peerKey, end: end, date: date)
    record.addClock(of: session)
    return record
  }
}

extension GameRecord {
  /// What version 3 of the protocol adds to a network game's record: the time control, each move's agreed
  /// times, the flag claim that ended it, and version 2 of the signed bytes (which signs them). Both sides of a
  /// game add the same.
  mutating func addClock(of session: NetSession) {
    guard session.hasGameFlow else { return }
    signedVersion = 2
    if let clock = session.clock {
      timeControl = clock.control
      times = clock.agreedTimes(plies: moves.count).map { MoveTime(charged: $0.charged, left: $0.left) }
    }
    flag = session.flagFacts.map {
      FlagClaim(claimant: $0.claimant, timeLeft: $0.timeLeft, observed: $0.observed, thinking: $0.thinking)
    }
  }
}

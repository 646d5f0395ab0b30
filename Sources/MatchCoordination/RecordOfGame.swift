import GameCore
import GameRecords
import PeerTrust
import Session

/// Makes the record of a finished game from what the front ends know about it. Pure: the caller gives the date.
public enum RecordOfGame {
  /// How a network game ended, as the session reports it.
  public enum NetworkEnd: Equatable, Sendable {
    case result(Session.GameResult)
    /// The player with this mark left the game in progress (a goodbye, or quitting).
    case left(Mark)
  }

  /// A network game: the names each side gave in its hello, both keys, and how it ended.
  public static func network(
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
}

extension RecordOfGame {
  /// The record a session's output finishes, if it finishes one: a game's end (a line, a draw, a resignation, a
  /// claim), or a goodbye from either side while a game was in progress (which that side loses).
  public static func network(
    after output: SessionOutput, session: NetSession, myKey: String?, peerKey: String?, date: String
  )
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
    // A Swap2 opening's choices (TTO), once they settled the colours: signed with the rest of the record.
    record.opening = session.swap2.flatMap { RecordOpening($0.opening) }
    return record
  }
}

extension GameRecord {
  /// What version 3 of the protocol adds to a network game's record: the time control, each move's agreed
  /// times, the flag claim that ended it, and version 2 of the signed bytes (which signs them). Both sides of a
  /// game add the same.
  public mutating func addClock(of session: NetSession) {
    guard session.hasGameFlow else { return }
    signedVersion = 2
    if let clock = session.clock {
      timeControl = clock.control
      times = session.agreedTimes(plies: moves.count).map { MoveTime(charged: $0.charged, left: $0.left) }
    }
    flag = session.flagFacts.map {
      FlagClaim(claimant: $0.claimant, timeLeft: $0.timeLeft, observed: $0.observed, thinking: $0.thinking)
    }
  }
}

import GameCore
import MatchCoordination
import TerminalUI
import UntrustedText
import WireProtocol

/// What a spectator's plain mode prints of the game it watches: the players, the board, each move, the result and
/// the score. Every name came from the host, so it is a `PeerText` (escaped when printed).
enum PlainWatchWords {
  static func lines(_ update: WatchUpdate) -> String {
    switch update {
    case .position(let watched):
      let key = watched.joinerKey?.description ?? "?"
      guard watched.gameNumber > 0 else {
        return "watching \(watched.hostName) against \(watched.joinerName) (key \(key)): the first game has not begun\n"
      }
      let players = "\(watched.name(of: .x)) (X) against \(watched.name(of: .o)) (O)"
      var text = "watching game \(watched.gameNumber): \(players), \(watched.game.rules)"
      if watched.timeControl.isTimed { text += "; clock \(watched.timeControl.spoken)" }
      text += "\n\(watched.joinerName)'s key: \(key)\n" + PlainSession.boardText(watched.game) + "\n"
      if watched.end != nil { text += endLine(watched) }
      return text + openingLine(watched)
    case .moved(let watched, let position, let mark):
      let placer = watched.opening.flatMap { $0.isSettled ? nil : $0.log.last?.player }
      let who = placer.map { "\(watched.name(of: $0 == .first ? .x : .o))" } ?? "\(watched.name(of: mark))"
      var line = "\(who) (\(mark)) plays \(PlainSession.moveName(position, rules: watched.game.rules))"
      if let time = watched.times.last, watched.times.count == watched.game.history.count {
        line += ", \(TimeControl.face(Int(time.left))) left"
      }
      return line + "\n" + PlainSession.boardText(watched.game) + "\n" + openingLine(watched)
    case .ended(let watched):
      return endLine(watched)
    case .unfinished(let watched, let why):
      return "game \(watched.gameNumber) ended unfinished: \(why)\n"
    }
  }

  /// While the game's Swap2 opening runs, its step as the players' screens say it, each player by name (the
  /// first player is X until the colours are settled); nothing otherwise.
  static func openingLine(_ watched: WatchedGame) -> String {
    guard watched.end == nil, let opening = watched.opening else { return "" }
    let first = "\(watched.name(of: .x))"
    let second = "\(watched.name(of: .o))"
    return NetSwap2Words.watched(opening, first: first, second: second).map { $0 + "\n" } ?? ""
  }

  /// How the game ended, and the score.
  static func endLine(_ watched: WatchedGame) -> String {
    guard watched.end != nil else { return "" }
    let score = watched.score.count == 3 ? watched.score : [0, 0, 0]
    return "game \(watched.gameNumber): \(said(watched))\n"
      + "score: \(watched.hostName) \(score[0]), \(watched.joinerName) \(score[1]), drawn \(score[2])\n"
  }

  /// How the game ended, in words ("alice (X) wins with a line"); empty while it is on.
  static func said(_ watched: WatchedGame) -> String {
    guard let end = watched.end else { return "" }
    let named = end.mark.map { "\(watched.name(of: $0)) (\($0))" } ?? ""
    let said: String
    switch end.how {
    case .line: said = "\(named) wins with a line"
    case .fullBoard: said = "drawn: the board is full"
    case .resigned: said = "\(named) resigned"
    case .abandoned: said = "\(named) left and did not come back"
    case .drawAgreed: said = "drawn by agreement"
    case .deadPosition: said = "drawn: no line can be completed"
    case .aborted: said = "the game was called off"
    case .lostOnTime: said = "\(named) lost on time"
    case .disputed: said = "disputed: \(named) claimed a win on time that the other clock denies"
    }
    return said
  }
}

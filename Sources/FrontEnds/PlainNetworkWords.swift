import GameCore
import Session

/// What plain network mode says that is worked out from the match alone: the `help` list of what can be typed
/// now, and how a game ended, from this player's side.
enum PlainNetworkWords {
  /// What can be typed in a networked match, one command a line: the words version 3's game flow adds
  /// (`flow`), `new invite` for a host that has a relay invite (`invite`), `clock` in a timed game.
  static func help(flow: Bool, invite: Bool, timed: Bool) -> String {
    var lines = [
      ("h8, b2 or 5", "a move: a coordinate, row,col, or a cell number (1 to 9 on 3×3)"),
      ("chat TEXT", "say something to your opponent (say TEXT too)"),
      ("resign", "resign this game: it counts as a loss"),
    ]
    if flow {
      lines += [
        ("draw", "offer a draw, or accept theirs"), ("takeback", "ask to take your last move back, or accept"),
        ("decline", "decline their offer"), ("abort", "call the game off before both of you have moved"),
      ]
    }
    lines += [
      ("rematch", "play again once a game is over"), ("code", "the verification code to compare"),
      ("claim", "claim the win if they do not come back in time"),
    ]
    if timed { lines.append(("clock", "both clocks")) }
    if invite { lines.append(("new invite", "a new relay invite (old ones stop working)")) }
    lines += [("quit", "leave the match (a game in progress counts as a loss)"), ("help", "this list")]
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 }
      .joined(separator: "\n")
  }

  /// The line that says how a game ended, and who won from this player's side (`mine`: this player's mark).
  static func resultLine(_ result: GameResult, mine: Mark?) -> String {
    let text: String
    let winner: Mark?
    switch result {
    case .line(let mark): (text, winner) = ("\(mark) wins", mark)
    case .draw: (text, winner) = ("draw", nil)
    case .resigned(let loser): (text, winner) = ("\(loser.opponent) wins (\(loser) resigned)", loser.opponent)
    case .abandoned(let loser):
      (text, winner) = ("\(loser.opponent) wins (\(loser) did not come back)", loser.opponent)
    case .drawAgreed: (text, winner) = ("draw by agreement", nil)
    case .deadPosition: (text, winner) = ("draw (no line can still be completed)", nil)
    case .aborted: (text, winner) = ("aborted", nil)
    case .lostOnTime(let loser): (text, winner) = ("\(loser.opponent) wins (\(loser) lost on time)", loser.opponent)
    case .disputed: (text, winner) = ("disputed (the clocks disagree about a loss on time)", nil)
    }
    return "result: " + text + side(winner: winner, mine: mine)
  }

  /// The opponent left a game in progress: this player, with `mine`, wins it.
  static func opponentLeftLine(mine: Mark) -> String {
    "result: \(mine) wins (\(mine.opponent) left the game)" + side(winner: mine, mine: mine)
  }

  private static func side(winner: Mark?, mine: Mark?) -> String {
    guard let winner, let mine else { return "" }
    return winner == mine ? ": you win" : ": you lose"
  }
}

extension PlainNetworkDriver {
  /// The joiner has answered every question and knows the host (its hello came) but has no game yet: the host is
  /// deciding whether to let it in. Said so, as the full screen does, or nothing would be printed meanwhile.
  func sayWaitingToBeLetIn() {
    guard match.role == .joiner, view.finished == nil, view.question == nil, !view.asksYesOrNo,
      let session = view.session, session.phase == .awaitingWelcome, let host = session.peerName
    else { return }
    emit("waiting for \(host) to let you in\n")
  }

  /// "result: X wins (O left the game): you win", when the opponent left with a game in progress.
  func opponentLeftLine() -> String? {
    // As its record has it: a board with no result yet (a game ended by agreement or resignation has one).
    guard let session = view.session, let mark = session.myMark, let game = session.game, !game.isOver,
      session.lastResult == nil
    else { return nil }
    return PlainNetworkWords.opponentLeftLine(mine: mark)
  }
}

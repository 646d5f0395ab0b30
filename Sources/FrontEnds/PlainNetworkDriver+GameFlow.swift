import EventLoop
import GameCore
import MatchCoordination
import Session

/// Plain mode's words for version 3's game flow (draw, takeback, decline, abort), the clock line printed with
/// each move and for `clock`, and a game's end.
extension PlainNetworkDriver {
  /// The words of version 3's game flow: answered at any time in a game, as resign is.
  static let flowWords: Set<String> = ["draw", "takeback", "decline", "abort"]

  /// `draw` offers a draw or accepts the opponent's; `takeback` asks or accepts; `decline` refuses their offer;
  /// `abort` voids the game before both sides moved. Each is answered in one line.
  func gameFlow(_ word: String) {
    let session = view.session
    let accepting =
      word == "draw" ? session?.drawOfferedByPeer == true : session?.takebackRequestedByPeer != nil
    let declining = session?.drawOfferedByPeer == true ? "the draw" : "the takeback"
    let events: [MatchEvent]
    do throws(ActionRefusal) {
      switch word {
      case "draw": events = try match.offerDraw()
      case "takeback": events = try match.takeback()
      case "decline": events = try match.declineOffer()
      default: events = try match.abort()
      }
    } catch {
      emitError("\(error)")
      return
    }
    switch word {
    case "draw", "takeback": emit(MatchWords.gameFlowSent(draw: word == "draw", accepted: accepting) + "\n")
    case "decline": emit("You decline \(declining).\n")
    default: break
    }
    show(events)
    // The last line says what comes next: a move waits for the answer to a takeback request; an offer or a
    // refusal leaves the question that was open (a takeback accepted, an abort or a draw agreed printed theirs).
    if word == "takeback" && !accepting {
      emit("waiting for \(peerName) to answer (no move until then)\n")
    } else if (word == "draw" && !accepting) || word == "decline" {
      askAgain()
    }
  }

  /// "clock: you 4:32, bob 5:00 (bob's running)", or nil in an untimed game.
  func clockLine(_ session: NetSession) -> String? {
    guard let clocks = NetworkPresenter.clocks(session, now: Monotonic.now()) else { return nil }
    return clocks.plainLine(names: ("you", "\(peerName)"))
  }

  /// A game ended: the result, the match's score, and what to type next. An offer that came with the game's end
  /// (a practice bot's) is said next, with what to type; after an abandoned game the match is over (or that
  /// offer says what to type).
  func showEnd(_ result: GameResult, _ session: NetSession) {
    emit(PlainNetworkWords.resultLine(result, mine: session.myMark) + "\n")
    let score = session.score
    emit("match: you \(score.wins), \(peerName) \(score.losses), draws \(score.draws)\n")
    if case .abandoned = result { return }
    if !session.rematchOfferedByPeer { emit("type rematch to play again, or quit: ") }
  }
}

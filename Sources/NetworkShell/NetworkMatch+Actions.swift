import GameCore
import MatchCoordination
import NetworkFacts
import Session
import Transport

/// The player's answers and actions in a networked match: the trust question and the terms, moves, chat,
/// resignation, rematch, draws, takebacks, abort and the claim after the grace period. Each goes through the
/// coordinator, and what it says is carried out.
extension NetworkMatch {
  /// The player's answer to the pending trust question.
  package func answer(accept: Bool) -> [MatchEvent] {
    perform(coordinator.answer(accept: accept, now: clock()))
  }

  package func play(_ position: Position) throws(PlayError) -> [MatchEvent] {
    perform(try coordinator.play(position, now: clock()))
  }

  /// A choice of the Swap2 opening: take black, take white, or place two more.
  package func choose(_ choice: Swap2.Choice) throws(PlayError) -> [MatchEvent] {
    perform(try coordinator.choose(choice, now: clock()))
  }

  package func chat(_ text: String) throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.chat(text, now: now) }
  }
  package func resign() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.resign(now: now) }
  }
  package func rematch() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.offerRematch(now: now) }
  }
  /// Offers a draw, or accepts the opponent's offer (PROTOCOL.md rule 16).
  package func offerDraw() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.offerDraw(now: now) }
  }
  /// Declines what the opponent offers or asks: its draw offer, else its takeback request.
  package func declineOffer() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in
      session.drawOfferedByPeer
        ? try session.declineDraw(now: now) : try session.answerTakeback(accept: false, now: now)
    }
  }
  /// Asks to take back this player's last move, or accepts the opponent's request.
  package func takeback() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in
      session.takebackRequestedByPeer != nil
        ? try session.answerTakeback(accept: true, now: now) : try session.requestTakeback(now: now)
    }
  }
  /// Ends the game as void before each side has made its first move (rule 17).
  package func abort() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.abort(now: now) }
  }
  /// After the grace period: the opponent did not come back; the game is won.
  package func claim() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.claim(now: now) }
  }

  func act(_ action: (inout NetSession, Double) throws(ActionRefusal) -> [SessionOutput])
    throws(ActionRefusal) -> [MatchEvent]
  {
    let now = clock()
    return perform(try coordinator.attempt(now: now) { (session) throws(ActionRefusal) in try action(&session, now) })
  }

  // MARK: - Leaving

  /// The player leaves: a goodbye to the game's peer, and every connection closed.
  package func quit() -> [MatchEvent] {
    perform(coordinator.quit(now: clock()))
  }
}

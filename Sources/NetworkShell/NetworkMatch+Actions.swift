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
  public func answer(accept: Bool) -> [MatchEvent] {
    perform(coordinator.answer(accept: accept, now: clock()))
  }

  public func play(_ position: Position) throws(PlayError) -> [MatchEvent] {
    perform(try coordinator.play(position, now: clock()))
  }

  /// A choice of the Swap2 opening: take black, take white, or place two more.
  public func choose(_ choice: Swap2.Choice) throws(PlayError) -> [MatchEvent] {
    perform(try coordinator.choose(choice, now: clock()))
  }

  public func chat(_ text: String) throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.chat(text, now: now) }
  }
  public func resign() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.resign(now: now) }
  }
  public func rematch() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.offerRematch(now: now) }
  }
  /// Offers a draw, or accepts the opponent's offer (PROTOCOL.md rule 16).
  public func offerDraw() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.offerDraw(now: now) }
  }
  /// Declines what the opponent offers or asks: its draw offer, else its takeback request.
  public func declineOffer() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in
      session.drawOfferedByPeer
        ? try session.declineDraw(now: now) : try session.answerTakeback(accept: false, now: now)
    }
  }
  /// Asks to take back this player's last move, or accepts the opponent's request.
  public func takeback() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in
      session.takebackRequestedByPeer != nil
        ? try session.answerTakeback(accept: true, now: now) : try session.requestTakeback(now: now)
    }
  }
  /// Ends the game as void before each side has made its first move (rule 17).
  public func abort() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.abort(now: now) }
  }
  /// After the grace period: the opponent did not come back; the game is won.
  public func claim() throws(ActionRefusal) -> [MatchEvent] {
    try act { (session, now) throws(ActionRefusal) in try session.claim(now: now) }
  }

  func act(_ action: (inout NetSession, Double) throws(ActionRefusal) -> [SessionOutput])
    throws(ActionRefusal) -> [MatchEvent]
  {
    let now = clock()
    return perform(try coordinator.attempt(now: now) { (session) throws(ActionRefusal) in try action(&session, now) })
  }

  // MARK: - Joining and leaving

  /// Joiner: connects to the first of `addresses` (what `endpoint` resolved to) that answers, without waiting:
  /// the event loop sees each attempt through, and a refused or silent address gives way to the next.
  public func join(_ endpoint: Endpoint, addresses: [Sockets.Address]) -> [MatchEvent] {
    join(addresses.map { (endpoint, $0) })
  }

  /// Joiner: as `join(_:addresses:)` for several endpoints (an invite's), tried in the order given.
  public func join(_ candidates: [(Endpoint, Sockets.Address)]) -> [MatchEvent] {
    join(candidates, relay: nil)
  }

  /// Joiner: the name could not be resolved (or another failure before any connection): the match ends.
  public func joinFailed(_ end: MatchEnd) -> [MatchEvent] {
    perform(withJoiner { $0.joinFailed(end) } ?? [])
  }

  /// Joiner: the host's name looked up again (`nameToResolve`): connect to the first of `addresses`.
  public func reconnect(to addresses: Result<[Sockets.Address], NetworkError>) -> [MatchEvent] {
    perform(withJoiner { $0.resolved(addresses, now: clock()) } ?? [])
  }

  public func quit() -> [MatchEvent] {
    perform(coordinator.quit(now: clock()))
  }
}

extension NetworkMatch {
  /// Host: the opening its terms offer (a joiner's game has the host's: `session?.opening`).
  package var opening: Opening { coordinator.core.configuration.opening }
}

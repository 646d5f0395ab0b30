import Session

/// The question open in plain mode, asked again after an interruption.
extension PlainNetworkDriver {
  /// After an interruption (an `error:` line, a chat line) the question that is open now is asked again, so
  /// the last line a player or a screen reader sees is always what to type: the trust question, the move, or
  /// the rematch.
  func askAgain() {
    guard !shutdown.isEnding else { return }
    if view.question != nil {
      emit("[y/n or paste the fingerprint]: ")
      return
    }
    if view.asksYesOrNo {
      emit("[y/n]: ")
      return
    }
    guard let session = view.session else { return }
    if let prompt = openingPrompt(session) {
      emit(prompt)
    } else if session.myTurn, let game = session.game, !game.isOver {
      emit("your move (\(session.myMark.map { "\($0)" } ?? "?")): ")
    } else if session.phase == .betweenGames, let result = session.lastResult {
      // After an abandoned game the match is over, unless a rematch is offered (a kept game declined).
      if case .abandoned = result, !session.rematchOfferedByPeer { return }
      emit(session.rematchOfferedByPeer ? "type rematch to accept, or quit: " : "type rematch to play again, or quit: ")
    }
  }
}

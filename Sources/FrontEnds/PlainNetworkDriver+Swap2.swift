import GameCore
import MatchCoordination
import Session
import TerminalUI

/// Plain mode's Swap2 opening in a network game: each step said after the board ("Swap2: Bob places 3 stones
/// (X, O, X): 1 of 3 down, O next"), the prompt for this player's stone or choice, the choice typed as a word
/// (black, white, two), and the peer's choices and the colours they settle said as they come.
extension PlainNetworkDriver {
  /// The opening's status line and this player's prompt (or who is waited for); false when no opening runs.
  func showOpeningPrompt(_ session: NetSession) -> Bool {
    guard session.inOpening, let swap2 = session.swap2 else { return false }
    if let status = NetSwap2Words.status(swap2.opening, me: swap2.me, peer: "\(peerName)") { emit(status + "\n") }
    guard !session.isResuming else { return true }
    if let prompt = openingPrompt(session) {
      emit(prompt)
    } else {
      emit("waiting for \(peerName)\n")
    }
    return true
  }

  /// What to type now in the opening when it is this player's turn ("stone 2 of 3 (O): ", "black, white or
  /// two: "); nil when it is not.
  func openingPrompt(_ session: NetSession) -> String? {
    guard session.inOpening, session.myTurn, let opening = session.swap2?.opening else { return nil }
    if let placing = opening.placing {
      return "stone \(placing.placed + 1) of \(placing.of) (\(opening.game.turn)): "
    }
    return session.openingChoices.map(NetSwap2Words.word).joined(separator: ", ") + ": "
  }

  /// A typed choice while one is this player's: made, said, and what follows shown. False when the line is not
  /// a choice word or no choice is due (it may be a move).
  func chooseTyped(_ line: String, _ session: NetSession) -> Bool {
    guard !session.openingChoices.isEmpty, let choice = NetSwap2Words.choice(typed: line) else { return false }
    do {
      let events = try match.choose(choice)
      emit(NetSwap2Words.choice(choice, by: "you", mine: true) + "\n")
      show(events)
      if let updated = view.session, updated.inOpening { _ = showOpeningPrompt(updated) }
    } catch {
      emitError("\(error)")
    }
    return true
  }

  /// The session's Swap2 news: the peer's choice, the colours settled.
  func showOpening(_ output: SessionOutput, _ session: NetSession) {
    switch output {
    case .peerChose(let choice):
      emit(NetSwap2Words.choice(choice, by: "\(peerName)", mine: false) + "\n")
      if session.inOpening, let game = session.game {
        emit(PlainSession.boardText(game) + "\n")
        _ = showOpeningPrompt(session)
      }
    case .coloursSettled(let mark):
      emit(NetSwap2Words.settled(myMark: mark, next: session.game?.turn ?? .o) + "\n")
      guard let game = session.game else { return }
      emit(PlainSession.boardText(game) + "\n")
      emit(session.myTurn ? "your move (\(mark)): " : "waiting for \(peerName)'s move\n")
    default:
      break
    }
  }
}

import GameCore

/// A local game's Swap2 opening on the full screen: begun with the game when the `opening` setting asks for it
/// and the rules allow it, the player's choices (`x`, `o`, `p`), and the computer's answers.
extension UIController {
  /// Whether a new game of `match` opens with Swap2: the setting asks for it, the rules allow it, and the
  /// opponent is the computer or a second player (an engine plays the usual opening).
  func opensWithSwap2(_ match: Match) -> Bool {
    state.settings.opening == .swap2 && Swap2.supports(match.rules) && !match.isEngineGame
  }

  /// A new game's opening: Swap2 with the player's place in it (the first player when the player would have
  /// moved first; in hot seat P1 is the first player in odd games), its clock waiting for the colours; or none.
  func startOpening(_ match: inout Match) {
    match.swap2 = nil
    guard opensWithSwap2(match), let opening = try? Swap2(rules: match.rules) else { return }
    let human: Swap2.Player =
      match.isComputerGame
      ? (match.humanMark == .x ? .first : .second) : (match.gamesStarted.isMultiple(of: 2) ? .first : .second)
    match.swap2 = LocalSwap2(opening: opening, human: human, control: state.settings.clock)
    match.clock = nil
    match.followOpening(now: state.now)
  }

  /// The player's choice (`x`, `o` or `p`): made when the opening asks for one of the player (either player in
  /// hot seat); otherwise said why not. Outside a Swap2 opening the keys do nothing.
  mutating func chooseInOpening(_ choice: Swap2.Choice) -> [Effect] {
    guard var match = state.match, let swap2 = match.swap2, swap2.isOpening, !match.isOver else { return [] }
    if match.computerToAnswerSwap2 {
      match.notice = "Wait for the computer's answer."
    } else if swap2.opening.choices.isEmpty {
      match.notice = "Place a stone: the opening asks for a choice after the 3rd and the 5th stone."
    } else if !swap2.opening.choices.contains(choice) {
      match.notice = "Not a choice now: \(LocalSwap2.keys(for: swap2.opening.step))."
    } else {
      do {
        try match.choose(choice, now: state.now)
      } catch {
        match.notice = "\(error)"
      }
    }
    state.match = match
    return askComputerIfItsTurn()
  }

  /// The computer's answer in the opening (`Swap2Computer`): its stones or its choice, and after a choice of O
  /// its first move; ignored if the game changed since it was asked.
  public mutating func computerAnsweredSwap2(_ actions: [Swap2.Action], token: Int) -> [Effect] {
    guard var match = state.match, match.token == token, match.aiThinking, match.computerToAnswerSwap2 else {
      return []
    }
    match.aiThinking = false
    match.notice = nil
    answer: for action in actions {
      do throws(Swap2Error) {
        switch action {
        case .stone(let position): try match.play(position, now: state.now)
        case .choice(let choice): try match.choose(choice, now: state.now)
        }
      } catch {
        match.notice = "The computer's answer was refused: \(error)"
        break answer
      }
    }
    if let outcome = match.game.outcome { match.count(outcome) }
    state.match = match
    return askComputerIfItsTurn()
  }

  /// Asks the computer for its answer when the opening waits for it; nil when it does not.
  mutating func askComputerForSwap2() -> [Effect]? {
    guard var match = state.match, match.computerToAnswerSwap2, !match.aiThinking, let swap2 = match.swap2 else {
      return nil
    }
    match.aiThinking = true
    state.match = match
    return [.answerSwap2(opening: swap2.opening, token: match.token)]
  }
}

import GameCore
import UntrustedText

/// A local game's Swap2 opening on the full screen: begun with the game when the `opening` setting asks for it
/// and the rules allow it, the player's choices (`x`, `o`, `p`), and the computer's answers.
extension UIController {
  /// Whether a new game of `match` opens with Swap2: the rules allow it, and for the computer or a second player
  /// the setting asks for it, for an engine the command line did (`UIState.engineOpening`).
  func opensWithSwap2(_ match: Match) -> Bool {
    let asked = match.isEngineGame ? state.engineOpening : state.settings.opening
    return asked == .swap2 && Swap2.supports(match.rules)
  }

  /// Games against an outside engine open with `opening` from now on (`play --engine CMD --opening swap2`).
  public mutating func openEngineGames(with opening: Opening) {
    state.engineOpening = opening
  }

  /// A new game's opening: Swap2 with the player's place in it (the first player when the player would have
  /// moved first; in hot seat P1 is the first player in odd games), a timed game's clock counting its turns from
  /// the first stone (not an engine's: it keeps its own time); or none.
  func startOpening(_ match: inout Match) {
    match.swap2 = nil
    guard opensWithSwap2(match), let opening = try? Swap2(rules: match.rules) else { return }
    let human: Swap2.Player =
      match.isMachineGame
      ? (match.humanMark == .x ? .first : .second) : (match.gamesStarted.isMultiple(of: 2) ? .first : .second)
    match.swap2 = LocalSwap2(opening: opening, human: human)
    match.clock = match.isEngineGame ? nil : LocalClock.swap2(state.settings.clock, now: state.now)
    match.followOpening(now: state.now)
  }

  /// The player's choice (`x`, `o` or `p`): made when the opening asks for one of the player (either player in
  /// hot seat); otherwise said why not. Outside a Swap2 opening the keys do nothing.
  mutating func chooseInOpening(_ choice: Swap2.Choice) -> [Effect] {
    _ = clockTick(now: state.now)  // a choice made after the player's flag fell is not made
    guard var match = state.match, let swap2 = match.swap2, swap2.isOpening, !match.isOver else { return [] }
    if match.machineToAnswerSwap2 {
      match.notice = "Wait for \(match.otherSide)'s answer."
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

  /// The computer's answer in the opening (`Swap2Computer`), or the engine's (SWAP2BOARD's, checked against the
  /// opening by `EngineConversation`): its stones or its choice, and after a choice of O its first move; ignored
  /// if the game changed since it was asked.
  public mutating func computerAnsweredSwap2(_ actions: [Swap2.Action], token: Int) -> [Effect] {
    _ = clockTick(now: state.now)  // an answer that comes after the computer's flag fell is not played
    guard var match = state.match, match.token == token, match.aiThinking, match.machineToAnswerSwap2 else {
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
        match.notice = "The \(match.isEngineGame ? "engine" : "computer")'s answer was refused: \(error)"
        break answer
      }
    }
    if let outcome = match.game.outcome { match.count(outcome) }
    state.match = match
    return askComputerIfItsTurn()
  }

  /// Asks the computer or the engine for its answer when the opening waits for it; nil when it does not.
  mutating func askComputerForSwap2() -> [Effect]? {
    guard var match = state.match, match.machineToAnswerSwap2, !match.aiThinking, let swap2 = match.swap2 else {
      return nil
    }
    match.aiThinking = true
    state.match = match
    if match.isEngineGame { return [.askEngineSwap2(opening: swap2.opening, token: match.token)] }
    // On a running clock the answer (its whole turn) is bounded by the computer's time left, as its moves are.
    let budget = match.clock.map {
      $0.searchBudget(now: state.now, emptyCells: match.game.legalMoves.count, usual: AIPlayer.usualMilliseconds)
    }
    return [.answerSwap2(opening: swap2.opening, token: match.token, budget: budget)]
  }

  /// The engine answered SWAP2BOARD with ERROR or UNKNOWN (`words`): it does not play Swap2. As in plain mode,
  /// that is said (`Match.openingNote`, for the whole game) and the game starts again, empty, with the usual
  /// opening, the player keeping the colour it began the opening with; the engine (a new process) is asked if it
  /// is to move.
  public mutating func engineRefusedSwap2(_ words: PeerText, token: Int) -> [Effect] {
    guard var match = state.match, match.token == token, match.engineToAnswerSwap2, let swap2 = match.swap2 else {
      return []
    }
    match.humanMark = swap2.human == .first ? .x : .o
    match.swap2 = nil
    match.game = Game(rules: match.rules)
    match.aiThinking = false
    match.notice = nil
    match.token += 1
    // The engine's words are shown sanitised and cut short: the line below the status has 78 columns at 80.
    let answered = Fit.clip(words.description, width: 18, ellipsis: state.glyphs.ellipsis)
    match.openingNote = "No Swap2: the engine answered \"\(answered)\". Usual opening; you play \(match.humanMark)."
    state.match = match
    return askComputerIfItsTurn()
  }
}

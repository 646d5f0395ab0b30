import GameCore

/// What the local game's screen says of a Swap2 opening: who places or chooses, how many stones are left to
/// place, the choice's keys, and what the other side did last.
extension GameView {
  /// The subtitle while the colours are not settled; nil after (and in a game without Swap2).
  static func swap2Subtitle(_ match: Match) -> String? {
    guard let swap2 = match.swap2, swap2.isOpening else { return nil }
    let place = swap2.human == .first ? "the first player (you place 3 stones)" : "the second player (you answer)"
    switch match.opponent {
    case .computer(let level): return "Swap2 against the computer (\(level.shown(on: match.rules))): you are \(place)"
    case .hotseat:
      let first = swap2.human == .first ? "P1" : "P2"
      return "Swap2 at one keyboard: \(first) is the first player and places 3 stones"
    case .engine(let name): return "Swap2 against the engine \(name): you are \(place)"
    }
  }

  /// The names of the player and the other side in the opening: "you" and "the computer" (or "the engine"), or
  /// P1 and P2.
  static func swap2Names(_ match: Match) -> (human: String, other: String) {
    match.isMachineGame ? ("you", match.otherSide) : ("P1", "P2")
  }

  /// The status line while the colours are not settled: what the opening asks, and of whom.
  static func swap2Status(_ match: Match, _ swap2: LocalSwap2, glyphs g: Glyphs) -> (String, Style) {
    if match.aiThinking { return ("Swap2: \(match.otherSide) is thinking\(g.ellipsis)", Style(dim: true)) }
    return (swap2.ask(names: swap2Names(match)), Style(bold: true))
  }

  /// Below the status line during the opening: what the other side did last ("The computer placed h8 j8 h9."),
  /// or what the step means.
  static func swap2Explanation(_ match: Match) -> String? {
    guard let swap2 = match.swap2, swap2.isOpening, !match.aiThinking else { return nil }
    let names = swap2Names(match)
    if match.isMachineGame, let did = swap2.lastActions(of: swap2.human.other, names: Coordinates(match.rules)) {
      return "The \(match.isEngineGame ? "engine" : "computer") \(did)."
    }
    switch swap2.opening.step {
    case .placeThree: return "The first player places 3 stones (X, O, X); the second then chooses a colour."
    case .secondChooses, .firstChooses:
      let who = swap2.opening.actor == swap2.human ? names.human : names.other
      return who == "you"
        ? "x: you play X, and O moves next; o: you play O, and move next."
        : "x: \(who) plays X, and O moves next; o: \(who) plays O, and moves next."
    case .placeTwo: return "The second player places 2 more (O, X); the first then chooses a colour."
    case .playing: return nil
    }
  }

  /// The status line's start once the colours were just settled by a choice: "The computer took O and plays
  /// i9. ", "You took O. ", "P2 took X. "; nil otherwise.
  static func swap2Choice(_ match: Match) -> String? {
    guard let swap2 = match.swap2, swap2.opening.isSettled, let last = swap2.opening.log.last?.player else {
      return nil
    }
    let run = swap2.opening.log.reversed().prefix { $0.player == last }
    guard run.contains(where: { if case .choice = $0.action { true } else { false } }),
      let did = swap2.lastActions(of: last, names: Coordinates(match.rules))
    else { return nil }
    let who =
      match.isMachineGame
      ? (last == swap2.human ? "You" : "The \(match.isEngineGame ? "engine" : "computer")")
      : (last == swap2.human ? "P1" : "P2")
    return "\(who) \(did). "
  }

  /// The key legend while a choice is the player's (either player's in hot seat): its keys first; no undo
  /// against an engine, which cannot be taken back.
  static func swap2Legend(_ match: Match, width: Int, glyphs g: Glyphs) -> String? {
    guard let swap2 = match.swap2, swap2.isOpening, !swap2.opening.choices.isEmpty, !match.machineToAnswerSwap2
    else { return nil }
    let choices = swap2.opening.choices.map { (LocalSwap2.key($0), 0) }
    return Fit.legend(
      choices + (match.isEngineGame ? [] : [("u undo", 3)]) + [("? help", 2), ("q back", 1)], separator: g.separator,
      width: width - 1)
  }
}

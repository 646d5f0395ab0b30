import GameCore

/// What a network game says of its Swap2 opening from this player's side, on the full screen and in plain mode:
/// who places or chooses, how many stones are down of how many, the choice made, the colours it settled. Pure.
public enum NetSwap2Words {
  /// Where the opening stands ("Swap2: you place 3 stones (X, O, X): 1 of 3 down, O next"); nil once settled.
  /// `peer` is the opponent's name as shown (sanitised).
  public static func status(_ opening: Swap2, me: Swap2.Player, peer: String) -> String? {
    guard !opening.isSettled, let actor = opening.actor else { return nil }
    return status(opening, who: actor == me ? "you" : peer, mine: actor == me)
  }

  /// Where the opening stands as a spectator is told it, each player by name ("Swap2: bob places 3 stones (X, O,
  /// X): 1 of 3 down, O next"); nil once settled. `first` and `second` are the players' names as shown (sanitised).
  public static func watched(_ opening: Swap2, first: String, second: String) -> String? {
    guard !opening.isSettled, let actor = opening.actor else { return nil }
    return status(opening, who: actor == .first ? first : second, mine: false)
  }

  /// The status words with `who` acting, in the second person when `mine`.
  private static func status(_ opening: Swap2, who: String, mine: Bool) -> String {
    if let placing = opening.placing {
      let colours = opening.step == .placeThree ? "X, O, X" : "O, X"
      return "Swap2: \(who) \(mine ? "place" : "places") \(placing.of) stones (\(colours)): \(placing.placed) of"
        + " \(placing.of) down, \(opening.game.turn) next"
    }
    let options =
      opening.step == .secondChooses ? "X (black), O (white) or 2 more stones" : "X (black) or O (white)"
    return "Swap2: \(who) \(mine ? "choose" : "chooses") \(options)"
  }

  /// A choice said: "Bob takes O (white)." or "You place 2 more stones."
  public static func choice(_ choice: Swap2.Choice, by who: String, mine: Bool) -> String {
    switch choice {
    case .black: "\(who) \(mine ? "take" : "takes") X (black)."
    case .white: "\(who) \(mine ? "take" : "takes") O (white)."
    case .placeTwo: "\(who) \(mine ? "place" : "places") 2 more stones."
    }
  }

  /// The colours settled: "You play O (white); O moves next."
  public static func settled(myMark: Mark, next: Mark) -> String {
    "You play \(myMark) (\(myMark == .x ? "black" : "white")); \(next) moves next."
  }

  /// The full screen's key for a choice, as its legend gives it ("b take X").
  public static func key(_ choice: Swap2.Choice) -> String {
    switch choice {
    case .black: "b take X"
    case .white: "o take O"
    case .placeTwo: "p place 2 more"
    }
  }

  /// The word plain mode takes for a choice (black, white, two).
  public static func word(_ choice: Swap2.Choice) -> String {
    switch choice {
    case .black: "black"
    case .white: "white"
    case .placeTwo: "two"
    }
  }

  /// A typed choice in plain mode: black or b, white or w, two or 2 (nil for anything else).
  public static func choice(typed line: String) -> Swap2.Choice? {
    switch line.lowercased() {
    case "black", "b": .black
    case "white", "w": .white
    case "two", "2", "place two", "place 2": .placeTwo
    default: nil
    }
  }

  /// How a game that opens with Swap2 begins, for the line that announces it.
  public static func begins(me: Swap2.Player, peer: String) -> String {
    me == .first
      ? "Swap2 opening: you are the first player: you place 3 stones (X, O, X), then \(peer) chooses."
      : "Swap2 opening: \(peer) places 3 stones (X, O, X), then you choose a colour or place 2 more."
  }
}

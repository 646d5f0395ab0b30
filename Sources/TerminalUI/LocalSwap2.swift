import GameCore

/// A local game's Swap2 opening on the full screen: the opening itself (every stone of the game goes through it,
/// so it stays the one account of who placed what) and the player's place in it. A timed game's clock counts its
/// turns from the first stone, as a network game's does (`LocalClock.swap2`, `Match.chargeTurn`).
public struct LocalSwap2: Sendable, Equatable {
  /// The opening and every move after it.
  public internal(set) var opening: Swap2
  /// The player's place (P1's in hot seat): the first (tentative) player, or the second.
  public let human: Swap2.Player

  public init(opening: Swap2, human: Swap2.Player) {
    self.opening = opening
    self.human = human
  }

  /// The player's clock side: the clocks are the places' (X the first player), whatever colours they end with.
  public var humanSide: Mark { human == .first ? .x : .o }

  /// Whether the colours are still being settled.
  public var isOpening: Bool { !opening.isSettled && !opening.game.isOver }

  /// The mark the player has now: the one settled, or before that the colour of the stones their place
  /// begins with (the first player's black, the second's white).
  public var humanMark: Mark { opening.mark(of: human) ?? (human == .first ? .x : .o) }

  /// A stone placed by whoever acts now (the caller checked it is their turn).
  mutating func place(_ position: Position) throws(Swap2Error) {
    try opening.place(position, by: opening.actor ?? human)
  }

  /// A choice made by whoever acts now.
  mutating func choose(_ choice: Swap2.Choice) throws(Swap2Error) {
    try opening.choose(choice, by: opening.actor ?? human)
  }

  /// Whether the player (`human`) has an action in the log that undo can take back.
  func hasActionToUndo(computerGame: Bool) -> Bool {
    computerGame ? opening.log.contains { $0.player == human } : !opening.log.isEmpty
  }

  /// Takes back the last action; against the computer the player's last one and the computer's answers after
  /// it, so that it is the player's turn again.
  mutating func undo(computerGame: Bool) {
    while let last = opening.undo(), computerGame, last.player != human {}
  }

  /// What the opening asks now, as the status line says it, with `names` for the player and the other side:
  /// "Swap2: place stone 2 of 3 (O)", "Swap2: choose b take X, o take O, p place 2 more".
  func ask(names: (human: String, other: String)) -> String {
    guard let actor = opening.actor else { return "" }
    let who = actor == human ? names.human : names.other
    if let placing = opening.placing {
      return "Swap2, \(who): place stone \(placing.placed + 1) of \(placing.of) (\(opening.game.turn))"
    }
    return "Swap2, \(who): choose \(Self.keys(for: opening.step))"
  }

  /// The keys of the choices `step` offers: "b take X, o take O, p place 2 more".
  static func keys(for step: Swap2.Step) -> String {
    let choices: [Swap2.Choice] = step == .secondChooses ? [.black, .white, .placeTwo] : [.black, .white]
    return choices.map(key).joined(separator: ", ")
  }

  /// The key and words of a choice, as the status line and the legend give them.
  static func key(_ choice: Swap2.Choice) -> String {
    switch choice {
    case .black: "b take X"
    case .white: "o take O"
    case .placeTwo: "p place 2 more"
    }
  }

  /// What `player` did last, in a run of actions at the end of the log: "took O and plays i9", "placed h8 j8
  /// h9", "placed 2 more (i9 h10)"; nil when the last action is not theirs.
  func lastActions(of player: Swap2.Player, names: Coordinates) -> String? {
    let run = opening.log.reversed().prefix { $0.player == player }.reversed()
    guard !run.isEmpty else { return nil }
    var words: [String] = []
    var stones: [String] = []
    for entry in run {
      switch entry.action {
      case .stone(let position): stones.append(names.name(of: position))
      case .choice(let choice):
        if !stones.isEmpty { words.append("placed " + stones.joined(separator: " ")) }
        stones = []
        words.append(choice == .placeTwo ? "chose to place 2 more" : "took \(choice == .black ? "X" : "O")")
      }
    }
    if !stones.isEmpty {
      let settledBefore = words.last?.hasPrefix("took") == true
      words.append((settledBefore ? "plays " : "placed ") + stones.joined(separator: " "))
    }
    return words.joined(separator: " and ")
  }
}

extension Match {
  /// Plays `position` for the side to move (the caller checked whose turn it is): through the opening when the
  /// game has one, its turn charged when the stone ends it; otherwise the move charged.
  mutating func play(_ position: Position, now: Double) throws(Swap2Error) {
    if var swap2 {
      try swap2.place(position)
      self.swap2 = swap2
      followOpening(now: now)
      chargeTurn(now: now)
      return
    }
    do {
      try game.play(position)
    } catch {
      throw .move(error)
    }
    clock?.moved(now: now, ends: game.isOver)
  }

  /// Makes `choice` for whoever chooses now in the opening.
  mutating func choose(_ choice: Swap2.Choice, now: Double) throws(Swap2Error) {
    guard var swap2 else { throw .stoneDue(.playing) }
    try swap2.choose(choice)
    self.swap2 = swap2
    followOpening(now: now)
    chargeTurn(now: now)
  }

  /// The board and the player's mark brought up to date with the opening.
  mutating func followOpening(now: Double) {
    guard let swap2 else { return }
    game = swap2.opening.game
    humanMark = swap2.humanMark
  }

  /// A timed Swap2 game's clock charges a turn when it ends (PROTOCOL.md rule 14, counted by GameCore's
  /// `Swap2.turn` as a network game's clocks count it): when the stone or choice just made hands the next action
  /// to the other player, or ends the game on the board. Its side's time is charged from the turn's start, one
  /// increment earned, and the other side's clock starts.
  mutating func chargeTurn(now: Double) {
    guard let opening = swap2?.opening, var clock, clock.countsTurns else { return }
    let ended = opening.turn + (game.isOver ? 1 : 0)
    if ended > clock.turnsEnded { clock.moved(now: now, ends: game.isOver) }
    self.clock = clock
  }
}

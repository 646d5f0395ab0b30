import GameCore

/// A Swap2 game in plain mode: each step said after the board ("swap2: place 3 stones: 1 of 3"), its prompt, the
/// choice typed as a word (black, white, two), the computer's answers said, and undo one action at a time.
extension PlainSession {
  /// The introduction's lines on the opening (none for the usual one), each within 80 columns.
  var swap2Introduction: [String] {
    guard swap2 != nil else { return [] }
    let who =
      opponent == .hotseat
      ? "X's player (P1) is the first player."
      : "You are the \(humanSwap2Player == .first ? "first" : "second") player."
    return [
      "Opening: Swap2. The first player places 3 stones (black X, white O, black X);",
      "the second then chooses black, white, or two (places 2 more, O then X, and the",
      "first player chooses the colour). Then play goes on: O moves next.", who,
    ]
  }

  /// What the opening asks for now, and of whom, while the colours are not settled; nil after.
  public var swap2StatusLine: String? {
    guard let swap2, !swap2.isSettled, let actor = swap2.actor else { return nil }
    let step =
      swap2.placing.map { "place \($0.of) stones: \($0.placed + 1) of \($0.of) (\(swap2.game.turn) next)" }
      ?? (swap2.step == .secondChooses ? "choose: black, white, or place 2 more (two)" : "choose: black or white")
    return "swap2 (\(name(of: actor))): \(step)"
  }

  /// The prompt while the opening asks the player (or, in hot seat, either player) for something.
  var swap2Prompt: String? {
    guard let swap2, !swap2.isSettled else { return nil }
    if let placing = swap2.placing {
      return "stone \(placing.placed + 1) of \(placing.of) (\(swap2.game.turn)): "
    }
    return swap2.step == .secondChooses ? "black, white or two: " : "black or white: "
  }

  /// Whether the driver should ask the computer for its Swap2 answer now.
  public var computerToAnswerSwap2: Bool {
    guard isComputerGame, let swap2, !swap2.isSettled else { return false }
    return swap2.actor == humanSwap2Player.other
  }

  /// Whether the driver should ask the engine for its Swap2 answer now (SWAP2BOARD).
  public var engineToAnswerSwap2: Bool {
    guard isEngineGame, let swap2, !swap2.isSettled else { return false }
    return swap2.actor == humanSwap2Player.other
  }

  /// The other side, as the lines say it: the computer, or the engine.
  private var other: String { isEngineGame ? "engine" : "computer" }

  /// The engine answered SWAP2BOARD with ERROR or UNKNOWN (`words`): the game starts again with the usual
  /// opening, the player keeping the colour it began the opening with.
  public mutating func engineRefusedSwap2(_ words: some CustomStringConvertible) -> String {
    guard swap2 != nil else { return "" }
    swap2 = nil
    game = Game(rules: game.rules)
    return "the engine does not play Swap2 (it answered \"\(words)\"): the game starts again with the usual "
      + "opening; you play \(humanMark)\n" + boardText() + "\n"
  }

  /// A typed choice ("black", "b", "white", "w", "two", "2"); nil when the line is not one and none is due.
  mutating func swap2Choice(_ line: String, now: Double = 0) -> String? {
    guard var swap2 else { return nil }
    if !swap2.choices.isEmpty, computerToAnswerSwap2 || engineToAnswerSwap2 {
      return "error: it is the \(other)'s turn\n"
    }
    let words: [String: Swap2.Choice] = [
      "black": .black, "b": .black, "white": .white, "w": .white, "two": .placeTwo, "2": .placeTwo,
      "place 2": .placeTwo, "place two": .placeTwo,
    ]
    guard let choice = words[line] else {
      if swap2.choices.isEmpty { return nil }
      return "error: \(swap2.step) (type \(swap2.choices.map(Self.word).joined(separator: ", ")))\n"
    }
    if computerToAnswerSwap2 || engineToAnswerSwap2 { return "error: it is the \(other)'s turn\n" }
    guard let actor = swap2.actor else { return "error: the game is over\n" }
    do {
      try swap2.choose(choice, by: actor)
    } catch {
      return "error: \(error)\n"
    }
    self.swap2 = swap2
    settle(now: now)
    return "\(name(of: actor)) chose \(Self.word(choice))\n" + afterSwap2Action(choiceMade: true, now: now)
  }

  /// A stone typed by the player (`player` nil) or given by the computer, through the opening.
  mutating func swap2Place(_ position: Position, by player: Swap2.Player?, now: Double = 0) -> String {
    guard var swap2, let actor = swap2.actor else { return "error: the game is over\n" }
    if player == nil, computerToAnswerSwap2 || computerToMove || engineToAnswerSwap2 || engineToMove {
      return "error: it is the \(other)'s turn\n"
    }
    do {
      try swap2.place(position, by: player ?? actor)
    } catch {
      if case .move(let move) = error { return "error: \(PlainSession.describe(move, rules: game.rules))\n" }
      return "error: \(error)\n"
    }
    self.swap2 = swap2
    settle(now: now)
    let announce = player.map { _ in "\(other) plays \(PlainSession.moveName(position, rules: game.rules))\n" }
    return (announce ?? "") + afterSwap2Action(now: now)
  }

  /// The computer's answer (`Swap2Computer`), said and played.
  public mutating func computerAnswered(_ actions: [Swap2.Action], now: Double = 0) -> String {
    if let text = flagIfDue(now: now) { return text }
    guard var swap2 else { return "" }
    let computer = humanSwap2Player.other
    var said: [String] = []
    for action in actions {
      do {
        try swap2.apply(Swap2.Entry(swap2.actor ?? computer, action))
      } catch {
        return "error: the computer's answer was refused: \(error)\n"
      }
      switch action {
      case .choice(let choice): said.append("\(other) chose \(Self.word(choice))")
      case .stone(let position):
        let mark = swap2.game.board[position].map { " (\($0))" } ?? ""
        said.append("\(other) places \(PlainSession.moveName(position, rules: game.rules))\(mark)")
      }
    }
    self.swap2 = swap2
    settle(now: now)
    let chose = actions.contains { if case .choice = $0 { true } else { false } }
    return said.joined(separator: "\n") + "\n" + afterSwap2Action(choiceMade: chose, now: now)
  }

  /// Takes back the player's last action and the computer's answers after it; one action in hot seat.
  mutating func swap2Undo() -> String {
    guard var swap2 else { return "" }
    if isEngineGame { return "error: a game against an engine cannot be taken back\n" }
    let human = humanSwap2Player
    guard isComputerGame ? swap2.log.contains(where: { $0.player == human }) : !swap2.log.isEmpty else {
      return "error: nothing to undo\n"
    }
    while let last = swap2.undo(), isComputerGame, last.player != human {}
    self.swap2 = swap2
    settle()
    return "undone\n" + afterSwap2Action()
  }

  /// The game and the player's mark brought up to date with the opening, and a timed game's turn charged at `now`
  /// when the stone or choice just made ended it (the next action is the other player's, or the game is over):
  /// turns as GameCore's `Swap2.turn` counts them, the same as a network game's clocks (PROTOCOL.md rule 14).
  private mutating func settle(now: Double = 0) {
    guard let swap2 else { return }
    game = swap2.game
    humanMark = swap2.mark(of: humanSwap2Player) ?? (humanSwap2Player == .first ? .x : .o)
    guard var clock, clock.countsTurns else { return }
    if swap2.turn + (game.isOver ? 1 : 0) > clock.turnsEnded { clock.moved(now: now, ends: game.isOver) }
    self.clock = clock
  }

  /// The board, then what the opening asks next, who plays what once it is settled, or the result.
  private func afterSwap2Action(choiceMade: Bool = false, now: Double = 0) -> String {
    var text = boardText() + "\n"
    if let line = swap2StatusLine { text += line + "\n" }
    if !game.isOver, let line = clockLine(now: now) { text += line + "\n" }
    if choiceMade, let swap2, swap2.isSettled, let black = swap2.player(playing: .x) {
      text +=
        "swap2: \(name(of: black)) \(black == humanSwap2Player ? "play" : "plays") X, "
        + "\(name(of: black.other)) O; \(game.turn) to move\n"
    }
    if let outcome = game.outcome {
      text += outcome.winner.map { "result: \($0) wins\n" } ?? "result: draw\n"
    }
    return text
  }

  /// "you", "the computer", or in hot seat "the first player (P1)".
  private func name(of player: Swap2.Player) -> String {
    if opponent == .hotseat { return "the \(player == .first ? "first player (P1)" : "second player (P2)")" }
    return player == humanSwap2Player ? "you" : "the \(other)"
  }

  static func word(_ choice: Swap2.Choice) -> String {
    switch choice {
    case .black: "black"
    case .white: "white"
    case .placeTwo: "two"
    }
  }
}

/// A local game's clocks in a game that opens with Swap2: counted by turns (`Swap2.turn`, as a network game's are),
/// their sides the players' places in the opening (X the first player) whatever colours they end with. What a
/// screen, plain mode and a record need from that: the colour of a side, and each stone's time. Pure.
extension LocalClock {
  /// A Swap2 game's clocks begun at `now`, every turn charged: the first player's runs from the start.
  public static func swap2(_ control: TimeControl, now: Double) -> LocalClock? {
    LocalClock(control, now: now, freeTurns: 0)
  }

  /// Whether this clock counts a Swap2 game's turns.
  public var countsTurns: Bool { freeTurns == 0 }

  /// The colour played by the clock's side `side` in `opening` (the same mark with no opening, before the colours
  /// are settled, or when the first player took black); and, the same way round, the side of a colour.
  public static func colour(ofSide side: Mark, in opening: Swap2?) -> Mark {
    guard let opening, opening.mark(of: .first) == .o else { return side }
    return side.opponent
  }

  /// The colour whose time ran out (its side's colour in a Swap2 game), once it has.
  public func flaggedColour(in opening: Swap2?) -> Mark? {
    flagged.map { Self.colour(ofSide: $0, in: opening) }
  }

  /// How many turns the clock has seen end: the charges made so far.
  public var turnsEnded: Int { charges.count }

  /// Each stone's charge and its placer's time left after it, as a record keeps them (TTQ, BL/WL): in a Swap2 game
  /// the turn's charge and time left on the turn's last stone, and no charge with the time left before the turn on
  /// its other stones (as a network game's records keep them, PROTOCOL.md rule 14); otherwise each move's charge.
  public func stoneCharges(in opening: Swap2?) -> [Charge] {
    guard let opening, countsTurns else { return charges }
    let stones = opening.game.history.count
    return opening.stoneTurns(plies: stones, current: opening.turn, now: turnsEnded).map { stone in
      if stone.endsTurn, stone.turn < charges.count { return charges[stone.turn] }
      let side: Mark = stone.turn.isMultiple(of: 2) ? .x : .o
      guard stone.turn < charges.count else { return Charge(charged: 0, left: left[side, default: 0]) }
      return Charge(charged: 0, left: timeBefore(charges[stone.turn]))
    }
  }

  /// The mover's time before a turn charged `charge`.
  func timeBefore(_ charge: Charge) -> Int {
    switch control {
    case .none: return charge.left
    case .perMove(let each): return each
    case .fischer(_, let increment): return charge.left + charge.charged - increment
    }
  }
}

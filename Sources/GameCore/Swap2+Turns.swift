/// The turns of a timed Swap2 game (PROTOCOL.md rule 14), counted the same way by a network game's clocks
/// (Session's `NetSwap2`) and a local game's (`LocalClock`): a turn is a run of one player's actions, counted from
/// 0, the first player's three stones; the second player's choice with the stones that follow it is the next; every
/// move once the colours are settled is a turn of its own. The side that acts is the side whose clock runs. Pure.
extension Swap2 {
  /// How many times the player changes along `players`.
  public static func turns(_ players: [Player]) -> Int {
    zip(players, players.dropFirst()).filter { $0 != $1 }.count
  }

  /// The turn in progress: the one `next` acts in (the actor now; when the game is over, whoever is given).
  public func turn(actingNext next: Player?) -> Int {
    Self.turns(log.map(\.player) + (next.map { [$0] } ?? []))
  }

  /// The turn in progress (the last action's, once the game is over).
  public var turn: Int { turn(actingNext: actor) }

  /// The turn of the stone at board ply `ply`: within the log, the turn of its action; beyond it, one turn a move
  /// from `current`, the turn in progress (an opening that stopped being fed once the colours were settled).
  public func turn(ofStone ply: Int, current: Int) -> Int {
    let stones = game.history.count
    if ply >= stones { return current + ply - stones }
    let index = log.indices.filter { if case .stone = log[$0].action { true } else { false } }[ply]
    return Self.turns(log[...index].map(\.player))
  }

  /// How many of the log's actions (stones and choices) came before turn `turn` began (the log's length when it
  /// has no such turn).
  public func actionsBefore(turn: Int) -> Int {
    let players = log.map(\.player)
    return players.indices.first { Self.turns(Array(players[...$0])) == turn } ?? players.count
  }

  /// For each of the first `plies` stones, the turn it was placed in (`turn(ofStone:current:)`) and whether it was
  /// that turn's last stone with the turn over, `now` being the turn in progress: a record keeps the turn's time on
  /// that stone, and no charge with the time left before the turn on the turn's other stones.
  public func stoneTurns(plies: Int, current: Int, now: Int) -> [(turn: Int, endsTurn: Bool)] {
    let turns = (0..<plies).map { turn(ofStone: $0, current: current) }
    return turns.indices.map { stone in
      let next = stone + 1 < turns.count ? turns[stone + 1] : now
      return (turns[stone], next != turns[stone])
    }
  }

  /// The opening replayed from its `stones` and its `choices` in order, each choice made as the opening asks for
  /// one, until the colours are settled or either runs out (the stones after the opening are the game's moves): how
  /// a kept game's opening is rebuilt (PROTOCOL.md rule 19) and a spectator's (rule 23). Throws why they cannot be
  /// played in that order, or a choice left over.
  public init(rules: Rules, stones: [Position], choices: [Choice]) throws(Swap2Error) {
    try self.init(rules: rules)
    var stones = stones[...]
    var choices = choices[...]
    while !isSettled, let actor {
      if self.choices.isEmpty {
        guard let stone = stones.popFirst() else { break }
        try place(stone, by: actor)
      } else {
        guard let choice = choices.popFirst() else { break }
        try choose(choice, by: actor)
      }
    }
    if let extra = choices.first { throw .choiceNotOffered(extra, step) }
  }
}

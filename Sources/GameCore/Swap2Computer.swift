/// The computer's side of a Swap2 opening: as the first player it places three stones its search finds close to
/// even; as the second it takes the colour its search judges better, or places two more stones when the position
/// is close; as the first again it takes the better colour. All of it within one move's time.
public struct Swap2Computer: Sendable {
  /// The time one answer may take, as one move of the perfect level.
  public var budget: Duration
  /// How many three-stone openings the first player weighs before placing the closest to even.
  public static let candidates = 6
  /// How far from even a position may be, in the search's score for the side to move, and still be close: an
  /// open two more for one side is about 64 × the four directions it can grow in, a three is eight times that.
  public static let closeMargin = 400

  public init(budget: Duration = .milliseconds(AIPlayer.usualMilliseconds)) {
    self.budget = budget
  }

  /// What the computer does as `opening.actor` where the opening stands: the stones of its step, or its choice;
  /// when it chooses white, its first move as white too, as the Gomocup protocol answers a choice of white with
  /// a move. Empty once the colours are settled.
  public func answer<R: RandomNumberGenerator>(to opening: Swap2, using rng: inout R) -> [Swap2.Action] {
    // Stop early enough that writing the answer still fits the budget, as `AIPlayer` does.
    let deadline = ContinuousClock.now + budget - min(budget / 10, .milliseconds(15))
    switch opening.step {
    case .placeThree where opening.game.history.isEmpty:
      return openingStones(rules: opening.rules, deadline: deadline, using: &rng)
    case .placeThree, .placeTwo:
      let left = opening.placing.map { $0.of - $0.placed } ?? 0
      return naturalStones(left, in: opening.game, deadline: deadline, using: &rng).map { .stone($0) }
    case .secondChooses:
      return secondChoice(in: opening.game, deadline: deadline, using: &rng)
    case .firstChooses:
      let value = Self.whiteValue(of: opening.game, until: Self.share(0.5, until: deadline))
      if Self.firstChoice(white: value) == .white {
        return [.choice(.white)] + move(in: opening.game, until: deadline, using: &rng)
      }
      return [.choice(.black)]
    case .playing:
      return []
    }
  }

  /// The three stones (black, white, black) of the candidate the search finds closest to even, each candidate
  /// drawn at random within two cells of the centre.
  func openingStones<R: RandomNumberGenerator>(
    rules: Rules, deadline: ContinuousClock.Instant, using rng: inout R
  ) -> [Swap2.Action] {
    var best: (stones: [Position], distance: Int)?
    for index in 0..<Self.candidates {
      let stones = Self.randomTriple(rules: rules, using: &rng)
      var game = Game(rules: rules)
      for stone in stones { try? game.play(stone) }
      let left = Self.candidates - index
      let value = Self.whiteValue(of: game, until: Self.share(1 / Double(left), until: deadline))
      if abs(value) < best?.distance ?? Int.max { best = (stones, abs(value)) }
      if ContinuousClock.now >= deadline { break }
    }
    return (best?.stones ?? []).map { .stone($0) }
  }

  /// Black takes the better colour, or places two more when the position is close and stays close with them.
  private func secondChoice<R: RandomNumberGenerator>(
    in game: Game, deadline: ContinuousClock.Instant, using rng: inout R
  ) -> [Swap2.Action] {
    let value = Self.whiteValue(of: game, until: Self.share(0.3, until: deadline))
    var stones: [Position] = []
    var after: Int?
    if Self.secondChoice(white: value, afterTwo: nil) == .placeTwo {
      stones = naturalStones(2, in: game, deadline: Self.share(0.45, until: deadline), using: &rng)
      var five = game
      for stone in stones { try? five.play(stone) }
      if stones.count == 2 { after = Self.whiteValue(of: five, until: Self.share(0.5, until: deadline)) }
    }
    switch Self.secondChoice(white: value, afterTwo: after) {
    case .white: return [.choice(.white)] + move(in: game, until: deadline, using: &rng)
    case .black: return [.choice(.black)]
    case .placeTwo: return [.choice(.placeTwo)] + stones.map { .stone($0) }
    }
  }

  /// The second player's choice when white's value after three stones is `white`: the colour ahead when one is
  /// further ahead than the close margin; otherwise two more stones, if with them (`afterTwo`, white's value
  /// after five; nil: not looked at yet) it stays close, else the colour ahead however little.
  static func secondChoice(white value: Int, afterTwo: Int?) -> Swap2.Choice {
    if value > closeMargin { return .white }
    if value < -closeMargin { return .black }
    guard let afterTwo else { return .placeTwo }
    if abs(afterTwo) <= closeMargin { return .placeTwo }
    return value >= 0 ? .white : .black
  }

  /// The first player's choice after five stones when white's value is `white`: white unless black is ahead.
  static func firstChoice(white value: Int) -> Swap2.Choice { value >= 0 ? .white : .black }

  /// `count` stones each the perfect level's move for its colour, sharing the time to `deadline`.
  private func naturalStones<R: RandomNumberGenerator>(
    _ count: Int, in game: Game, deadline: ContinuousClock.Instant, using rng: inout R
  ) -> [Position] {
    var game = game
    var stones: [Position] = []
    for index in 0..<count {
      let share = Self.share(1 / Double(count - index), until: deadline)
      let left = max(share - ContinuousClock.now, .milliseconds(10))
      guard let stone = AIPlayer(level: .perfect, budget: left).chooseMove(in: game, using: &rng),
        (try? game.play(stone)) != nil
      else { break }
      stones.append(stone)
    }
    return stones
  }

  /// The perfect level's move in `game` with the time left to `deadline` (at least 10 ms).
  private func move<R: RandomNumberGenerator>(
    in game: Game, until deadline: ContinuousClock.Instant, using rng: inout R
  ) -> [Swap2.Action] {
    let left = max(deadline - ContinuousClock.now, .milliseconds(10))
    return AIPlayer(level: .perfect, budget: left).chooseMove(in: game, using: &rng).map { [.stone($0)] } ?? []
  }

  /// The search's value of `game` for white, who is to move after three or five stones: the value of the deepest
  /// even depth it finished (a search that stops after the side to move's own move flatters it, so odd and even
  /// depths are not compared), of depth 1 when it had time for no more, 0 when not even that.
  static func whiteValue(of game: Game, until deadline: ContinuousClock.Instant) -> Int {
    let search = HeuristicSearch(board: game.board, deadline: deadline)
    _ = search.bestMove()
    let values = search.values
    let value = values.count >= 2 ? values[values.count - 1 - (values.count % 2)] : values.first ?? 0
    return game.turn == .o ? value : -value
  }

  /// The instant `fraction` of the way from now to `deadline`.
  static func share(_ fraction: Double, until deadline: ContinuousClock.Instant) -> ContinuousClock.Instant {
    let now = ContinuousClock.now
    guard deadline > now else { return deadline }
    return now + (deadline - now) * fraction
  }

  /// Two black stones and a white one on different cells within two cells of the centre.
  static func randomTriple<R: RandomNumberGenerator>(rules: Rules, using rng: inout R) -> [Position] {
    let centre = Position(row: rules.rows / 2, column: rules.columns / 2)
    var stones: [Position] = []
    while stones.count < 3 {
      let cell = Position(
        row: centre.row + Int.random(in: -2...2, using: &rng),
        column: centre.column + Int.random(in: -2...2, using: &rng))
      if !stones.contains(cell) { stones.append(cell) }
    }
    return stones
  }
}

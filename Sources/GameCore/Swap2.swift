/// How a game opens: as usual (black's first move, then turns), or with Swap2.
public enum Opening: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case standard
  case swap2

  public var description: String { rawValue }
}

/// Swap2, the balanced opening Gomocup plays, as a state machine: the first (tentative) player places three stones
/// (black, white, black); the second takes black, takes white, or places two more (white, black) and leaves the
/// choice of colour to the first. Then the game goes on with whoever has the colour to move by the stone count.
///
/// Stones alternate in colour from the first (black is X), so the board is an ordinary `Game` throughout; what
/// Swap2 adds is who places them and which colour each player ends with. Fed stones and choices by either
/// player (a front end's, a session's or the computer's), it refuses any action out of turn or out of step.
public struct Swap2: Sendable, Hashable {
  /// The two players by their place in the opening, not by colour.
  public enum Player: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The tentative player, who places the first three stones.
    case first
    /// The player who answers the three stones.
    case second

    public var other: Player { self == .first ? .second : .first }
    public var description: String { self == .first ? "the first player" : "the second player" }
  }

  /// Where the opening stands.
  public enum Step: Sendable, Hashable {
    /// The first player places stones 1 to 3 (black, white, black).
    case placeThree
    /// The second player takes black, takes white, or places two more stones.
    case secondChooses
    /// The second player places stones 4 and 5 (white, black).
    case placeTwo
    /// The first player takes black or white.
    case firstChooses
    /// The colours are settled: moves alternate by the stone count until the game ends.
    case playing
  }

  /// A choice of the opening.
  public enum Choice: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Play black (X): the other player is white and moves next.
    case black
    /// Play white (O), and move next.
    case white
    /// Place two more stones and let the first player choose (the second player's choice only).
    case placeTwo = "place-two"

    public var description: String { self == .placeTwo ? "place 2 more stones" : "play \(rawValue)" }
  }

  /// One thing a player did, as the opening's log keeps it (and a record or a session carries it).
  public enum Action: Sendable, Hashable {
    case stone(Position)
    case choice(Choice)
  }

  /// An action and who took it.
  public struct Entry: Sendable, Hashable {
    public var player: Player
    public var action: Action
    public init(_ player: Player, _ action: Action) {
      self.player = player
      self.action = action
    }
  }

  /// The smallest board side Swap2 is played on.
  public static let minimumSide = 9
  /// The only line length Swap2 is played with.
  public static let k = 5

  /// The board and its stones; its `turn` is the colour of the next stone, in the opening as after it.
  public private(set) var game: Game
  public private(set) var step = Step.placeThree
  /// Every action so far, in order.
  public private(set) var log: [Entry] = []
  /// Who plays black, once the colours are settled.
  public private(set) var blackPlayer: Player?

  /// An opening on an empty board of `rules`: five in a row on a board of at least 9×9.
  public init(rules: Rules) throws(Swap2Error) {
    guard Swap2.supports(rules) else { throw .unsupportedRules(rules) }
    game = Game(rules: rules)
  }

  /// An opening replayed from its log (a record read back, a session resumed).
  public init(rules: Rules, log: [Entry]) throws(Swap2Error) {
    try self.init(rules: rules)
    for entry in log { try apply(entry) }
  }

  /// Whether Swap2 can be played under `rules`.
  public static func supports(_ rules: Rules) -> Bool {
    rules.k == k && rules.rows >= minimumSide && rules.columns >= minimumSide
  }

  public var rules: Rules { game.rules }

  /// Whether the colours are settled.
  public var isSettled: Bool { blackPlayer != nil }

  /// The colour `player` plays, once it is settled.
  public func mark(of player: Player) -> Mark? {
    blackPlayer.map { $0 == player ? .x : .o }
  }

  /// The player who plays `mark`, once the colours are settled.
  public func player(playing mark: Mark) -> Player? {
    blackPlayer.map { mark == .x ? $0 : $0.other }
  }

  /// Who acts now: places the next stone, chooses, or moves (nil once the game is over).
  public var actor: Player? {
    guard !game.isOver else { return nil }
    switch step {
    case .placeThree, .firstChooses: return .first
    case .secondChooses, .placeTwo: return .second
    case .playing: return player(playing: game.turn)
    }
  }

  /// The choices open now (none while a stone is due).
  public var choices: [Choice] {
    switch step {
    case .secondChooses: [.black, .white, .placeTwo]
    case .firstChooses: [.black, .white]
    case .placeThree, .placeTwo, .playing: []
    }
  }

  /// While stones of the opening are placed: how many of this step's are down, and how many it has.
  public var placing: (placed: Int, of: Int)? {
    switch step {
    case .placeThree: (game.history.count, 3)
    case .placeTwo: (game.history.count - 3, 2)
    case .secondChooses, .firstChooses, .playing: nil
    }
  }

  /// Does `entry`, or throws why it is refused and leaves the opening as it was.
  public mutating func apply(_ entry: Entry) throws(Swap2Error) {
    switch entry.action {
    case .stone(let position): try place(position, by: entry.player)
    case .choice(let choice): try choose(choice, by: entry.player)
    }
  }

  /// Places a stone for `player`: one of the opening's, or a move once the colours are settled.
  public mutating func place(_ position: Position, by player: Player) throws(Swap2Error) {
    if game.isOver { throw .move(.gameOver) }
    guard choices.isEmpty else { throw .choiceDue(step) }
    guard let actor, actor == player else { throw .notYourTurn(expected: actor ?? player.other) }
    do {
      try game.play(position)
    } catch {
      throw .move(error)
    }
    log.append(Entry(player, .stone(position)))
    if step == .placeThree, game.history.count == 3 { step = .secondChooses }
    if step == .placeTwo, game.history.count == 5 { step = .firstChooses }
  }

  /// Makes `choice` for `player`.
  public mutating func choose(_ choice: Choice, by player: Player) throws(Swap2Error) {
    guard !choices.isEmpty else { throw .stoneDue(step) }
    guard let actor, actor == player else { throw .notYourTurn(expected: actor ?? player.other) }
    guard choices.contains(choice) else { throw .choiceNotOffered(choice, step) }
    switch choice {
    case .placeTwo: step = .placeTwo
    case .black, .white:
      blackPlayer = choice == .black ? player : player.other
      step = .playing
    }
    log.append(Entry(player, .choice(choice)))
  }

  /// Takes back the last action (a stone or a choice), returning it; nil at the start.
  @discardableResult
  public mutating func undo() -> Entry? {
    guard let last = log.last else { return nil }
    var replayed = Swap2(empty: game.rules)
    for entry in log.dropLast() {
      // Every entry of the log was accepted once, so it is accepted again in the same order.
      try? replayed.apply(entry)
    }
    self = replayed
    return last
  }

  private init(empty rules: Rules) {
    game = Game(rules: rules)
  }
}

extension Swap2.Step: CustomStringConvertible {
  /// What the step asks for, for screens and plain mode.
  public var description: String {
    switch self {
    case .placeThree: "place 3 stones (black, white, black)"
    case .secondChooses: "choose: black, white, or place 2 more"
    case .placeTwo: "place 2 more stones (white, black)"
    case .firstChooses: "choose: black or white"
    case .playing: "play"
    }
  }
}

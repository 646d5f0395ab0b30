import GameCore

/// The stones on a brain's board, by owner: the brain's own and the opponent's, each in the order played.
/// The protocol gives no colours, so who moved first is worked out from the counts when a game is needed.
public struct BrainStones: Sendable, Equatable {
  public var own: [Position] = []
  public var opponent: [Position] = []

  public init() {}

  public var isEmpty: Bool { own.isEmpty && opponent.isEmpty }

  /// 1 for the brain's stone, 2 for the opponent's, nil for an empty cell (the protocol's numbers).
  public func owner(of position: Position) -> Int? {
    if own.contains(position) { return 1 }
    if opponent.contains(position) { return 2 }
    return nil
  }

  /// Takes the stone at `position` off the board; false when there is none.
  public mutating func remove(_ position: Position) -> Bool {
    if let index = own.lastIndex(of: position) {
      own.remove(at: index)
      return true
    }
    if let index = opponent.lastIndex(of: position) {
      opponent.remove(at: index)
      return true
    }
    return false
  }

  /// Adds one BOARD line, "X,Y,F" (F 1 the brain's stone, 2 the opponent's); returns why it was refused.
  public mutating func add(_ line: Substring, on rules: Rules) -> String? {
    guard let values = ProtocolText.numbers(line, count: 3) else {
      return "\"\(ProtocolText.echo(line))\" is not a line X,Y,F"
    }
    let position = Position(row: values[1], column: values[0])
    guard rules.contains(position) else { return "\(values[0]),\(values[1]) is off the board" }
    guard owner(of: position) == nil else { return "\(values[0]),\(values[1]) is given twice" }
    switch values[2] {
    case 1: own.append(position)
    case 2: opponent.append(position)
    case 3: return "\(values[0]),\(values[1]),3: continuous games (field 3) are not supported"
    default: return "\(values[0]),\(values[1]),\(values[2]): the field must be 1 (own) or 2 (opponent)"
    }
    return nil
  }

  /// The position as a game with the brain to move: the brain moved first when both have as many stones, second
  /// when the opponent has one more. The stones are played alternately, each side's in its order; any other
  /// count, or five in a row before the last stone, is refused.
  public func game(rules: Rules) -> Result<Game, BrainBoardError> {
    let brainFirst: Bool
    if own.count == opponent.count {
      brainFirst = true
    } else if opponent.count == own.count + 1 {
      brainFirst = false
    } else {
      return .failure(.unbalanced(own: own.count, opponent: opponent.count))
    }
    let (first, second) = brainFirst ? (own, opponent) : (opponent, own)
    var moves: [Position] = []
    for index in 0..<first.count {
      moves.append(first[index])
      if index < second.count { moves.append(second[index]) }
    }
    do {
      return .success(try Game(rules: rules, position: moves))
    } catch {
      return .failure(.alreadyWon)
    }
  }
}

/// Why the stones given make no position this brain can move in.
public enum BrainBoardError: Error, Sendable, Equatable, CustomStringConvertible {
  case unbalanced(own: Int, opponent: Int)
  case alreadyWon

  public var description: String {
    switch self {
    case .unbalanced(let own, let opponent):
      "the board has \(own) stones of this brain and \(opponent) of the opponent; with this brain to move the "
        + "opponent must have as many or one more"
    case .alreadyWon: "the game is over: the board already has five in a row"
    }
  }
}

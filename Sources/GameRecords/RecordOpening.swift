import GameCore

/// The opening a game was played with, when it was not the ordinary one (black moves first, each side its own
/// stones): its record keeps it in `TTO` (docs/RECORDS.md), and the moves stay the stones in the order placed.
public enum RecordOpening: Sendable, Hashable {
  /// Swap2, with the choices made in order: `black` or `white` (the second player's), or `place-two` and then
  /// the first player's `black` or `white`. PB and PW are who ended with each colour.
  case swap2([Swap2.Choice])

  /// The choice sequences Swap2 allows.
  public static let swap2Sequences: [[Swap2.Choice]] = [[.black], [.white], [.placeTwo, .black], [.placeTwo, .white]]

  /// The opening of a game played through `opening`, once its colours are settled (nil before).
  public init?(_ opening: Swap2) {
    let choices = opening.log.compactMap { entry -> Swap2.Choice? in
      if case .choice(let choice) = entry.action { choice } else { nil }
    }
    guard opening.isSettled else { return nil }
    self = .swap2(choices)
  }

  /// As a replay's header says it: `Swap2: black`, `Swap2: two, white` (the choices in order).
  public var shown: String {
    switch self {
    case .swap2(let choices):
      "Swap2: " + choices.map { $0 == .placeTwo ? "two" : $0.rawValue }.joined(separator: ", ")
    }
  }

  /// TTO's value: `swap2 black`, `swap2 place-two white`.
  public var sgfValue: String {
    switch self {
    case .swap2(let choices): (["swap2"] + choices.map(\.rawValue)).joined(separator: " ")
    }
  }

  /// Reads TTO's value; nil for anything but a Swap2 opening with one of its choice sequences.
  public init?(sgf text: String) {
    let words = text.trimmed.split(separator: " ").map(String.init)
    guard words.first == "swap2" else { return nil }
    let choices = words.dropFirst().compactMap(Swap2.Choice.init(rawValue:))
    guard choices.count == words.count - 1, Self.swap2Sequences.contains(choices) else { return nil }
    self = .swap2(choices)
  }

  /// The opening replayed with `moves` (every move after it too): who placed each stone and chose what.
  /// Throws why the moves and choices do not make a Swap2 game under `rules`.
  public func replay(rules: Rules, moves: [Position]) throws(Swap2Error) -> Swap2 {
    guard case .swap2(let choices) = self else { throw .unsupportedRules(rules) }
    var opening = try Swap2(rules: rules)
    var pending = choices[...]
    for move in moves {
      // A choice is made as soon as the opening asks for one.
      while !opening.choices.isEmpty, let choice = pending.popFirst() {
        try opening.choose(choice, by: opening.actor ?? .first)
      }
      try opening.place(move, by: opening.actor ?? .first)
    }
    while !opening.choices.isEmpty, let choice = pending.popFirst() {
      try opening.choose(choice, by: opening.actor ?? .first)
    }
    guard opening.isSettled, pending.isEmpty else { throw .stoneDue(opening.step) }
    return opening
  }
}

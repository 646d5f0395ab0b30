import GameCore
import WireProtocol

/// The Swap2 opening of a network game (protocol version 4, PROTOCOL.md "Version 4") from this player's side:
/// GameCore's `Swap2` with this side's place in it. This player's stones and choices become the messages to send;
/// the peer's are applied as they arrive, and one that Swap2 refuses (out of turn, on a taken cell, a choice not
/// offered or not due, a ply that is not the next) is a violation named by why. Pure; `NetSession` plays it.
public struct NetSwap2: Sendable {
  public private(set) var opening: Swap2
  /// This side's place: the first (tentative) player is the side the coin (or the alternation) makes X.
  public let me: Swap2.Player

  /// An opening on an empty board of `rules`, this side playing `usualMark` as the game would without an opening.
  public init(rules: Rules, usualMark: Mark) throws(Swap2Error) {
    opening = try Swap2(rules: rules)
    me = usualMark == .x ? .first : .second
  }

  /// An opening as it stood when kept through a restart (PROTOCOL.md rule 19), this side in `me`'s place.
  init(opening: Swap2, me: Swap2.Player) {
    self.opening = opening
    self.me = me
  }

  /// The clock's turn of the stone at board ply `ply`: within the opening, the turn of its action; after it, one
  /// turn a move from where the opening stopped (GameCore's `Swap2` counts, as a local game's clock does).
  func turn(ofStone ply: Int) -> Int { opening.turn(ofStone: ply, current: turn) }

  /// Whether this side acts now (a stone, a choice, or a move once the colours are settled).
  public var myTurn: Bool { opening.actor == me }
  /// This side's colour, once settled.
  public var myMark: Mark? { opening.mark(of: me) }
  /// The stones on the board: the ply of the next stone, and of a choice made now.
  public var ply: UInt16 { UInt16(opening.game.history.count) }

  /// This side places a stone: the move to send, or why it may not (nothing changes then).
  public mutating func place(_ position: Position) throws(Swap2Error) -> Message {
    let ply = self.ply
    try opening.place(position, by: me)
    return .move(ply: ply, position: position)
  }

  /// This side makes a choice: the message to send, or why it may not.
  public mutating func choose(_ choice: Swap2.Choice) throws(Swap2Error) -> Message {
    try opening.choose(choice, by: me)
    return .openingChoice(ply: ply, choice: choice)
  }

  /// Applies the peer's stone or choice: nil when the opening takes it, else the violation's words.
  public mutating func peer(_ message: Message) -> String? {
    let entry: Swap2.Entry
    let sentPly: UInt16
    switch message {
    case .move(let ply, let position, _): (entry, sentPly) = (Swap2.Entry(me.other, .stone(position)), ply)
    case .openingChoice(let ply, let choice, _): (entry, sentPly) = (Swap2.Entry(me.other, .choice(choice)), ply)
    default: return "\(Self.article(message)) \(message.name) in the Swap2 opening"
    }
    guard sentPly == ply else {
      return
        "\(Self.article(message)) \(message.name) for ply \(sentPly) when \(ply) stones are on the board (repeated or out of order)"
    }
    do {
      try opening.apply(entry)
    } catch {
      return "\(Self.article(message)) \(message.name) the Swap2 opening refuses: \(error.reason)"
    }
    return nil
  }

  /// The clock's turn in progress (PROTOCOL.md rule 14 in a Swap2 game): turns are runs of one player's actions,
  /// counted from 0, the first player's three stones; once the colours are settled the opening stops here, and each
  /// move after it is a turn of its own. Both sides count the same from the same actions (GameCore's `Swap2`).
  public var turn: Int { opening.turn(actingNext: opening.actor ?? me) }

  /// How many of the opening's actions (stones and choices) came before turn `turn` began (the log's length when
  /// the opening has no such turn).
  public func actionsBefore(turn: Int) -> Int { opening.actionsBefore(turn: turn) }

  /// The opening as it stood after its first `actions` actions (a turn voided by a flag claim, rule 15).
  public mutating func rewind(toActions actions: Int) {
    while opening.log.count > actions { opening.undo() }
  }

  /// "a move", "an opening choice".
  static func article(_ message: Message) -> String { message.name.first.map("aeiou".contains) == true ? "an" : "a" }
}

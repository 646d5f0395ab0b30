import GameCore

/// The answer to `game offer` (PROTOCOL.md rule 19).
public enum GameTakenVerdict: UInt8, Sendable, Equatable {
  /// The returning side's journal agrees: play goes on from the offered position.
  case taken = 1
  /// The returning side had no journal and its player declined the position: the kept game is lost by it.
  case declined = 2
  /// The returning side's journal holds another game: the kept game is lost by it, and the text says why.
  case disagrees = 3
  /// A restarted host keeps no journal of the game its joiner offers back: the kept game is lost by the host.
  case noJournal = 4
}

/// One move's agreed times in a `game offer` (PROTOCOL.md rules 14 and 19): the charge and the mover's time left
/// after it, in milliseconds, as the records write them.
public struct OfferedTime: Sendable, Equatable {
  public let charged: UInt32
  public let left: UInt32

  public init(charged: UInt32, left: UInt32) {
    self.charged = charged
    self.left = left
  }
}

extension Message {
  /// The most moves an offer can hold: a 15×15 board's cells.
  public static let maximumOfferedMoves = 225

  /// Writes the fields of `game offer` and `game taken` (PROTOCOL.md rule 19).
  func writeKeptGame(into writer: inout FrameWriter) {
    switch self {
    case .gameOffer(let game, let hostPlaysX, let moves, let timeLeft, let times, let score, let choices):
      writer.field(1, u16: game)
      writer.field(2, u8: hostPlaysX ? 1 : 2)
      writer.field(3, bytes: moves.flatMap { [UInt8(clamping: $0.row), UInt8(clamping: $0.column)] })
      if timeLeft.count == 2 {
        writer.field(
          4, bytes: timeLeft.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } })
      }
      if !times.isEmpty {
        let numbers = times.flatMap { [$0.charged, $0.left] }
        writer.field(
          5, bytes: numbers.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } })
      }
      if score.count == 3 { writer.field(6, bytes: score.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) }
      if !choices.isEmpty { writer.field(7, bytes: choices.map(Self.wireValue)) }
    case .gameTaken(let verdict, let text, let readAll):
      writer.field(1, u8: verdict.rawValue)
      writer.field(2, string: text)
      if readAll { writer.field(3, u8: 1) }
    default: break
    }
  }

  /// Decodes `game offer` and `game taken` (PROTOCOL.md rule 19).
  static func decodeKeptGame(_ kind: Kind, _ f: Fields) throws(WireError) -> Message {
    switch kind {
    case .gameTaken:
      let code = try f.u8(1, "verdict")
      guard let verdict = GameTakenVerdict(rawValue: code) else {
        throw .badValue(
          "verdict", reason: "it is \(code), not 1 (taken), 2 (declined), 3 (disagrees) or 4 (no journal)")
      }
      let readAll = f.has(3) ? try f.u8(3, "read all") == 1 : false
      return .gameTaken(verdict, text: try f.string(2, "text", maximum: maximumTextBytes), readAll: readAll)
    default:
      let game = try f.u16(1, "game number")
      guard game >= 1 else { throw .badValue("game number", reason: "it is 0 (games count from 1)") }
      let who = try f.u8(2, "first player")
      guard who == 1 || who == 2 else {
        throw .badValue("first player", reason: "it is \(who), not 1 (the host) or 2 (the joiner)")
      }
      let bytes = try f.bytes(3, "moves")
      guard bytes.count.isMultiple(of: 2), bytes.count / 2 <= maximumOfferedMoves else {
        throw .badValue("moves", reason: "\(bytes.count) bytes (two a move, at most \(maximumOfferedMoves) moves)")
      }
      let moves = stride(from: 0, to: bytes.count, by: 2).map {
        Position(row: Int(bytes[$0]), column: Int(bytes[$0 + 1]))
      }
      var timeLeft: [UInt32] = []
      if f.has(4) {
        let times = try f.bytes(4, "time left", count: 8)
        timeLeft = [times[0...3], times[4...7]].map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
      }
      var times: [OfferedTime] = []
      if f.has(5) {
        let bytes = try f.bytes(5, "move times", count: 8 * moves.count)
        let numbers = stride(from: 0, to: bytes.count, by: 4).map {
          bytes[$0..<$0 + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        times = stride(from: 0, to: numbers.count, by: 2).map {
          OfferedTime(charged: numbers[$0], left: numbers[$0 + 1])
        }
      }
      var score: [UInt16] = []
      if f.has(6) {
        let bytes = try f.bytes(6, "score", count: 6)
        score = [0, 2, 4].map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
      }
      return .gameOffer(
        game: game, hostPlaysX: who == 1, moves: moves, timeLeft: timeLeft, times: times, score: score,
        choices: try offeredChoices(f))
    }
  }
}

extension Message {
  /// Field 7 of `game offer` (10 of `watch snapshot`): a Swap2 opening's choices so far (at most two, 1 black,
  /// 2 white, 3 place two more).
  static func offeredChoices(_ f: Fields, tag: UInt8 = 7) throws(WireError) -> [Swap2.Choice] {
    guard f.has(tag) else { return [] }
    let bytes = try f.bytes(tag, "opening choices")
    let choices = bytes.compactMap { byte in Swap2.Choice.allCases.first { wireValue($0) == byte } }
    guard bytes.count <= 2, choices.count == bytes.count else {
      throw .badValue("opening choices", reason: "\(bytes) (at most two, each 1, 2 or 3)")
    }
    return choices
  }
}

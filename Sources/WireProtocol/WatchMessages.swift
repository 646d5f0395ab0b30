import GameCore

/// How a watched game ended, as its spectators are told (PROTOCOL.md, "Version 4: watching").
public struct WatchedEnd: Sendable, Equatable {
  public enum How: UInt8, Sendable, Equatable {
    case line = 1
    case fullBoard = 2
    case resigned = 3
    case abandoned = 4
    case drawAgreed = 5
    case deadPosition = 6
    case aborted = 7
    case lostOnTime = 8
    case disputed = 9
  }

  public var how: How
  /// The mark the end names: the winner of a line; the loser of a resignation, an abandoned game or one lost on
  /// time; the claimant of a disputed flag; nil for a draw or an abort.
  public var mark: Mark?

  public init(_ how: How, mark: Mark? = nil) {
    self.how = how
    self.mark = mark
  }

  var bytes: [UInt8] { [how.rawValue, mark.map { $0 == .x ? 1 : 2 } ?? 0] }

  init(_ bytes: [UInt8]) throws(WireError) {
    guard let how = How(rawValue: bytes[0]) else { throw .badValue("end", reason: "it is \(bytes[0]), not 1 to 9") }
    guard bytes[1] <= 2 else { throw .badValue("end", reason: "mark \(bytes[1]), not 0, 1 (X) or 2 (O)") }
    self.how = how
    mark = bytes[1] == 0 ? nil : (bytes[1] == 1 ? .x : .o)
    let named = ![.fullBoard, .drawAgreed, .deadPosition, .aborted].contains(how)
    guard named == (mark != nil) else { throw .badValue("end", reason: "a mark where none belongs, or none named") }
  }
}

/// What a spectator is told first, and again whenever the game changes in a way a move does not say (a new game,
/// a takeback): the joiner, the game so far and the score. The rules and time control are the host's hello's.
public struct WatchSnapshot: Sendable, Equatable {
  /// The joiner's name (checked as a hello's) and the SHA-256 of its public key.
  public var joinerName: String
  public var joinerKey: [UInt8]
  /// The game's number in the match (0: none has begun, the coin toss is on).
  public var game: UInt16
  public var hostPlaysX: Bool
  public var moves: [Position]
  /// In a timed game, each move's charge and its mover's time left after it, as the host's clock has them.
  public var times: [OfferedTime]
  /// Games won by the host, won by the joiner, drawn.
  public var score: [UInt16]
  /// How the game ended, when it has.
  public var end: WatchedEnd?
  /// Spectators watching, this one counted.
  public var watchers: UInt16
  /// In a game that opens with Swap2, the opening's choices so far (field 10, 2026-12-03): with the stones and
  /// the hello's opening, the step the opening is at; `hostPlaysX` names the first player until they settle it.
  public var choices: [Swap2.Choice]

  public init(
    joinerName: String, joinerKey: [UInt8], game: UInt16, hostPlaysX: Bool, moves: [Position],
    times: [OfferedTime] = [], score: [UInt16], end: WatchedEnd? = nil, watchers: UInt16,
    choices: [Swap2.Choice] = []
  ) {
    self.choices = choices
    self.joinerName = joinerName
    self.joinerKey = joinerKey
    self.game = game
    self.hostPlaysX = hostPlaysX
    self.moves = moves
    self.times = times
    self.score = score
    self.end = end
    self.watchers = watchers
  }
}

extension Message {
  /// Writes the fields of the watching messages (PROTOCOL.md, "Version 4: watching").
  func writeWatching(into writer: inout FrameWriter) {
    switch self {
    case .watchSnapshot(let s):
      writer.field(1, string: s.joinerName)
      writer.field(2, bytes: s.joinerKey)
      writer.field(3, u16: s.game)
      writer.field(4, u8: s.hostPlaysX ? 1 : 2)
      writer.field(5, bytes: s.moves.flatMap { [UInt8(clamping: $0.row), UInt8(clamping: $0.column)] })
      if !s.times.isEmpty {
        writer.field(6, bytes: s.times.flatMap { Self.u32Bytes($0.charged) + Self.u32Bytes($0.left) })
      }
      writer.field(7, bytes: s.score.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
      if let end = s.end { writer.field(8, bytes: end.bytes) }
      writer.field(9, u16: s.watchers)
      if !s.choices.isEmpty { writer.field(10, bytes: s.choices.map(Self.wireValue)) }
    case .watchMove(let game, let ply, let position, let time):
      writer.field(1, u16: game)
      writer.field(2, u16: ply)
      writer.field(3, u8: UInt8(clamping: position.row))
      writer.field(4, u8: UInt8(clamping: position.column))
      if let time { writer.field(5, bytes: Self.u32Bytes(time.charged) + Self.u32Bytes(time.left)) }
    case .watchEnd(let game, let end, let score):
      writer.field(1, u16: game)
      writer.field(2, bytes: end.bytes)
      writer.field(3, bytes: score.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    case .watchers(let count): writer.field(1, u16: count)
    case .watchChat(let name, let text):
      writer.field(1, string: name)
      writer.field(2, string: text)
    case .watchGames(let part): writeGameList(part, into: &writer)
    default: break
    }
  }

  private static func u32Bytes(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  private static func times(_ bytes: [UInt8]) -> [OfferedTime] {
    let numbers = stride(from: 0, to: bytes.count, by: 4).map {
      bytes[$0..<$0 + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
    return stride(from: 0, to: numbers.count, by: 2).map { OfferedTime(charged: numbers[$0], left: numbers[$0 + 1]) }
  }

  private static func score(_ f: Fields, _ tag: UInt8) throws(WireError) -> [UInt16] {
    let bytes = try f.bytes(tag, "score", count: 6)
    return [0, 2, 4].map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
  }

  /// Decodes the watching messages (PROTOCOL.md, "Version 4: watching").
  static func decodeWatching(_ kind: Kind, _ f: Fields) throws(WireError) -> Message {
    switch kind {
    case .watchSnapshot: return .watchSnapshot(try decodeSnapshot(f))
    case .watchMove:
      let time = f.has(5) ? times(try f.bytes(5, "move time", count: 8)).first : nil
      let position = Position(row: Int(try f.u8(3, "row")), column: Int(try f.u8(4, "column")))
      return .watchMove(game: try f.u16(1, "game number"), ply: try f.u16(2, "ply"), position: position, time: time)
    case .watchEnd:
      let end = try WatchedEnd(try f.bytes(2, "end", count: 2))
      return .watchEnd(game: try f.u16(1, "game number"), end: end, score: try score(f, 3))
    case .watchChat:
      let name = try f.string(1, "spectator's name", maximum: maximumNameBytes)
      guard !name.isEmpty else { throw .badValue("spectator's name", reason: "it is empty") }
      try checkShownText(name, "spectator's name", maximumCharacters: maximumNameCharacters)
      return .watchChat(name: name, text: try f.string(2, "chat text", maximum: maximumChatBytes))
    case .watchGames: return try decodeGameList(f)
    default: return .watchers(count: try f.u16(1, "spectators"))
    }
  }

  private static func decodeSnapshot(_ f: Fields) throws(WireError) -> WatchSnapshot {
    let name = try f.string(1, "joiner's name", maximum: maximumNameBytes)
    guard !name.isEmpty else { throw .badValue("joiner's name", reason: "it is empty") }
    try checkShownText(name, "joiner's name", maximumCharacters: maximumNameCharacters)
    let bytes = try f.bytes(5, "moves")
    guard bytes.count.isMultiple(of: 2), bytes.count / 2 <= maximumOfferedMoves else {
      throw .badValue("moves", reason: "\(bytes.count) bytes (two a move, at most \(maximumOfferedMoves) moves)")
    }
    let moves = stride(from: 0, to: bytes.count, by: 2).map {
      Position(row: Int(bytes[$0]), column: Int(bytes[$0 + 1]))
    }
    let times = f.has(6) ? times(try f.bytes(6, "move times", count: 8 * moves.count)) : []
    let who = try f.u8(4, "first player")
    guard who == 1 || who == 2 else {
      throw .badValue("first player", reason: "it is \(who), not 1 (the host) or 2 (the joiner)")
    }
    return WatchSnapshot(
      joinerName: name, joinerKey: try f.bytes(2, "joiner's key", count: digestBytes),
      game: try f.u16(3, "game number"), hostPlaysX: who == 1, moves: moves, times: times, score: try score(f, 7),
      end: f.has(8) ? try WatchedEnd(try f.bytes(8, "end", count: 2)) : nil, watchers: try f.u16(9, "spectators"),
      choices: try offeredChoices(f, tag: 10))
  }
}

/// One game of a host that plays several (the practice bot), as its list for spectators gives it (PROTOCOL.md,
/// "Version 4: watching", rule 27): the number a spectator asks for, the joiner's name, who plays X and how many
/// moves are on the board. The rules are the host's hello's.
public struct ListedGame: Sendable, Equatable {
  /// What a spectator's hello asks for (field 17) to watch this game: 1 to 65535.
  public var number: UInt16
  /// The joiner's name, checked as a hello's.
  public var joinerName: String
  /// nil: no game has begun yet (the coin toss is on).
  public var hostPlaysX: Bool?
  public var moves: UInt16

  public init(number: UInt16, joinerName: String, hostPlaysX: Bool?, moves: UInt16) {
    self.number = number
    self.joinerName = joinerName
    self.hostPlaysX = hostPlaysX
    self.moves = moves
  }
}

/// A piece of a host's list of games (`watch games`, 0x84): the games, how many the host plays in all (listed or
/// not), and whether this is the list's last frame.
public struct GameListPart: Sendable, Equatable {
  public var games: [ListedGame]
  public var total: UInt16
  public var last: Bool

  public init(games: [ListedGame], total: UInt16, last: Bool) {
    self.games = games
    self.total = total
    self.last = last
  }

  /// At most this many games in a list, over all its frames; a spectator refuses a longer one.
  public static let maximumListed = 1000

  /// The frames of a list of `games` (at most `maximumListed` of them are sent) of a host that plays `total`
  /// games: as many games in each as fit in a frame, the last marked.
  public static func frames(_ games: [ListedGame], total: Int) -> [Message] {
    let listed = games.prefix(maximumListed)
    let budget = 4096 - 1 - 3 - 5 - 4  // the type; field 1's header; fields 2 and 3
    var parts: [[ListedGame]] = [[]]
    var used = 0
    for game in listed {
      let size = entryBytes(game).count
      if used + size > budget {
        parts.append([])
        used = 0
      }
      parts[parts.count - 1].append(game)
      used += size
    }
    let all = UInt16(clamping: max(total, listed.count))
    return parts.indices.map {
      .watchGames(GameListPart(games: parts[$0], total: all, last: $0 == parts.count - 1))
    }
  }

  static func entryBytes(_ game: ListedGame) -> [UInt8] {
    let name = Array(game.joinerName.utf8.prefix(Message.maximumNameBytes))
    let first: UInt8 = game.hostPlaysX.map { $0 ? 1 : 2 } ?? 0
    return [UInt8(game.number >> 8), UInt8(game.number & 0xFF), first, UInt8(game.moves >> 8)]
      + [UInt8(game.moves & 0xFF), UInt8(name.count)] + name
  }
}

extension Message {
  func writeGameList(_ part: GameListPart, into writer: inout FrameWriter) {
    writer.field(1, bytes: part.games.flatMap(GameListPart.entryBytes))
    writer.field(2, u16: part.total)
    writer.field(3, u8: part.last ? 1 : 0)
  }

  /// Decodes `watch games`: each game's number (1 or more), first player (0, 1 or 2), moves (at most a 15×15
  /// board's) and name (checked as a hello's), with no byte left over.
  static func decodeGameList(_ f: Fields) throws(WireError) -> Message {
    let bytes = try f.bytes(1, "games")
    var games: [ListedGame] = []
    var at = 0
    while at < bytes.count {
      guard at + 6 <= bytes.count else { throw .badValue("games", reason: "a game cut short at byte \(at)") }
      let number = UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
      let first = bytes[at + 2]
      let moves = UInt16(bytes[at + 3]) << 8 | UInt16(bytes[at + 4])
      let length = Int(bytes[at + 5])
      guard number > 0, first <= 2, moves <= maximumOfferedMoves, (1...maximumNameBytes).contains(length),
        at + 6 + length <= bytes.count
      else { throw .badValue("games", reason: "game \(number) at byte \(at) is malformed") }
      guard let name = String(validating: bytes[(at + 6)..<(at + 6 + length)], as: UTF8.self) else {
        throw .invalidUTF8(field: "a listed joiner's name")
      }
      try checkShownText(name, "a listed joiner's name", maximumCharacters: maximumNameCharacters)
      games.append(
        ListedGame(number: number, joinerName: name, hostPlaysX: first == 0 ? nil : first == 1, moves: moves))
      at += 6 + length
    }
    let last = try f.u8(3, "last")
    guard last <= 1 else { throw .badValue("last", reason: "it is \(last), not 0 or 1") }
    return .watchGames(GameListPart(games: games, total: try f.u16(2, "games in all"), last: last == 1))
  }
}

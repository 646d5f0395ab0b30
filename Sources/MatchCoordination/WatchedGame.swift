import GameCore
import PeerTrust
import UntrustedText
import WireProtocol

/// What a spectator knows of the game it watches: the host's hello, then the host's snapshots, moves and results,
/// each checked (a move must be the next ply of the game told and legal on its board). Pure.
public struct WatchedGame: Equatable, Sendable {
  public var hostName: PeerText
  public var joinerName: PeerText
  public var joinerKey: Fingerprint?
  public var timeControl: TimeControl
  /// The game's number in the match (0: none has begun).
  public var gameNumber: Int
  public var hostPlaysX: Bool
  public var game: Game
  public var times: [OfferedTime]
  /// Games won by the host, won by the joiner, drawn.
  public var score: [Int]
  public var end: WatchedEnd?
  /// In a game that opens with Swap2 (the host's terms), the opening's choices so far as the last snapshot gave
  /// them (field 10); nil in a game without the opening.
  public var swap2Choices: [Swap2.Choice]? = nil

  /// The name of the player of `mark`.
  public func name(of mark: Mark) -> PeerText { (mark == .x) == hostPlaysX ? hostName : joinerName }

  /// The Swap2 opening as it stands, replayed from the stones and the choices so far (checked as they came, so it
  /// replays); nil in a game without it.
  public var opening: Swap2? {
    swap2Choices.flatMap { try? Swap2(rules: game.rules, stones: game.history, choices: $0) }
  }

  /// The colour, as the game stands now, of the player whose clock the stone at `ply` was timed on: the stone's
  /// own colour, or in a Swap2 game its placer's (the clocks are the players' places, PROTOCOL.md rule 14: the
  /// first player's O stones are on its clock, which is X's until it takes white).
  public func clockColour(ofStone ply: Int) -> Mark {
    let colour: Mark = ply.isMultiple(of: 2) ? .x : .o
    guard let opening else { return colour }
    let stones = opening.log.compactMap { if case .stone = $0.action { $0.player } else { nil } }
    let placer = ply < stones.count ? stones[ply] : opening.player(playing: colour)
    return placer.map { Self.colour(of: $0, in: opening) } ?? colour
  }

  /// The colour of the player whose clock runs now (nil: none, the game over or each side's first move free): in a
  /// Swap2 game the player who places or chooses, from the first stone.
  public var runningClockColour: Mark? {
    guard end == nil, !game.isOver else { return nil }
    guard let opening else { return game.history.count < 2 ? nil : game.turn }
    let actor = opening.isSettled ? opening.player(playing: game.turn) : opening.actor
    return actor.map { Self.colour(of: $0, in: opening) }
  }

  /// The colour of `place` in `opening`: the first player's X until the colours are settled.
  static func colour(of place: Swap2.Player, in opening: Swap2) -> Mark {
    opening.mark(of: place) ?? (place == .first ? .x : .o)
  }
}

/// What a spectator is told, as its front end shows it.
public enum WatchUpdate: Equatable, Sendable {
  /// The game as it stands (the first word of the host, a new game, a takeback).
  case position(WatchedGame)
  /// `mark` played at `position`.
  case moved(WatchedGame, Position, Mark)
  case ended(WatchedGame)
  /// The connection ended with the game shown still on (its host left, or the connection broke): why, in words
  /// that may be the host's.
  case unfinished(WatchedGame, why: PeerText)
}

extension WatchedGame {
  /// The game after the host's `message` (a snapshot, move or result) to a spectator who knew `current` (nil:
  /// nothing yet) of host `host` on `terms`. Throws the violation's words.
  public static func after(_ message: Message, _ current: WatchedGame?, host: PeerText, terms: HostTerms?)
    throws(WatchViolation) -> WatchUpdate
  {
    switch message {
    case .watchSnapshot(let s):
      guard let rules = terms?.rules else { throw WatchViolation("a position before the host's rules") }
      let game: Game
      do throws(MoveError) { game = try Game(rules: rules, moves: s.moves) } catch {
        throw WatchViolation("a position that cannot be played: \(error)")
      }
      let watched = WatchedGame(
        hostName: host, joinerName: PeerText(s.joinerName), joinerKey: Fingerprint(bytes: s.joinerKey),
        timeControl: terms?.timeControl ?? .none, gameNumber: Int(s.game), hostPlaysX: s.hostPlaysX, game: game,
        times: s.times, score: s.score.map(Int.init), end: s.end,
        swap2Choices: terms?.opening == .swap2 ? s.choices : nil)
      if let choices = watched.swap2Choices {
        do throws(Swap2Error) { _ = try Swap2(rules: rules, stones: s.moves, choices: choices) } catch {
          throw WatchViolation("a position whose Swap2 opening cannot be played: \(error.reason)")
        }
      }
      return .position(watched)
    case .watchMove(let number, let ply, let position, let time):
      guard var watched = current, Int(number) == watched.gameNumber, watched.end == nil,
        Int(ply) == watched.game.history.count
      else { throw WatchViolation("a move (game \(number), ply \(ply)) that is not the next of the game watched") }
      if let opening = watched.opening, !opening.isSettled, !opening.choices.isEmpty {
        throw WatchViolation("a move while the Swap2 opening waits for a choice")
      }
      let mark = watched.game.turn
      do throws(MoveError) { try watched.game.play(position) } catch {
        throw WatchViolation("a move that cannot be played: \(error)")
      }
      if let time, watched.times.count == Int(ply) { watched.times.append(time) }
      return .moved(watched, position, mark)
    case .watchEnd(let number, let end, let score):
      guard var watched = current, Int(number) == watched.gameNumber, watched.end == nil else {
        throw WatchViolation("a result of game \(number), which is not the game watched or is over already")
      }
      watched.end = end
      watched.score = score.map(Int.init)
      return .ended(watched)
    default:
      throw WatchViolation("a \(message.name), which is not for spectators")
    }
  }
}

/// What a host sent its spectator that breaks the protocol.
public struct WatchViolation: Error, Equatable, Sendable {
  public let text: String
  public init(_ text: String) { self.text = text }
}

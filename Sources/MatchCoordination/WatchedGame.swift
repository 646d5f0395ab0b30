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

  /// The name of the player of `mark`.
  public func name(of mark: Mark) -> PeerText { (mark == .x) == hostPlaysX ? hostName : joinerName }
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
        times: s.times, score: s.score.map(Int.init), end: s.end)
      return .position(watched)
    case .watchMove(let number, let ply, let position, let time):
      guard var watched = current, Int(number) == watched.gameNumber, watched.end == nil,
        Int(ply) == watched.game.history.count
      else { throw WatchViolation("a move (game \(number), ply \(ply)) that is not the next of the game watched") }
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

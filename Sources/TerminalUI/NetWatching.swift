import GameCore
import UntrustedText

extension NetGameState {
  /// What a spectator's screen shows beside the board (`tictactoe watch`): both players with their keys, the
  /// game's number, the score and the result. Every name came from the host, so it stays `PeerText` until drawn.
  public struct Watching: Sendable, Equatable {
    /// A player as the spectator knows it: its name and its key's fingerprint shortened.
    public struct Player: Sendable, Equatable {
      public var name: PeerText
      /// `SHA256:` and the fingerprint's first characters (`shortKey`), nil when not known.
      public var key: String?

      public init(name: PeerText, key: String?) {
        self.name = name
        self.key = key
      }
    }

    public var host: Player?
    public var joiner: Player?
    public var hostPlaysX = true
    /// The game's number in the match (0: none has begun).
    public var gameNumber = 0
    /// Games won by the host, won by the joiner, drawn.
    public var score = [0, 0, 0]
    /// How the game shown ended, in words ("alice (X) wins with a line"); nil while it is on.
    public var result: String?
    /// Why the game shown stops without a result the host sent (its host left mid-game), in words.
    public var unfinished: String?
    /// When (the driver's clock, seconds) the last move or position came: the running clock counts from it.
    public var since = 0.0
    /// The game's Swap2 opening as the host's snapshot and moves tell it (nil: the game has none): while it runs,
    /// `hostPlaysX` says whether the host is the first player.
    public var opening: Swap2?

    public init() {}

    /// How many characters of a fingerprint's base64 a spectator's screen shows.
    public static let shortKeyLength = 12

    /// `SHA256:47DEQpj8HBSa` of `SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU`.
    public static func shortKey(_ fingerprint: String) -> String {
      let prefix = "SHA256:"
      guard fingerprint.hasPrefix(prefix) else { return String(fingerprint.prefix(shortKeyLength)) }
      return prefix + fingerprint.dropFirst(prefix.count).prefix(shortKeyLength)
    }

    public func player(_ mark: Mark) -> Player? { (mark == .x) == hostPlaysX ? host : joiner }

    /// The name of the player of `mark`, sanitised; "X" or "O" before it is known.
    public func name(_ mark: Mark) -> String { player(mark).map { "\($0.name)" } ?? "\(mark)" }

    /// The name of the player in `place` of the Swap2 opening: the first is X until the colours are settled.
    public func name(_ place: Swap2.Player) -> String {
      name(opening?.mark(of: place) ?? (place == .first ? .x : .o))
    }

    /// While a Swap2 opening runs, its step as the players' screens say it, each player by name: "Swap2: bob
    /// places 3 stones (X, O, X): 1 of 3 down, O next"; nil otherwise.
    public var openingStep: String? {
      guard let opening, result == nil, unfinished == nil else { return nil }
      return NetSwap2Words.watched(opening, first: name(.first), second: name(.second))
    }

    /// "alice (X) SHA256:47DEQpj8HBSa vs bob (O) SHA256:k3F9aa0PqQ2z".
    public var playersLine: String {
      guard gameNumber > 0 else {
        let host = host.map { "\($0.name)" + ($0.key.map { " \($0)" } ?? "") } ?? "the host"
        let joiner = joiner.map { " vs \($0.name)" + ($0.key.map { " \($0)" } ?? "") } ?? ""
        return "Watching \(host)\(joiner)"
      }
      let side = { (mark: Mark) in "\(self.name(mark)) (\(mark))" + (self.player(mark)?.key.map { " \($0)" } ?? "") }
      return "Watching game \(gameNumber): \(side(.x)) vs \(side(.o))"
    }

    /// "alice 1 · bob 0 · draws 0".
    public func scoreLine(separator: String) -> String {
      let host = host.map { "\($0.name)" } ?? "host"
      let joiner = joiner.map { "\($0.name)" } ?? "joiner"
      return "\(host) \(score[0])\(separator)\(joiner) \(score[1])\(separator)draws \(score[2])"
    }

    /// The status under the clocks: how the game ended (or that it stopped unfinished), else the last move and
    /// whose turn it is.
    public func status(_ game: Game) -> String {
      if let unfinished { return unfinished }
      if let result { return result + ". Waiting to see whether they play again." }
      guard gameNumber > 0 else { return "The first game has not begun." }
      var text = ""
      if let last = game.lastMove, let mark = game.board[last] {
        text =
          "\(placer(ofLast: game).map(name) ?? name(mark)) plays \(PlainSession.moveName(last, rules: game.rules)). "
      }
      return text + (openingStep ?? "\(name(game.turn)) (\(game.turn)) to move.")
    }

    /// Who placed the last stone when it is one of the Swap2 opening's (its colour does not say who placed it).
    func placer(ofLast game: Game) -> Swap2.Player? {
      guard let opening, game.history.count <= opening.game.history.count else { return nil }
      return opening.log.last { if case .stone = $0.action { true } else { false } }?.player
    }
  }

  /// Whether this screen watches instead of playing.
  public var isWatching: Bool { watching != nil }
}

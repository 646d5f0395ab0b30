import GameCore

/// The games of one match from this player's side: the rules, the game being played (or the last one), this
/// player's mark in it, the score, and the rematch offers between games. The session checks the peer's
/// messages and says when a game starts, a move is played or a game ends; this keeps the count. Pure.
@usableFromInline struct GameSeries: Sendable {
  /// The rules of every game of the match (the joiner takes the host's before the first game).
  var rules: Rules
  /// The game being played, or the last one.
  @usableFromInline private(set) var game: Game?
  @usableFromInline private(set) var myMark: Mark?
  /// The number of the latest game begun (0 before the first).
  private(set) var gameNumber = 0
  private(set) var score = NetSession.Score()
  /// How the latest game ended (nil while it is played).
  private(set) var lastResult: GameResult?
  /// This player offered a rematch and waits for the answer.
  private(set) var rematchOfferedByMe = false
  /// The peer offered a rematch.
  private(set) var rematchOfferedByPeer = false
  /// Games aborted so far: each keeps the first player for the next game (PROTOCOL.md rule 17).
  private var aborted = 0

  init(rules: Rules) { self.rules = rules }

  /// Begins the next game. `firstMark` is this player's mark in the match's first game (the coin's); after that
  /// the first player alternates. This player's mark in the new game.
  mutating func startGame(firstMark: Mark) -> Mark {
    gameNumber += 1
    rematchOfferedByMe = false
    rematchOfferedByPeer = false
    lastResult = nil
    let mark = (gameNumber - aborted).isMultiple(of: 2) ? firstMark.opponent : firstMark
    myMark = mark
    game = Game(rules: rules)
    return mark
  }

  /// Takes up a game kept through a restart (PROTOCOL.md rule 19) as the current one, this player playing `mark`.
  /// The score of the games before it is the kept game's, when it says (`role`: this player's).
  mutating func restore(_ kept: KeptGame, myMark mark: Mark, role: Role) throws(MoveError) {
    game = try Game(rules: rules, moves: kept.moves)
    if let before = kept.score { score = before.seen(by: role) }
    gameNumber = kept.gameNumber
    myMark = mark
    lastResult = nil
    rematchOfferedByMe = false
    rematchOfferedByPeer = false
  }

  /// Plays `position` in the current game, for this player or for the peer.
  mutating func play(_ position: Position, byPeer: Bool) throws(MoveError) {
    guard game != nil, let myMark else { throw .gameOver }
    // In place: a copy taken out and put back shared the board and the history with the one kept, so each move
    // copied both (two allocations a move on a practice bot's loop).
    try game?.play(position, by: byPeer ? myMark.opponent : myMark)
  }

  /// The board of a Swap2 opening, whose stones are placed by whoever the opening says, not by colour.
  mutating func takeOpeningBoard(_ board: Game) { game = board }

  /// The opening settled this player's colour for the current game.
  mutating func settle(myMark mark: Mark) { myMark = mark }

  /// Takes the current game back to `ply` moves (a takeback, PROTOCOL.md rule 16).
  mutating func takeBack(to ply: Int) {
    while let count = game?.history.count, count > ply { game?.undo() }
  }

  /// Ends the current game once its board decides it: the result, or nil while it goes on. With
  /// `deadPositionDraws` (version 3, rule 18) a board on which no line can still be completed is a draw.
  mutating func finishIfOver(deadPositionDraws: Bool = false) -> GameResult? {
    guard let outcome = game?.outcome else {
      return deadPositionDraws && game?.noLineCanBeCompleted == true ? end(.deadPosition) : nil
    }
    switch outcome {
    case .win(let mark, _): return end(.line(winner: mark))
    case .draw: return end(.draw)
    }
  }

  /// Ends the current game with `result` and counts it.
  @discardableResult mutating func end(_ result: GameResult) -> GameResult {
    lastResult = result
    if result == .aborted { aborted += 1 }
    count(result, 1)
    return result
  }

  /// A game in progress was left without a result: the one who left loses it, on both sides' scores.
  mutating func gameLeft(byMe: Bool) {
    if byMe { score.losses += 1 } else { score.wins += 1 }
  }

  /// The peer resigned before it saw this side end the game (rule 6). The peer ignores the move that crossed
  /// its resignation, so this side takes the resignation too and both record the same result; when both
  /// resigned at once, the game is a draw on both sides. The new result, or nil when nothing changes.
  mutating func resignationCrossed() -> GameResult? {
    guard let myMark, let result = lastResult else { return nil }
    switch result {
    case .resigned(let loser) where loser == myMark:
      return rescore(result, as: .draw)
    case .line, .draw:
      // Only when this side's own move ended it (the peer never saw that move).
      guard let game, game.outcome != nil, let last = game.history.indices.last,
        (last.isMultiple(of: 2) ? Mark.x : .o) == myMark
      else { return nil }
      return rescore(result, as: .resigned(loser: myMark.opponent))
    default:
      return nil
    }
  }

  /// This player offered a rematch.
  mutating func offerRematch() { rematchOfferedByMe = true }

  /// The peer offered a rematch.
  mutating func peerOffersRematch() { rematchOfferedByPeer = true }

  /// The game this side holds: its number, its ply count and the digest of the rules and the moves during a
  /// game (`playing`). Between games only the number counts: a game-ending move that crossed a resignation
  /// leaves the two boards, and even the two results, different (rule 6), and that is no reason to end the
  /// match.
  /// `choices`: the Swap2 opening's choices so far, their numbers as `opening choice` sends them (none in a game
  /// without one, whose digest is then what it always was).
  func holding(playing: Bool, choices: [UInt8] = [], sha256: ([UInt8]) -> [UInt8]) -> HeldGame {
    var bytes: [UInt8] = Array("tictactoe moves".utf8)
    bytes += [UInt8(gameNumber >> 8 & 0xFF), UInt8(gameNumber & 0xFF)]
    bytes += [UInt8(rules.rows), UInt8(rules.columns), UInt8(rules.k)]
    if playing {
      bytes.append(1)
      for position in game?.history ?? [] { bytes += [UInt8(position.row), UInt8(position.column)] }
      if !choices.isEmpty { bytes += [0xFF] + choices }
    } else {
      bytes.append(0)
    }
    let ply = playing ? UInt16(clamping: game?.history.count ?? 0) : 0
    return HeldGame(game: UInt16(clamping: gameNumber), ply: ply, digest: sha256(bytes))
  }

  private mutating func rescore(_ old: GameResult, as new: GameResult) -> GameResult {
    count(old, -1)
    return end(new)
  }

  /// Adds `change` to the score `result` counts towards.
  private mutating func count(_ result: GameResult, _ change: Int) {
    guard result.isScored else { return }
    switch result.winner {
    case nil: score.draws += change
    case myMark: score.wins += change
    default: score.losses += change
    }
  }
}

/// The game a side holds, as the resume messages say it: its number, its ply count and the digest of the rules
/// and the moves.
struct HeldGame: Sendable, Equatable {
  let game: UInt16
  let ply: UInt16
  let digest: [UInt8]
}

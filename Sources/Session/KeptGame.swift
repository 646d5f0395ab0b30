import GameCore

/// A game in progress as one side holds it when the other comes back after a restart (PROTOCOL.md rule 19): what
/// the side that kept it offers, and what the returning side's journal holds. Pure.
public struct KeptGame: Sendable, Equatable {
  public let rules: Rules
  /// The game's number in its match (from 1).
  public let gameNumber: Int
  /// Whether the host plays X in it.
  public let hostPlaysX: Bool
  public let moves: [Position]
  /// Each move's agreed times in a timed game (rule 14), one for each move, or none: not part of what makes two
  /// kept games the same game (the two sides' own lists may differ by an echo in flight when a program went away;
  /// the times of the side that kept the game stand, sent with its offer).
  public let times: [GameClock.AgreedTime]
  /// The score of the match's games before this one, when known (nil from a journal or an offer of a program of
  /// before 2026-12-02).
  public let score: MatchScore?
  /// In a match that opens with Swap2, the opening's choices so far (its stones are among the moves; version 4,
  /// 2026-12-03): a game is kept while its opening runs.
  public let choices: [Swap2.Choice]

  public init(
    rules: Rules, gameNumber: Int, hostPlaysX: Bool, moves: [Position], times: [GameClock.AgreedTime] = [],
    score: MatchScore? = nil, choices: [Swap2.Choice] = []
  ) {
    self.choices = choices
    self.rules = rules
    self.gameNumber = gameNumber
    self.hostPlaysX = hostPlaysX
    self.moves = moves
    self.times = times.count == moves.count ? times : []
    self.score = score
  }

  /// Whether the game `offered` by the side that kept it is this one (the journal's), and if not, why not.
  public func agreement(with offered: KeptGame) -> KeptGameAgreement {
    guard rules == offered.rules else {
      return .differs("the rules differ (\(offered.rules) offered, \(rules) kept here)")
    }
    guard gameNumber == offered.gameNumber else {
      return .differs("game \(offered.gameNumber) offered, game \(gameNumber) kept here")
    }
    guard hostPlaysX == offered.hostPlaysX else { return .differs("the marks differ (who plays X)") }
    if let score, let theirs = offered.score, score != theirs {
      return .differs("the score of the games before it differs (\(theirs) offered, \(score) kept here)")
    }
    guard choices == offered.choices else {
      return .differs("the Swap2 choices differ (\(offered.choices.count) offered, \(choices.count) kept here)")
    }
    let shared = min(moves.count, offered.moves.count)
    if let ply = (0..<shared).first(where: { moves[$0] != offered.moves[$0] }) {
      return .differs("move \(ply + 1) differs (\(offered.moves.count) moves offered, \(moves.count) kept here)")
    }
    switch moves.count - offered.moves.count {
    case 0: return .same
    case 1: return .keptOneMoreHere
    case -1: return .offeredOneMore
    default: return .differs("\(offered.moves.count) moves offered, \(moves.count) kept here")
    }
  }
}

/// The journal's game against the one offered (PROTOCOL.md rule 19). In every agreeing case the offered position
/// stands: a move kept only here was made and written but lost on the wire, and its side plays it again; a move
/// only offered reached this side but was not yet written when its program was killed.
public enum KeptGameAgreement: Sendable, Equatable {
  case same
  case keptOneMoreHere
  case offeredOneMore
  /// Not the same game: why, in words both players are shown.
  case differs(String)

  public var agrees: Bool {
    if case .differs = self { return false }
    return true
  }
}

extension GameJournal {
  /// The game this journal keeps.
  public var kept: KeptGame {
    KeptGame(
      rules: rules, gameNumber: gameNumber, hostPlaysX: hostPlaysX, moves: moves, times: times, score: score,
      choices: choices)
  }
}

/// The score of a match's games, by side: won by the host, won by the joiner, drawn (aborted and disputed games
/// count in none). What a kept game carries of the games before it (PROTOCOL.md rule 19).
public struct MatchScore: Sendable, Equatable, CustomStringConvertible {
  public var hostWins: Int
  public var joinerWins: Int
  public var draws: Int

  public init(hostWins: Int, joinerWins: Int, draws: Int) {
    self.hostWins = hostWins
    self.joinerWins = joinerWins
    self.draws = draws
  }

  /// `score` as the side playing `role` counts it.
  public init(_ score: NetSession.Score, of role: Role) {
    let host = role == .host
    self.init(
      hostWins: host ? score.wins : score.losses, joinerWins: host ? score.losses : score.wins, draws: score.draws)
  }

  /// The score as the side playing `role` counts it.
  public func seen(by role: Role) -> NetSession.Score {
    let host = role == .host
    return NetSession.Score(wins: host ? hostWins : joinerWins, losses: host ? joinerWins : hostWins, draws: draws)
  }

  /// "host 2, joiner 1, 0 drawn".
  public var description: String { "host \(hostWins), joiner \(joinerWins), \(draws) drawn" }
}

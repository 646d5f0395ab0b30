extension NetSession {
  /// Where the session stands.
  public enum Phase: Sendable, Equatable {
    /// Waiting for the peer's hello.
    case greeting
    /// Host: the joiner said hello; waiting for this player to accept or decline.
    case awaitingDecision
    /// Joiner: waiting for the host's welcome.
    case awaitingWelcome
    /// Deciding who moves first.
    case tossing
    case playing
    /// A game ended; a rematch may follow.
    case betweenGames
    case closed(SessionEnd)

    /// When something happened, in words ("during a game"): what the report of an unexpected message says.
    var moment: String {
      switch self {
      case .greeting: return "while greeting"
      case .awaitingDecision: return "while the host decides"
      case .awaitingWelcome: return "while waiting for the welcome"
      case .tossing: return "during the coin toss"
      case .playing: return "during a game"
      case .betweenGames: return "between games"
      case .closed: return "after the end"
      }
    }
  }

  /// The connection under the match.
  public enum Link: Sendable, Equatable {
    case up
    /// The connection dropped at `since` in the middle of a match: the game is kept. Local actions still count
    /// (they are sent when the game resumes); the peer's are waited for.
    case lost(since: Double)
    /// A new connection is exchanging resume messages (one round trip); local actions wait for it.
    case resuming(since: Double)
  }

  /// Results of the match so far, from this player's side.
  public struct Score: Sendable, Equatable {
    public var wins = 0
    public var losses = 0
    public var draws = 0

    public init(wins: Int = 0, losses: Int = 0, draws: Int = 0) {
      self.wins = wins
      self.losses = losses
      self.draws = draws
    }
  }
}

import GameCore

/// The game in progress as one side keeps it on disk (PROTOCOL.md rule 19), so that a program killed or restarted
/// mid-game cannot make the game vanish: both players' keys, the terms, who plays X, the moves and their agreed
/// times. Pure: the shell writes and reads the text (`text(sha256:)`, `init(text:myKey:peerKey:sha256:)`).
public struct GameJournal: Sendable, Equatable {
  /// The format's version, the first line's number: 2 adds the score line (2026-12-02), 3 the line of a Swap2
  /// opening's choices (2026-12-03, written only when there are some); versions 1 and 2 are still read.
  public static let version = 3
  /// This side's public key (base64 DER), as its records write it.
  public let myKey: String
  /// The opponent's public key (base64 DER).
  public let peerKey: String
  public let role: Role
  public let rules: Rules
  public let timeControl: TimeControl
  /// The protocol version both sides chose.
  public let protocolVersion: Int
  /// The game's number in its match (from 1).
  public let gameNumber: Int
  /// Whether the host plays X in this game.
  public let hostPlaysX: Bool
  public let moves: [Position]
  /// The agreed time of each move so far, in a timed game (none in an untimed one).
  public let times: [GameClock.AgreedTime]
  /// The score of the match's games before this one (nil in a version-1 journal).
  public let score: MatchScore?
  /// A Swap2 opening's choices so far (its stones are among the moves).
  public let choices: [Swap2.Choice]

  public init(
    myKey: String, peerKey: String, role: Role, rules: Rules, timeControl: TimeControl, protocolVersion: Int,
    gameNumber: Int, hostPlaysX: Bool, moves: [Position], times: [GameClock.AgreedTime] = [], score: MatchScore? = nil,
    choices: [Swap2.Choice] = []
  ) {
    self.choices = choices
    self.myKey = myKey
    self.peerKey = peerKey
    self.role = role
    self.rules = rules
    self.timeControl = timeControl
    self.protocolVersion = protocolVersion
    self.gameNumber = gameNumber
    self.hostPlaysX = hostPlaysX
    self.moves = moves
    self.times = times
    self.score = score
  }

  /// The journal of `session`'s game while one is in progress with a version-3 peer, nil otherwise (between
  /// games, before the first, once closed, or with an older peer, which rule 19 does not cover). A Swap2 opening
  /// is kept with its choices.
  public init?(of session: NetSession, myKey: String, peerKey: String) {
    guard session.hasGameFlow, session.gameInProgress, let game = session.game,
      let hostPlaysX = session.hostPlayedXLast, let version = session.version
    else { return nil }
    let moves = game.history
    self.init(
      myKey: myKey, peerKey: peerKey, role: session.configuration.role, rules: session.rules,
      timeControl: session.timeControl, protocolVersion: Int(version), gameNumber: session.gameNumber,
      hostPlaysX: hostPlaysX, moves: moves, times: session.agreedTimes(plies: moves.count),
      score: MatchScore(session.score, of: session.configuration.role), choices: session.openingChoicesMade)
  }

  /// The mark this side plays in the game.
  public var myMark: Mark { (role == .host) == hostPlaysX ? .x : .o }

  /// The game as the journal's lines, ending in the SHA-256 of the lines before it.
  public func text(sha256: ([UInt8]) -> [UInt8]) -> String {
    var lines = [
      "tictactoe journal \(score == nil ? 1 : choices.isEmpty ? 2 : Self.version)", "me \(myKey)", "peer \(peerKey)",
      "role \(role == .host ? "host" : "joiner")",
      "rules \(rules.rows) \(rules.columns) \(rules.k)" + (rules.variant == .freestyle ? "" : " \(rules.variant.name)"),
      "clock \(Self.clockWords(timeControl))",
      "protocol \(protocolVersion)", "game \(gameNumber)", "x \(hostPlaysX ? "host" : "joiner")",
    ]
    if let score { lines.append("score \(score.hostWins) \(score.joinerWins) \(score.draws)") }
    if score != nil, !choices.isEmpty { lines.append("opening " + choices.map(\.rawValue).joined(separator: " ")) }
    for (ply, move) in moves.enumerated() {
      let time = ply < times.count ? " \(times[ply].charged) \(times[ply].left)" : ""
      lines.append("move \(move.row) \(move.column)\(time)")
    }
    let body = lines.joined(separator: "\n") + "\n"
    return body + "sha256 \(Self.hex(sha256(Array(body.utf8))))\n"
  }

  /// A time control as the journal writes it: the kind and its milliseconds, so nothing is rounded.
  static func clockWords(_ control: TimeControl) -> String {
    switch control {
    case .none: "none"
    case .fischer(let base, let increment): "fischer \(base) \(increment)"
    case .perMove(let time): "move \(time)"
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }
}

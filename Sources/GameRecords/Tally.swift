import GameCore

/// Wins, losses and draws, from one player's side.
public struct Tally: Sendable, Hashable, CustomStringConvertible {
  public var wins = 0
  public var losses = 0
  public var draws = 0

  public init(wins: Int = 0, losses: Int = 0, draws: Int = 0) {
    self.wins = wins
    self.losses = losses
    self.draws = draws
  }

  public var games: Int { wins + losses + draws }

  /// `5–3, 2 drawn`, or `5–3` without draws.
  public var description: String { "\(wins)–\(losses)" + (draws > 0 ? ", \(draws) drawn" : "") }

  mutating func count(_ result: RecordResult, me: Mark) {
    switch result {
    case .won(let winner, _): if winner == me { wins += 1 } else { losses += 1 }
    case .drawn: draws += 1
    case .void, .disputed, .unknown: break
    }
  }
}

/// What of a record the tallies need: each side's key and level, and who won.
public struct RecordSummary: Sendable, Hashable {
  public var blackKey: String?
  public var whiteKey: String?
  public var blackLevel: String?
  public var whiteLevel: String?
  public var result: RecordResult

  public init(
    blackKey: String?, whiteKey: String?, blackLevel: String?, whiteLevel: String?, result: RecordResult
  ) {
    self.blackKey = blackKey
    self.whiteKey = whiteKey
    self.blackLevel = blackLevel
    self.whiteLevel = whiteLevel
    self.result = result
  }

  /// The record's summary; its result keeps who won, not why (the tallies do not ask, and the index does not keep
  /// it), so every winner's result reads `.line`.
  public init(_ record: GameRecord) {
    let result: RecordResult = record.result.winner.map { .won($0, .line) } ?? record.result
    self.init(
      blackKey: record.black.publicKey, whiteKey: record.white.publicKey, blackLevel: record.black.level,
      whiteLevel: record.white.level, result: result)
  }

  func key(_ mark: Mark) -> String? { mark == .x ? blackKey : whiteKey }
  func level(_ mark: Mark) -> String? { mark == .x ? blackLevel : whiteLevel }
}

/// The record against each opponent, derived from the saved games (so it cannot disagree with them).
public enum OpponentTally {
  /// Against each opponent's public key, from the side that has `myKey`; games without it are not counted.
  public static func byOpponentKey(_ records: [GameRecord], myKey: String) -> [String: Tally] {
    byOpponentKey(records.map(RecordSummary.init), myKey: myKey)
  }

  public static func byOpponentKey(_ summaries: [RecordSummary], myKey: String) -> [String: Tally] {
    byOpponentKey(summaries, myKeys: [myKey])
  }

  /// Against each opponent's public key, from the side that has one of `myKeys` (the player's key and the ones it
  /// replaced); games without any are not counted, nor games between two of them.
  public static func byOpponentKey(_ summaries: [RecordSummary], myKeys: Set<String>) -> [String: Tally] {
    var tallies: [String: Tally] = [:]
    for summary in summaries {
      for me in Mark.allCases where summary.key(me).map(myKeys.contains) == true {
        guard let key = summary.key(me.opponent), !myKeys.contains(key) else { continue }
        tallies[key, default: Tally()].count(summary.result, me: me)
      }
    }
    return tallies
  }

  /// Against the computer, by its level, from the other side.
  public static func byComputerLevel(_ records: [GameRecord]) -> [String: Tally] {
    byComputerLevel(records.map(RecordSummary.init))
  }

  public static func byComputerLevel(_ summaries: [RecordSummary]) -> [String: Tally] {
    var tallies: [String: Tally] = [:]
    for summary in summaries {
      for computer in Mark.allCases {
        guard let level = summary.level(computer), summary.level(computer.opponent) == nil else { continue }
        tallies[level, default: Tally()].count(summary.result, me: computer.opponent)
      }
    }
    return tallies
  }
}

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
    case .unknown: break
    }
  }
}

/// The record against each opponent, derived from the saved games (so it cannot disagree with them).
public enum OpponentTally {
  /// Against each opponent's public key, from the side that has `myKey`; games without it are not counted.
  public static func byOpponentKey(_ records: [GameRecord], myKey: String) -> [String: Tally] {
    var tallies: [String: Tally] = [:]
    for record in records {
      for me in Mark.allCases where record.player(me).publicKey == myKey {
        guard let key = record.player(me.opponent).publicKey, key != myKey else { continue }
        tallies[key, default: Tally()].count(record.result, me: me)
      }
    }
    return tallies
  }

  /// Against the computer, by its level, from the other side.
  public static func byComputerLevel(_ records: [GameRecord]) -> [String: Tally] {
    var tallies: [String: Tally] = [:]
    for record in records {
      for computer in Mark.allCases {
        guard let level = record.player(computer).level, record.player(computer.opponent).level == nil else {
          continue
        }
        tallies[level, default: Tally()].count(record.result, me: computer.opponent)
      }
    }
    return tallies
  }
}

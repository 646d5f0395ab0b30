import GameRecords
import PeerTrust
import Security
import UntrustedText

/// The player's record against each opponent and against the computer at each level, counted from the saved
/// games each time it is shown (docs/RECORDS.md), through an index that holds only what each file said while it
/// has the same size and modification time: there is no second store that could disagree with them.
public struct OpponentRecords {
  /// By the opponent's fingerprint.
  public let byFingerprint: [Fingerprint: Tally]
  /// By the computer's level.
  public let byLevel: [String: Tally]

  public init(summaries: [RecordSummary], myKey: String?) {
    var byFingerprint: [Fingerprint: Tally] = [:]
    if let myKey {
      for (key, tally) in OpponentTally.byOpponentKey(summaries, myKey: myKey) {
        guard let fingerprint = Fingerprint(publicKeyBase64: key) else { continue }
        byFingerprint[fingerprint, default: Tally()].add(tally)
      }
    }
    self.byFingerprint = byFingerprint
    byLevel = OpponentTally.byComputerLevel(summaries)
  }

  /// The saved games of `profile`'s player, judged by its own key (when it has made one).
  public static func load(_ profile: Profile) -> OpponentRecords {
    let summaries = TallyIndexFile.summaries(GameLibrary.directory(profile.paths))
    let myKey = (try? IdentityStore(directory: profile.identityDirectory).load())??.publicKeyBase64
    return OpponentRecords(summaries: summaries, myKey: myKey)
  }

  /// `you and alice: 5–3, 2 drawn`, when there is a game against that key.
  public func greeting(_ fingerprint: Fingerprint, name: String) -> String? {
    byFingerprint[fingerprint].map { "you and \(name): \($0)" }
  }

  /// `against the computer: easy 2–0, perfect 0–3, 1 drawn`, when there are such games.
  public var computerLine: String? {
    guard !byLevel.isEmpty else { return nil }
    let order = ["easy", "normal", "perfect"]
    let levels = byLevel.keys.sorted { (order.firstIndex(of: $0) ?? 9, $0) < (order.firstIndex(of: $1) ?? 9, $1) }
    return "against the computer: "
      + levels.map { "\(VisibleText.escaping($0)) \(byLevel[$0] ?? Tally())" }.joined(separator: "; ")
  }
}

extension Tally {
  public mutating func add(_ other: Tally) {
    wins += other.wins
    losses += other.losses
    draws += other.draws
  }
}

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
    self.init(summaries: summaries, mine: OwnKeys(current: myKey))
  }

  /// Counted from the side of `mine`: the player's key in use and the ones it replaced.
  public init(summaries: [RecordSummary], mine: OwnKeys) {
    var byFingerprint: [Fingerprint: Tally] = [:]
    for (key, tally) in OpponentTally.byOpponentKey(summaries, myKeys: Set(mine.all)) {
      guard let fingerprint = Fingerprint(publicKeyBase64: key) else { continue }
      byFingerprint[fingerprint, default: Tally()].add(tally)
    }
    self.byFingerprint = byFingerprint
    byLevel = OpponentTally.byComputerLevel(summaries)
  }

  /// The saved games of `profile`'s player, judged by its own keys (when it has made one): the one in use and the
  /// ones `identity new` or `import` replaced.
  public static func load(_ profile: Profile) -> OpponentRecords {
    let summaries = TallyIndexFile.summaries(GameLibrary.directory(profile.paths))
    return OpponentRecords(summaries: summaries, mine: IdentityStore(directory: profile.identityDirectory).ownKeys())
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

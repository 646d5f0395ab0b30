import PeerTrust
import Session

/// The journal of the game in progress against each opponent (PROTOCOL.md rule 19), as the match asks its shell
/// to keep it: after each step of the game's session the journal is written again when it changed, and removed
/// once the game is over (its record was asked for first, and the shell does the two in order). Pure: the shell
/// writes the files (`MatchCommand.keepJournal`, `.endJournal`).
public struct MatchJournal {
  /// This side's public key (base64 DER), as the records write it.
  public let myKey: String
  /// What was last asked to be kept, by the opponent's key.
  public private(set) var kept: [Fingerprint: GameJournal] = [:]
  /// The games the shell found in this player's journals when it reached an opponent, by the opponent's key: what
  /// a game offered after a restart is checked against.
  public var found: [Fingerprint: KeptGame] = [:]

  public init(myKey: String) { self.myKey = myKey }

  /// The command that brings the journal against `peer` up to date with `session`, if anything changed.
  public mutating func after(_ session: NetSession, peer: Fingerprint, peerKey: String) -> MatchCommand? {
    let journal = GameJournal(of: session, myKey: myKey, peerKey: peerKey)
    if session.configuration.role == .host, found[peer] != nil, journal != nil || session.lastResult != nil {
      // A restarted host's journal read from disk has served (rule 19): the game taken up is kept afresh from
      // now on; a game not taken up has ended (its record asked for first), and its journal goes.
      found[peer] = nil
      if journal == nil {
        kept[peer] = nil
        return .endJournal(peer: peer)
      }
    }
    guard journal != kept[peer] else { return nil }
    kept[peer] = journal
    return journal.map { .keepJournal($0, peer: peer) } ?? .endJournal(peer: peer)
  }

  /// The game against `peer` ended without its session saying so (a host that let the game go): its journal is
  /// removed.
  public mutating func ended(peer: Fingerprint) -> MatchCommand? {
    guard kept.removeValue(forKey: peer) != nil else { return nil }
    return .endJournal(peer: peer)
  }
}

/// The games the practice bot keeps for joiners whose connection went away mid-game (PROTOCOL.md rule 19), by the
/// joiner's key: a joiner that comes back with that key within the grace period is offered its game; otherwise the
/// grace period's end claims it, lost by the joiner (+F). Held in memory (the bot writes no journal), at most
/// `limit` at once. Pure: the host ticks it and reports what ends.
package struct BotKeptGames {
  /// The most games kept at once. Past it a game whose joiner goes away is not kept: it is logged unfinished, as
  /// before rule 19 (its joiner, back, finds no game and begins a new one). A kept game costs the bot its seat:
  /// about 8.5 KB of resident memory for 30 moves on 15×15 (`BotKeptGameTests`; the connection and its TLS are
  /// freed), so 1,000 of them about 8.5 MB.
  static let limit = 1_000

  /// One game kept: the seat that played it (its connection gone), and who played it, for the records.
  struct Kept {
    var seat: BotSeat
    let peer: BotGameRecord.Peer
    /// The joiner's public key (base64 DER), for the records.
    let peerKey: String?
  }

  private(set) var byKey: [String: Kept] = [:]

  var count: Int { byKey.count }

  subscript(key: String) -> Kept? { byKey[key] }

  /// Keeps `kept` for the joiner `key` (in place of an older one of that key); false when `limit` games are kept.
  @discardableResult
  mutating func keep(_ kept: Kept, key: String) -> Bool {
    guard byKey[key] != nil || byKey.count < Self.limit else { return false }
    byKey[key] = kept
    return true
  }

  /// The game of `key` is no longer kept: its joiner came back and was offered it (or the bot stops).
  @discardableResult
  mutating func remove(_ key: String) -> Kept? { byKey.removeValue(forKey: key) }

  /// The games whose grace period is over at `now`, ended: each with what its seat did (the claim, its record).
  /// They are no longer kept.
  mutating func expire(now: Double) -> [(Kept, BotReaction)] {
    var ended: [(Kept, BotReaction)] = []
    for (key, kept) in byKey {
      guard let deadline = kept.seat.session.graceDeadline, now >= deadline else { continue }
      var seat = kept.seat
      let reaction = seat.tickKept(now: now)
      guard reaction.end != nil || seat.session.isClosed else {
        byKey[key]?.seat = seat
        continue
      }
      byKey[key] = nil
      ended.append((Kept(seat: seat, peer: kept.peer, peerKey: kept.peerKey), reaction))
    }
    return ended
  }
}

/// Protocol versions: what this build speaks and how two peers settle on one.
public enum ProtocolVersion {
  /// Versions this build speaks, newest first.
  /// 4 added rule variants and openings to the host's terms (PROTOCOL.md, "Version 4: rule variants and
  /// openings"): a host whose terms carry them refuses an older joiner (version mismatch, naming them);
  /// otherwise 4 plays as 3. It also added watching (PROTOCOL.md, "Version 4: watching"): a spectator's hello,
  /// the host's word that its game may be watched (terms field 8), the spectators' messages and the count the
  /// joiner is told.
  /// 3 added the game flow (PROTOCOL.md rules 14 to 18): clocks, draw offers, takebacks, abort, the flag claim
  /// and the dead-position draw. With a version-2 peer a game is untimed and has none of them.
  /// 2 added `coin kept` (a joiner that left a game and came back within the grace period keeps its first
  /// player). Version 1 is no longer offered nor accepted: in it the coin is tossed again after such a return,
  /// so a joiner offering only 1 could leave and come back until it played first. A peer that speaks only 1
  /// gets the version mismatch refusal, which names the versions each side speaks.
  public static let supported: [UInt16] = [4, 3, 2]
  /// The ALPN protocol name offered and accepted in the TLS handshake.
  public static let alpn = "tictactoe/1"

  /// The newest version both sides speak, or nil when they share none.
  public static func choose(ours: [UInt16] = supported, theirs: [UInt16]) -> UInt16? {
    Set(ours).intersection(theirs).max()
  }

  /// "1" or "1-3" or "1, 3": a version list for people.
  public static func describe(_ versions: [UInt16]) -> String {
    let sorted = Array(Set(versions)).sorted()
    guard let first = sorted.first, let last = sorted.last else { return "none" }
    if sorted.count == Int(last - first) + 1 { return first == last ? "\(first)" : "\(first)-\(last)" }
    return sorted.map(String.init).joined(separator: ", ")
  }
}

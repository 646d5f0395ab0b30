/// The sentences both front ends say about a networked match's connection, in the same words: the full
/// screen puts them in its chat pane as notes, plain mode prints them as lines.
enum MatchWords {
  /// The game's connection dropped; the game is kept `seconds` more.
  static func dropped(isHost: Bool, peer: String, seconds: Int) -> String {
    isHost
      ? "The connection dropped. The game is kept \(seconds) s for \(peer) to reconnect."
      : "The connection dropped. Reconnecting; the game is kept \(seconds) s."
  }

  /// The grace period is over; `claim` says how to claim the game ("press w", "type claim").
  static func graceExpired(peer: String, claim: String) -> String {
    "\(peer) did not come back in time: \(claim) to claim the game, or keep waiting."
  }

  /// The peer chats faster than any person types: what is not shown, and until when.
  static func chatsDropped(peer: String) -> String {
    "\(peer) is sending chat faster than anyone types: its lines are not shown until it slows down."
  }

  /// The dropped game is taken up again; `ply` moves were played.
  static func resumed(game: Int, ply: Int) -> String {
    "Reconnected: game \(game) goes on at move \(ply + 1)."
  }
}

import GameCore
import Session
import WireProtocol

/// The sentences both front ends say about a networked match's connection, in the same words: the full
/// screen puts them in its chat pane as notes, plain mode prints them as lines.
public enum MatchWords {
  /// The game's connection dropped; the game is kept `seconds` more.
  public static func dropped(isHost: Bool, peer: String, seconds: Int) -> String {
    isHost
      ? "The connection dropped. The game is kept \(seconds) s for \(peer) to reconnect."
      : "The connection dropped. Reconnecting; the game is kept \(seconds) s."
  }

  /// The grace period is over; `claim` says how to claim the game ("press w", "type claim").
  public static func graceExpired(peer: String, claim: String) -> String {
    "\(peer) did not come back in time: \(claim) to claim the game, or keep waiting."
  }

  /// The peer chats faster than any person types: what is not shown, and until when.
  public static func chatsDropped(peer: String) -> String {
    "\(peer) is sending chat faster than anyone types: its lines are not shown until it slows down."
  }

  /// The host's terms put to a joiner's player: "alice offers 15×15, 5 in a row, with a clock: 5 min + 3 s a
  /// move. Play on these terms?"; a rule other than freestyle is named and explained on a line of its own.
  public static func terms(_ terms: HostTerms, host: String) -> [String] {
    // A hello without rules (a later host's, or a hostile one's) names none: the welcome's are played.
    let game = terms.rules.map { "\($0)" } ?? "a game"
    let clock = terms.timeControl.isTimed ? "with a clock: \(terms.timeControl.spoken)" : "untimed"
    // A rule other than freestyle is said in words too (version 4): what it forbids or does not count.
    let rule = terms.rules.flatMap { $0.variant == .freestyle ? nil : $0.variant.summary + "." }
    let swap2 = terms.opening == .swap2
    // An opening is said in words too (version 4): who places, who chooses.
    let opening =
      swap2
      ? [
        "Swap2 opening: the first player (the coin's X) places 3 stones; the other takes X, takes O, or places 2"
          + " more and lets the first choose."
      ] : []
    return ["\(host) offers \(game)\(swap2 ? " with the Swap2 opening" : ""), \(clock)."] + (rule.map { [$0] } ?? [])
      + opening + ["Play on these terms?"]
  }

  /// At the first game with a peer that speaks protocol version 2: what this match lacks (nil with version 3).
  public static func olderPeer(_ session: NetSession, peer: String) -> String? {
    guard !session.hasGameFlow, session.version != nil else { return nil }
    let offered =
      session.configuration.role == .host ? session.configuration.timeControl : session.hostTerms?.timeControl
    let clock = offered?.isTimed == true ? " and no clock (\(offered.map { "\($0)" } ?? "") was offered)" : ""
    return "\(peer)'s program speaks protocol version \(session.version ?? 0): no draw offers, takebacks or abort"
      + "\(clock) in this match."
  }

  /// How the player answers, on the full screen (keys) or in plain mode (commands).
  public enum Answers {
    case fullScreen, plain

    public var acceptDraw: String { self == .fullScreen ? "press D to accept" : "type draw to accept" }
    public var acceptTakeback: String { self == .fullScreen ? "press u to accept" : "type takeback to accept" }
    public var decline: String { self == .fullScreen ? "x to decline" : "decline to refuse" }
  }

  /// An offer, a request, an answer or a claim of the game's flow, in one line.
  public static func gameFlow(_ event: GameFlowEvent, peer: String, keys: Answers) -> String {
    switch event {
    case .drawOffered: return "\(peer) offers a draw: \(keys.acceptDraw), \(keys.decline)."
    case .drawDeclined: return "\(peer) declined your draw offer."
    case .takebackRequested:
      return "\(peer) asks to take back their last move: \(keys.acceptTakeback), \(keys.decline)."
    case .takebackDeclined: return "\(peer) declined your takeback request."
    case .tookBack(let ply): return "Taken back: the game goes on from move \(ply + 1)."
    case .flagClaimed: return "\(peer)'s time ran out: you claimed the win on time."
    case .keptGameOffered(let ply):
      return "\(peer) kept this game from before your program restarted, at move \(ply + 1) (shown): take it up?"
        + " Declining counts as a loss."
    case .keptGameLost(_, let reason, let wentAway):
      let side = wentAway == .host ? "the host, whose program restarted" : "the joiner"
      return "The game kept from before the restart was not taken up (\(reason)): it counts as lost by \(side)."
    }
  }

  /// What this player's own game-flow action did, in one line (the peer is told by the protocol).
  public static func gameFlowSent(draw: Bool, accepted: Bool) -> String {
    switch (draw, accepted) {
    case (true, false): return "You offer a draw."
    case (false, false): return "You ask to take back your last move."
    case (true, true): return "You accept the draw."
    case (false, true): return "You accept the takeback."
    }
  }

  /// The dropped game is taken up again; `ply` moves were played.
  public static func resumed(game: Int, ply: Int) -> String {
    "Reconnected: game \(game) goes on at move \(ply + 1)."
  }
}

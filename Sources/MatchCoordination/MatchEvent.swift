import PeerTrust
import Session
import UntrustedText

/// What a networked match tells its front end.
public enum MatchEvent: Sendable, Equatable {
  case status(String)
  /// How a reconnection goes (an attempt begun, an attempt failed and when the next is): one line a screen keeps
  /// up to date in place, rather than two more lines a retry.
  case reconnecting(String)
  case ask(TrustQuestion)
  /// Joiner: the host's terms (a timed game), put to the player before the joiner says hello: `answer(accept:)`.
  case askTerms([String])
  /// The words both players compare aloud for this connection (see `VerificationCode`).
  case verification(VerificationCode)
  case session(SessionOutput)
  case finished(MatchEnd)
  /// Host that keeps hosting: the match with this opponent is over (why), and the next one may join; the
  /// host's welcome (`HostMatch.welcome`) follows.
  case opponentGone(MatchEnd)
  /// The record against this opponent from the saved games (`you and alice: 5–3, 2 drawn`): a line to keep in
  /// view, not a passing status.
  case opponentRecord(String)
  /// How many spectators watch the game now (PROTOCOL.md, "Version 4: watching").
  case spectators(Int)
  /// Spectator: what it was told of the game it watches.
  case watched(WatchUpdate)
  /// Spectator: what another spectator said (the players never see it); both are the host's words, untrusted.
  case spectatorChat(name: PeerText, text: PeerText)
  /// Spectator that asked for no game: the host's list of its games (the practice bot's); the spectator leaves.
  case watchList(WatchGameList)
}

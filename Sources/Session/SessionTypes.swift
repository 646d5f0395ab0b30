import ExplainedErrors
import GameCore
import UntrustedText
import WireProtocol

/// Which end of the connection this session is.
public enum Role: Sendable, Equatable {
  /// Listens, chooses the rules, accepts or refuses the joiner, commits first in the coin toss.
  case host
  /// Connects to a host.
  case joiner
}

/// How one game of a match ended.
public enum GameResult: Sendable, Equatable {
  case line(winner: Mark)
  case draw
  case resigned(loser: Mark)
  /// The loser's connection dropped and it did not come back within the grace period; the winner claimed it.
  case abandoned(loser: Mark)
  /// Version 3 (PROTOCOL.md rules 15 to 18): drawn by agreement; drawn because no line of k can still be
  /// completed; void (aborted before each side moved: no score); lost on time (the loser's clock agreed with
  /// the claim); disputed (the mover's own clock contradicted `claimant`'s flag claim by more than A: no score).
  case drawAgreed
  case deadPosition
  case aborted
  case lostOnTime(loser: Mark)
  case disputed(claimant: Mark)

  public var winner: Mark? {
    switch self {
    case .line(let winner): return winner
    case .draw, .drawAgreed, .deadPosition, .aborted, .disputed: return nil
    case .resigned(let loser), .abandoned(let loser), .lostOnTime(let loser): return loser.opponent
    }
  }

  /// Whether the game counts in the score (an aborted or disputed one does not).
  public var isScored: Bool {
    switch self {
    case .aborted, .disputed: return false
    default: return true
    }
  }
}

/// What happened in a game's flow that the player is told (PROTOCOL.md rules 15 and 16).
public enum GameFlowEvent: Sendable, Equatable {
  /// The peer offers a draw: `offerDraw()` accepts, `declineDraw()` declines.
  case drawOffered
  /// The peer declined this player's draw offer.
  case drawDeclined
  /// The peer asks to take back to `ply`: `answerTakeback(accept:)`.
  case takebackRequested(ply: Int)
  /// The peer declined this player's takeback request (or the two requests crossed and cancelled).
  case takebackDeclined
  /// The board went back to `ply` (a takeback accepted, by either side).
  case tookBack(ply: Int)
  /// This side claimed the win on time; the game ends with the mover's answer.
  case flagClaimed
  /// Joiner: the host offers a game kept through a restart (PROTOCOL.md rule 19), `ply` moves in (the game shown is
  /// that position), and this side has no journal of it: `answerKeptGame(accept:)`.
  case keptGameOffered(ply: Int)
  /// A game kept through a restart (PROTOCOL.md rule 19) was not taken up: the returning side had no journal, or
  /// its journal holds another game (`reason`, the returning side's words). The game is lost by `loser`, the side
  /// that went away (`wentAway`: the joiner, or a restarted host).
  case keptGameLost(loser: Mark, reason: PeerText, wentAway: Role)
}

/// Why a session ended. Each case is a distinct cause the player is told about (and a distinct exit status
/// on the command line).
public enum SessionEnd: Error, Sendable, Equatable, CustomStringConvertible {
  /// This player quit.
  case localQuit
  /// The peer said goodbye.
  case peerQuit(PeerText)
  /// Nothing arrived from the peer for too long (killed, frozen, or the network dropped it).
  case peerVanished(seconds: Int)
  /// The connection closed without a goodbye (the program crashed, or the network dropped it).
  case connectionLost
  /// After a drop the host answered as if new: it no longer holds the game (claimed, ended, or restarted).
  case gameNoLongerHeld
  /// Host: a connection's first message asked to resume a game this host does not hold (its program restarted
  /// since, or the game ended). Not a violation: the joiner's program did what it should, and the hello it was
  /// greeted with tells it the game is gone (PROTOCOL.md rule 11). The connection ends.
  case resumeWithoutGame
  /// The connection dropped mid-match and the peer did not come back within the grace period; `claimed` when
  /// this player then claimed the game in progress.
  case peerDidNotReturn(seconds: Int, claimed: Bool)
  /// The host turned us away.
  case refused(RefusalReason, PeerText)
  /// The two programs share no protocol version.
  /// `needs`: what in this host's terms needs a version the joiner does not speak (version 4: "the renju rule").
  case versionMismatch(ours: [UInt16], theirs: [UInt16], needs: String? = nil)
  /// The peer broke the protocol; we told it why and closed.
  case protocolViolation(String)
  /// The peer said we broke the protocol.
  case peerReportedError(PeerText)
  /// The host's coin-toss secret did not match its commitment.
  case coinTossCheated
  /// Joiner: this player declined the host's terms (PROTOCOL.md, "The terms").
  case termsDeclined
  /// Host: the joiner's player declined this host's terms.
  case peerDeclinedTerms

  /// The same ending without the words the peer chose (its goodbye, refusal or error text): what is shown
  /// of a peer that has not been let in, whose words must not appear beside the question about its key.
  public var withoutPeerText: SessionEnd {
    switch self {
    case .peerQuit: return .peerQuit("")
    case .refused(let reason, _): return .refused(reason, "")
    case .peerReportedError: return .peerReportedError("its text is not shown: it was not let in")
    default: return self
    }
  }

  public var description: String {
    switch self {
    case .localQuit: return "You left the game."
    case .peerQuit(let text): return text.isEmpty ? "Your opponent left the game." : "Your opponent left: \(text)"
    case .peerVanished(let seconds):
      return "Your opponent vanished: nothing arrived for \(seconds) seconds (the program or the network stopped)."
    case .connectionLost: return "The connection to your opponent closed without a goodbye."
    case .resumeWithoutGame:
      return "A player came back to resume a game this host no longer has (its program restarted, or the game"
        + " ended); that connection was closed."
    case .gameNoLongerHeld:
      return "The host no longer has the game: it was claimed or ended, or the host restarted."
    case .peerDidNotReturn(let seconds, let claimed):
      return claimed
        ? "You claimed the game: your opponent did not come back within \(seconds) seconds."
        : "Your opponent did not come back within \(seconds) seconds of the connection dropping."
    case .refused(.busy, let text):
      // Its words say why (in a game, a limit, a bot's engine at its cap) and when to try again.
      return text.isEmpty ? "The host is busy with another game. Try again later." : "The host is busy: \(text)"
    case .refused(.declined, _): return "The host declined to play with you."
    case .refused(.untrusted, let text): return "The host does not trust your key: \(text)"
    case .refused(_, let text): return "The host refused: \(text)"
    case .versionMismatch(let ours, let theirs, let needs?):
      return "Protocol version mismatch: your terms (\(needs)) need protocol version 4, and the joiner's program"
        + " speaks \(ProtocolVersion.describe(theirs)) (this one \(ProtocolVersion.describe(ours))). It needs to"
        + " update tictactoe to play them."
    case .versionMismatch(let ours, let theirs, nil):
      return
        "Protocol version mismatch: this program speaks \(ProtocolVersion.describe(ours)), the other speaks "
        + "\(ProtocolVersion.describe(theirs)). One of you needs to update tictactoe."
    case .protocolViolation(let text): return "Your opponent's program broke the rules of the protocol: \(text)."
    case .peerReportedError(let text): return "Your opponent's program reported an error: \(text)."
    case .coinTossCheated: return "The host's coin toss did not match its commitment: the host cheated or is broken."
    case .termsDeclined: return "You declined the host's terms."
    case .peerDeclinedTerms: return "Your opponent declined your terms."
    }
  }
}

/// What the session asks of its driver and tells its UI.
public enum SessionOutput: Sendable, Equatable {
  /// Send this message to the peer.
  case send(Message)
  /// The peer introduced itself. On the host, answer with `accept()` or `decline()`.
  case peerHello(name: PeerText, software: PeerText)
  /// A new game began; `myMark` is this player's mark (X moves first).
  case gameStarted(number: Int, myMark: Mark)
  /// The peer played `position` (a stone of a Swap2 opening too).
  case peerMoved(Position)
  /// The peer made a choice of the Swap2 opening.
  case peerChose(Swap2.Choice)
  /// The Swap2 opening settled the colours: this player plays `myMark` from now on.
  case coloursSettled(myMark: Mark)
  case chat(PeerText)
  /// The peer chats faster than any person types: its lines are not shown until it slows down (said once a
  /// burst).
  case chatsDropped
  /// The peer offers a rematch; `acceptRematch()` starts it.
  case rematchOffered
  case gameEnded(GameResult)
  /// The session is over: flush what was sent and close the connection.
  case closed(SessionEnd)
  /// The connection dropped mid-match (or went silent): close it without a goodbye. The game is kept until
  /// `until` (seconds on the session's clock); the joiner reconnects and calls `requestResume`.
  case connectionLost(until: Double)
  /// The grace period is over and the peer has not come back: the player may `claim()` the game.
  case graceExpired
  /// Both sides confirmed they hold the same game after a reconnection; play goes on.
  case resumed(game: Int, ply: Int)
  /// Version 3: an offer, a request, an answer or a claim (`GameFlowEvent`).
  case gameFlow(GameFlowEvent)
}

/// Why chat, a resignation, a rematch, a claim, a draw offer, a takeback or an abort of this player's cannot be done
/// now. Every front end says it in these words.
public enum ActionRefusal: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// The session is over.
  case matchOver
  /// The other side has not been let in (or said hello) yet.
  case notStarted
  /// A new connection is confirming the game; this waits the moment that takes.
  case reconnecting
  /// While the connection is down only this many chat messages are kept to send on resume.
  case chatHeldWhileDisconnected(limit: Int)
  /// `waiting` chat lines typed faster than they go out (`perSecond`) still wait to be sent.
  case chatTooFast(waiting: Int, perSecond: Double)
  /// No game is in progress (to resign).
  case noGameInProgress
  /// A game is in progress (a rematch comes after it).
  case gameInProgress
  /// This player already offered a rematch.
  case rematchAlreadyOffered
  /// Only a game whose opponent did not come back within the grace period can be claimed.
  case nothingToClaim
  /// Version 3's game flow (draws, takebacks, abort) with a peer that speaks version 2.
  case notInThisVersion
  /// This player offered a draw, or asked for a takeback, and has not moved since (or it still stands).
  case drawAlreadyOffered
  case takebackAlreadyAsked
  /// There is no offer or request of the peer's to answer.
  case nothingToAnswer
  /// This player has no move of its own to take back.
  case nothingToTakeBack
  /// The peer's takeback request waits for this player's answer first.
  case answerTakebackFirst
  /// Both sides have moved: the game can no longer be aborted.
  case tooLateToAbort
  /// Draws, takebacks and aborts wait until the Swap2 opening has settled the colours.
  case duringOpening

  /// A stable name, "session.failure".
  public var code: String {
    switch self {
    case .matchOver: return "session.match-over"
    case .notStarted: return "session.not-started"
    case .reconnecting: return "session.reconnecting"
    case .chatHeldWhileDisconnected: return "session.chat-held"
    case .chatTooFast: return "session.chat-too-fast"
    case .noGameInProgress: return "session.no-game"
    case .gameInProgress: return "session.game-in-progress"
    case .rematchAlreadyOffered: return "session.rematch-offered"
    case .nothingToClaim: return "session.nothing-to-claim"
    case .notInThisVersion: return "session.not-in-this-version"
    case .drawAlreadyOffered: return "session.draw-offered"
    case .takebackAlreadyAsked: return "session.takeback-asked"
    case .nothingToAnswer: return "session.nothing-to-answer"
    case .nothingToTakeBack: return "session.nothing-to-take-back"
    case .answerTakebackFirst: return "session.answer-takeback-first"
    case .tooLateToAbort: return "session.too-late-to-abort"
    case .duringOpening: return "session.during-opening"
    }
  }

  /// What stands in the way.
  public var reason: String {
    switch self {
    case .matchOver: return "the match is over"
    case .notStarted: return "the match has not started yet"
    case .reconnecting: return "the connection is being restored"
    case .chatHeldWhileDisconnected(let limit):
      return "the connection is down: only \(limit) messages are kept to send when it is back"
    case .chatTooFast(let waiting, _):
      return "you are typing faster than chat goes out: \(waiting) lines are still waiting"
    case .noGameInProgress: return "no game is in progress"
    case .gameInProgress: return "the game is still going"
    case .rematchAlreadyOffered: return "you already offered a rematch"
    case .nothingToClaim: return "there is nothing to claim"
    case .notInThisVersion: return "your opponent's program does not support this (it speaks protocol version 2)"
    case .drawAlreadyOffered: return "you already offered a draw since your last move"
    case .takebackAlreadyAsked: return "you already asked for a takeback since your last move"
    case .nothingToAnswer: return "there is no offer to answer"
    case .nothingToTakeBack: return "you have no move to take back"
    case .answerTakebackFirst: return "your opponent asked for a takeback"
    case .tooLateToAbort: return "both sides have moved: the game can no longer be aborted"
    case .duringOpening: return "the Swap2 opening is still being played"
    }
  }

  /// What the player can do; nil where waiting is all there is.
  public var hint: String? {
    switch self {
    case .matchOver, .noGameInProgress, .chatHeldWhileDisconnected: return nil
    case .notStarted: return "wait until the other side is let in"
    case .chatTooFast(_, let perSecond):
      let pace = perSecond.rounded() == perSecond ? "\(Int(perSecond))" : "\(perSecond)"
      return "they go out at \(pace) a second; send this one again in a moment"
    case .reconnecting: return "try again in a moment"
    case .gameInProgress: return "finish it or resign first"
    case .rematchAlreadyOffered: return "waiting for the answer"
    case .nothingToClaim: return "the game can be claimed once the grace period is over"
    case .notInThisVersion: return "ask your opponent to update tictactoe"
    case .drawAlreadyOffered, .takebackAlreadyAsked: return "wait for the answer, or make a move first"
    case .nothingToAnswer, .nothingToTakeBack: return nil
    case .answerTakebackFirst: return "accept or decline it first"
    case .tooLateToAbort: return "resign or offer a draw instead"
    case .duringOpening: return "they come once the colours are chosen; resign to give up"
    }
  }

  public var description: String { hint.map { "\(reason); \($0)" } ?? reason }
}

/// Why a move of this player's was not played.
public enum PlayError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// The move breaks the rules (or no game is in progress).
  case illegal(MoveError)
  /// A new connection is confirming the game; moves wait the moment it takes.
  case reconnecting
  /// This player asked for a takeback: it moves once the answer has come.
  case awaitingTakebackAnswer
  /// This player's time ran out (its opponent will claim the game).
  case outOfTime
  /// The Swap2 opening refused this player's stone or choice (out of turn, a choice while a stone is due...).
  case opening(Swap2Error)
  /// No choice of a Swap2 opening is due in this game now.
  case noOpeningChoice

  /// A stable name: the move error's, or "session.reconnecting".
  public var code: String {
    switch self {
    case .illegal(let error): return error.code
    case .reconnecting: return "session.reconnecting"
    case .awaitingTakebackAnswer: return "session.awaiting-takeback-answer"
    case .outOfTime: return "session.out-of-time"
    case .opening(let error): return error.code
    case .noOpeningChoice: return "session.no-opening-choice"
    }
  }

  public var reason: String {
    switch self {
    case .illegal(let error): return error.reason
    case .reconnecting: return "the connection is being restored"
    case .awaitingTakebackAnswer: return "you asked for a takeback"
    case .outOfTime: return "your time has run out"
    case .opening(let error): return error.reason
    case .noOpeningChoice: return "there is no Swap2 choice to make now"
    }
  }

  public var hint: String? {
    switch self {
    case .illegal(let error): return error.hint
    case .reconnecting: return "try again in a moment"
    case .awaitingTakebackAnswer: return "wait for your opponent's answer"
    case .outOfTime, .noOpeningChoice: return nil
    case .opening(let error): return error.hint
    }
  }

  public var description: String {
    switch self {
    case .illegal(let error): return error.description
    default: return hint.map { "\(reason); \($0)" } ?? reason
    }
  }
}

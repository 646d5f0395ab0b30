import PeerTrust
import Session

/// What a front end shows of a networked match, handed to it with every batch of events the match reports: the
/// session as it stands after them, who the opponent is and where it connected from, the questions waiting for
/// the player. A value: the front end renders it whole (`NetworkPresenter`, the plain driver's words) and reads
/// no state back out of the match.
public struct MatchView: Sendable {
  /// The session of the game on screen (nil before a hello, and between a host's opponents).
  public var session: NetSession?
  /// The opponent's key (nil before TLS).
  public var peerFingerprint: Fingerprint?
  /// Where the opponent's connection came from, as the shell wrote it (an address and port).
  public var peerAddress: String?
  /// The trust question waiting for the player's answer.
  public var question: TrustQuestion?
  /// A yes-or-no question waits: the host's terms, or whether to take up a kept game (rule 19).
  public var asksYesOrNo: Bool
  /// The match is over, and why.
  public var finished: MatchEnd?
  /// Host behind a relay: a new invite may be made (`n` on the full screen).
  public var mayMakeNewInvite: Bool

  public init(
    session: NetSession? = nil, peerFingerprint: Fingerprint? = nil, peerAddress: String? = nil,
    question: TrustQuestion? = nil, asksYesOrNo: Bool = false, finished: MatchEnd? = nil, mayMakeNewInvite: Bool = false
  ) {
    self.session = session
    self.peerFingerprint = peerFingerprint
    self.peerAddress = peerAddress
    self.question = question
    self.asksYesOrNo = asksYesOrNo
    self.finished = finished
    self.mayMakeNewInvite = mayMakeNewInvite
  }

  /// The opponent offers a draw now.
  public var drawOfferedByPeer: Bool { session?.drawOfferedByPeer == true }
  /// The opponent asks to take a move back now.
  public var takebackRequestedByPeer: Bool { session?.takebackRequestedByPeer != nil }
  /// While a dropped connection may still come back: until when.
  public var graceDeadline: Double? { session?.graceDeadline }
}

extension MatchRole {
  /// The view of the match as this side stands now (the shell adds what only it knows: `mayMakeNewInvite`).
  public var view: MatchView {
    MatchView(
      session: session, peerFingerprint: activeConnection?.facts?.certificate?.fingerprint,
      peerAddress: activeConnection?.peer, question: question,
      asksYesOrNo: termsAsked != nil || keptAsked, finished: finished)
  }
}

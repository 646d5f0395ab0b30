import WireProtocol

/// The counted messages of a match (all but heartbeats, `deciding`, the resume messages and record signatures) and what a
/// resume after a drop needs of them: how many each side sent and received, the last ones sent to send again,
/// and where the resume exchange stands. After a drop each side sends again exactly what the other has not
/// received, so nothing is applied twice. Pure.
struct ResumeLedger: Sendable {
  /// Counted messages sent and received in the whole match.
  private(set) var sent: UInt32 = 0
  private(set) var received: UInt32 = 0
  /// The last counted messages sent; `resendable.first` is message number `sent - resendable.count`.
  private var resendable: [Message] = []
  /// How many sent messages are kept to send again.
  let limit: Int
  /// While resuming: how many counted messages the peer had sent when it asked to resume.
  private(set) var peerSentAtResume: UInt32?
  /// This side's resume request (or the host's answer to one) went out.
  var resumeSent = false
  /// This side said which game it holds.
  var checkSent = false

  init(limit: Int) { self.limit = limit }

  /// Heartbeats, the resume messages and record signatures are not counted (nor sent again).
  static func isCounted(_ message: Message) -> Bool {
    switch message {
    case .heartbeat, .deciding, .resume, .resumeCheck, .recordSignature: return false
    default: return true
    }
  }

  /// `message` is going out: a counted one is numbered and kept to send again.
  mutating func sending(_ message: Message) {
    guard Self.isCounted(message) else { return }
    sent &+= 1
    guard limit > 0 else { return }
    resendable.append(message)
    if resendable.count > limit { resendable.removeFirst(resendable.count - limit) }
  }

  /// A counted message arrived. During a resume, once everything the peer had sent before has arrived, a new
  /// one must wait for the resume to be confirmed: the reason, when this one is too early.
  mutating func receiving(_ message: Message, endsTheSession: Bool) -> String? {
    guard Self.isCounted(message) else { return nil }
    if let peerSent = peerSentAtResume, received >= peerSent, !endsTheSession {
      return "a new \(message.name) before the resume was confirmed"
    }
    received &+= 1
    return nil
  }

  /// The peer's resume request (or answer): it has `peerReceived` of our messages and sent `peerSent`. The
  /// messages to send again, or why the counts cannot be right.
  mutating func peerResumes(received peerReceived: UInt32, sent peerSent: UInt32) -> Result<[Message], ResumeMismatch> {
    let oldest = sent - UInt32(resendable.count)
    guard peerReceived <= sent else {
      return .failure(.init("a resume claiming \(peerReceived) messages received when \(sent) were sent"))
    }
    guard peerReceived >= oldest else {
      return .failure(
        .init("a resume that needs message \(peerReceived) again, but only the last \(resendable.count) were kept"))
    }
    guard peerSent >= received else {
      return .failure(.init("a resume claiming \(peerSent) messages sent when \(received) already arrived"))
    }
    guard peerSent - received <= UInt32(limit) else {
      return .failure(.init("a resume announcing \(peerSent - received) messages to send again (at most \(limit))"))
    }
    peerSentAtResume = peerSent
    return .success(Array(resendable[Int(peerReceived - oldest)...]))
  }

  /// Everything the peer sent before the drop has arrived (and this side has not said which game it holds).
  var caughtUp: Bool {
    guard !checkSent, let peerSent = peerSentAtResume else { return false }
    return received == peerSent
  }

  /// The peer's messages sent again are arriving (a resume is under way).
  var isReplaying: Bool { peerSentAtResume != nil }

  /// The resume is over (confirmed, or the connection dropped again): the next one starts afresh.
  mutating func resumeOver() {
    peerSentAtResume = nil
    resumeSent = false
    checkSent = false
  }
}

/// Why a peer's resume counts cannot be right: a protocol violation, in these words.
struct ResumeMismatch: Error, Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}

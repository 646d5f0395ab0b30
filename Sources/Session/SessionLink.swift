import WireProtocol

/// The connection under a match, as the session keeps it: when something last went out and came in (a
/// heartbeat is due, the peer has been silent too long), a drop and the grace period after it, and the resume
/// exchange on a new connection over the ledger's counts. The session says what happened and does what this
/// says is due; the game is none of its business. Pure.
@usableFromInline struct SessionLink: Sendable {
  /// What the session tick has to do.
  enum Due: Sendable, Equatable {
    /// The connection has been down for the grace period (said once).
    case graceOver
    /// A resume exchange did not finish within the silence limit.
    case resumeTooSlow
    /// Nothing arrived from the peer within the silence limit.
    case peerSilent
    /// This side has been quiet for the heartbeat interval.
    case heartbeat
  }

  private let heartbeatInterval: Double
  private let silenceLimit: Double
  private let gracePeriod: Double
  private(set) var state = NetSession.Link.up
  /// The connection has been down longer than the grace period.
  private(set) var graceExpired = false
  /// The counted messages and the resume exchange.
  var ledger: ResumeLedger
  private var lastReceived: Double
  private var lastSent: Double
  /// When the current resume exchange began (it must finish within the silence limit).
  private var resumeStartedAt = 0.0
  /// The last heartbeats: more than `heartbeatBurst` within a second is a flood, not liveness.
  private var heartbeats = RateWindow(limit: NetSession.heartbeatBurst, seconds: 1)
  /// Chats this player typed while the connection was down.
  private var chatsWhileLost = 0

  init(_ configuration: NetSession.Configuration, now: Double) {
    heartbeatInterval = configuration.heartbeatInterval
    silenceLimit = configuration.silenceLimit
    gracePeriod = configuration.gracePeriod
    ledger = ResumeLedger(limit: configuration.resendLimit)
    lastReceived = now
    lastSent = now
  }

  var isLost: Bool {
    if case .lost = state { return true }
    return false
  }

  @usableFromInline var isResuming: Bool {
    if case .resuming = state { return true }
    return false
  }

  /// When the grace period ends (or ended), while the connection is down.
  var graceDeadline: Double? {
    switch state {
    case .up: return nil
    case .lost(let since), .resuming(let since): return since + gracePeriod
    }
  }

  /// Something went out at `now`.
  mutating func sent(_ now: Double) { lastSent = now }

  /// Something arrived at `now`.
  mutating func received(_ now: Double) { lastReceived = now }

  /// `message` arrived at `now`: it is counted. The reason, when it came too early during a resume (a goodbye
  /// or an error report may come at any moment, a resume included).
  mutating func arrived(_ message: Message, _ now: Double) -> String? {
    received(now)
    let endsTheSession: Bool
    switch message {
    case .bye, .error: endsTheSession = true
    default: endsTheSession = false
    }
    return ledger.receiving(message, endsTheSession: endsTheSession)
  }

  /// A heartbeat arrived at `now`: whether it is within the flood limit.
  mutating func heartbeatArrived(_ now: Double) -> Bool { heartbeats.allows(now) }

  /// What is due at `now`, if anything. While the connection is down only the end of the grace period is.
  mutating func due(_ now: Double) -> Due? {
    if isLost {
      guard !graceExpired, let deadline = graceDeadline, now >= deadline else { return nil }
      graceExpired = true
      return .graceOver
    }
    // The same sums as `nextDeadline`: a tick at that deadline always finds what is due (`now - last >= limit`
    // can round below the limit there, and a loop woken at the deadline would find nothing and wake again).
    if isResuming && resumeStartedAt + silenceLimit <= now { return .resumeTooSlow }
    if lastReceived + silenceLimit <= now { return .peerSilent }
    if lastSent + heartbeatInterval <= now { return .heartbeat }
    return nil
  }

  /// The next time something is due.
  var nextDeadline: Double? {
    if isLost { return graceExpired ? nil : graceDeadline }
    let deadline = min(lastSent + heartbeatInterval, lastReceived + silenceLimit)
    return isResuming ? min(deadline, resumeStartedAt + silenceLimit) : deadline
  }

  /// A chat this player typed: while the connection is down at most `limit` are kept to send on resume (the
  /// peer takes them as one burst). Whether this one may go.
  mutating func chatTyped(limit: Int) -> Bool {
    guard isLost else { return true }
    guard chatsWhileLost < limit else { return false }
    chatsWhileLost += 1
    return true
  }

  /// The connection dropped, or a resume on a new one failed (the clock of the first drop goes on). What to
  /// report.
  mutating func drop(_ now: Double) -> [SessionOutput] {
    let since: Double
    if case .resuming(let started) = state { since = started } else { since = now }
    state = .lost(since: since)
    ledger.resumeOver()
    // A resume that failed after the grace period: the game may still be claimed.
    return [.connectionLost(until: since + gracePeriod)] + (graceExpired ? [.graceExpired] : [])
  }

  /// Joiner: a new connection is secured. The request to resume, holding `held` (nil unless the connection is
  /// down).
  mutating func requestResume(_ now: Double, holding held: HeldGame) -> Message? {
    guard isLost else { return nil }
    beginResume(now)
    ledger.resumeSent = true
    return resumeMessage(held)
  }

  /// Host: the peer came back on a new connection. The old one may still look alive, or be half-way through an
  /// earlier resume: it is dropped (what to report) and the resume starts over on the new one.
  mutating func peerReconnected(_ now: Double) -> [SessionOutput] {
    let outputs = isLost ? [] : drop(now)
    beginResume(now)
    return outputs
  }

  /// The peer's resume request (or answer), this side holding `held`: what to send (the host's answer with its
  /// own counts first, then what the peer missed), or why it cannot be right.
  mutating func peerResumes(received: UInt32, sent: UInt32, holding held: HeldGame) -> Result<
    [Message], ResumeMismatch
  > {
    guard isResuming, !ledger.isReplaying else { return .failure(.init("a resume request when none was expected")) }
    let again: [Message]
    switch ledger.peerResumes(received: received, sent: sent) {
    case .success(let messages): again = messages
    case .failure(let mismatch): return .failure(mismatch)
    }
    guard !ledger.resumeSent else { return .success(again) }
    ledger.resumeSent = true
    return .success([resumeMessage(held)] + again)
  }

  /// Everything the peer sent before the drop has arrived: time to say which game this side holds.
  var caughtUp: Bool { isResuming && ledger.caughtUp }

  /// Which game this side holds, to send once caught up.
  mutating func check(holding held: HeldGame) -> Message {
    ledger.checkSent = true
    return .resumeCheck(game: held.game, ply: held.ply, digest: held.digest)
  }

  /// The peer says which game it holds (`theirs`), this side holding `held`: the resume is confirmed (what to
  /// report) when they are the same, else why not.
  mutating func peerChecks(_ theirs: HeldGame, holding held: HeldGame) -> Result<SessionOutput, ResumeMismatch> {
    guard isResuming, ledger.checkSent else { return .failure(.init("a resume check when none was expected")) }
    guard held == theirs else {
      let otherMoves = held.game == theirs.game && held.ply == theirs.ply ? " with other moves" : ""
      return .failure(
        .init(
          "the resumed games differ: you hold game \(theirs.game) at ply \(theirs.ply), this side game \(held.game) "
            + "at ply \(held.ply)\(otherMoves)"))
    }
    state = .up
    graceExpired = false
    chatsWhileLost = 0
    ledger.resumeOver()
    return .success(.resumed(game: Int(theirs.game), ply: Int(theirs.ply)))
  }

  /// From the lost connection to a resume exchange on a new one (the grace period's clock goes on).
  private mutating func beginResume(_ now: Double) {
    guard case .lost(let since) = state else { return }
    state = .resuming(since: since)
    lastReceived = now
    resumeStartedAt = now
  }

  private func resumeMessage(_ held: HeldGame) -> Message {
    .resume(received: ledger.received, sent: ledger.sent, game: held.game, ply: held.ply, digest: held.digest)
  }
}

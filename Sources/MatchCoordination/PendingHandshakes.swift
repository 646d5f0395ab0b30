/// How a host (`HostCoordinator`, by `PendingHandshakes.host`, and the bot's `BotDoor`, by `.bot`) keeps
/// connections that are setting up TLS or have not said hello yet ("pending") in check, so a burst of real
/// joiners is served, a flood of silent connections cannot crowd them out, and a joiner whose player is deciding
/// about the host's key is not raced by a machine's deadline.
///
/// Below `cap` pending connections, a new one is accepted. At the cap the host stops accepting for a moment
/// (the next joiners wait in the kernel's listen queue, in order) unless the oldest pending connection has
/// waited longer than `patience`, which a real joiner's handshake never needs (a few round trips): that one is
/// dropped to make room. Dropping the oldest at once instead let a flood push out a real joiner before its
/// handshake was done (issue 25, item 6).
///
/// A pending connection must finish TLS within `handshakeTimeout` of being accepted and say hello by
/// `helloDeadline`: `hello` after it was accepted or after TLS, or, for a joiner that says its player is
/// deciding (`deciding`, PROTOCOL.md rule 13), until `decidingSilence` after it last said so and at most
/// `decidingLimit` after TLS.
public struct PendingHandshakes: Equatable, Sendable {
  /// What to do about the next waiting connection.
  public enum Decision: Equatable {
    case accept
    /// Close the oldest pending connection, then accept.
    case dropOldestThenAccept
    /// Leave it in the listen queue until a pending connection finishes or grows old.
    case wait
  }

  /// From when the time to say hello counts.
  public enum HelloWait: Equatable, Sendable {
    /// Seconds after the connection was accepted (the bot: a machine has no reason to wait).
    case sinceAccepted(Double)
    /// Seconds after TLS (an ordinary host: an older joiner's player may be reading the question about our key).
    case sinceSecured(Double)
  }

  /// Seconds a connection has to finish TLS after it was accepted.
  public static let handshakeTimeout = 10.0
  /// A joiner that says its player is deciding says hello within this many seconds of TLS: time to read a key
  /// aloud over the phone, twice the minute an ordinary host gives any joiner.
  public static let decidingLimit = 120.0
  /// ... and says it again at least this often (its own program sends it every `decidingInterval`), or it is
  /// taken for gone: the silence limit of a match.
  public static let decidingSilence = 10.0
  /// How often a joiner says again that its player is deciding.
  public static let decidingInterval = 3.0

  /// At most this many connections are pending at once.
  public var cap = 256
  /// Seconds after which a pending connection may be dropped to make room.
  public var patience = 3.0
  /// The time to say hello when the joiner does not say its player is deciding.
  public var hello = HelloWait.sinceAccepted(10)

  /// The bot's: 256 pending, a hello within 10 s of the accept.
  public static let bot = PendingHandshakes()
  /// An ordinary host's: 256 pending (as many as the bot, so a flood's connections queued ahead of a real
  /// joiner are passed in one turn of `patience`), a hello within 60 s of TLS (sshd's LoginGraceTime).
  public static let host = PendingHandshakes(cap: 256, patience: 3, hello: .sinceSecured(60))

  /// Seconds after which a pending connection that has sent nothing at all may be dropped to make room: a real
  /// joiner sends its TLS hello as soon as it is connected, so a flood of silent connections is passed quickly.
  public var quietPatience = 1.0

  /// When a pending connection accepted at `accepted` may make room (`quiet`: it has sent nothing yet).
  public func makesRoom(accepted: Double, quiet: Bool) -> Double {
    accepted + (quiet ? quietPatience : patience)
  }

  /// The decision with `pending` connections setting up TLS, the oldest of them accepted at `oldest`.
  public func decide(pending: Int, oldest: Double?, now: Double) -> Decision {
    guard pending >= cap else { return .accept }
    guard let oldest, now - oldest > patience else { return .wait }
    return .dropOldestThenAccept
  }

  /// When a wait at the cap ends: the oldest pending connection, accepted at `oldest`, may make room then.
  public func reopens(pending: Int, oldest: Double?) -> Double? {
    guard pending >= cap, let oldest else { return nil }
    return oldest + patience
  }

  /// When a connection accepted at `accepted`, secured at `secured` (nil: still in TLS), whose joiner last said
  /// its player is deciding at `deciding` (nil: never), is given up if it has not said hello.
  public func helloDeadline(accepted: Double, secured: Double?, deciding: Double?) -> Double {
    guard let secured else { return accepted + PendingHandshakes.handshakeTimeout }
    let plain: Double
    switch hello {
    case .sinceAccepted(let seconds): plain = accepted + seconds
    case .sinceSecured(let seconds): plain = secured + seconds
    }
    guard let deciding else { return plain }
    let decided = min(deciding + PendingHandshakes.decidingSilence, secured + PendingHandshakes.decidingLimit)
    return max(plain, decided)
  }
}

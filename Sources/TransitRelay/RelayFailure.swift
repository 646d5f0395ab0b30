import UntrustedText

/// Why a connection through a transit relay was not glued to the other player, in words a player understands.
/// The relay's own address goes in by `reason(relay:)`, so each failure names the relay it happened at.
public enum RelayFailure: Error, Sendable, Equatable {
  /// Nothing listens on the relay's port (the connection was refused).
  case refused
  /// The relay could not be reached: no route, no answer, a name that does not resolve.
  case unreachable(reason: String)
  /// The relay closed the connection before it answered `ok`.
  case closed
  /// The relay answered something other than `ok` (its words, which may be anything: shown escaped).
  case answered(PeerText)
  /// The relay kept the connection waiting, but nobody came with the same token in time.
  case nobodyCame(seconds: Int)
  /// The relay glued this joiner to another joiner, not to the host (two joiners came while the host's wait was
  /// taken): TLS found two clients.
  case pairedWithJoiner

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .refused: "relay.refused"
    case .unreachable: "relay.unreachable"
    case .closed: "relay.closed"
    case .answered: "relay.answered-other"
    case .nobodyCame: "relay.nobody-came"
    case .pairedWithJoiner: "relay.paired-with-joiner"
    }
  }

  /// What happened at `relay` ("relay.example:4001").
  public func reason(relay: String) -> String {
    switch self {
    case .refused: "The relay \(relay) refused the connection: no relay is running on that port."
    case .unreachable(let reason): "Cannot reach the relay \(relay): \(reason)."
    case .closed: "The relay \(relay) closed the connection before it paired us with the other player."
    case .answered(let words):
      "The relay \(relay) answered \"\(words)\" instead of ok: it is not a transit relay, or it refused the request."
    case .nobodyCame(let seconds): "Nobody came to the relay \(relay) with this game's token within \(seconds) s."
    case .pairedWithJoiner:
      "The relay \(relay) paired us with another joiner instead of the host (both came while the host's place"
        + " there was taken), again and again."
    }
  }

  /// What the player can do about it.
  public var hint: String {
    switch self {
    case .refused, .answered: "Check the relay's address and port, or ask whoever runs it whether it is up."
    case .unreachable: "Check this machine's network connection and the relay's address."
    case .closed: "Try again; if it keeps happening, the relay may be overloaded or restarting."
    case .nobodyCame: "The host may have stopped hosting or made a new invite: ask for the invite again."
    case .pairedWithJoiner: "Someone else is joining with the same invite: try again in a minute."
    }
  }
}

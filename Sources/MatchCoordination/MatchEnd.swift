import ExplainedErrors
import NetworkFacts
import PeerTrust
import Session
import UntrustedText

/// Why a networked match ended, as the player is told and the command line reports it.
public enum MatchEnd: Error, Sendable, Equatable, CustomStringConvertible {
  /// A warning about the other side's key: worth repeating after the screen closes.
  public var isTrustWarning: Bool {
    switch self {
    case .network(.tls(.untrusted)), .impostor, .keyChangedOnReconnect: return true
    default: return false
    }
  }

  case network(NetworkError)
  case session(SessionEnd)
  /// The player did not trust the host's key: nothing was sent to it.
  case declinedByPlayer
  /// The match could not be set up (a bad address or invite, an identity or known peers that cannot be used).
  case setup(SetupFailure)
  /// LAN discovery cannot work here (no avahi-daemon, no D-Bus): why.
  case discoveryUnavailable(ExplainedFailure)
  /// Discovery works, but no game announced as `name` answered in time; `seen` are the games that did.
  case lanGameNotFound(name: PeerText, seconds: Int, seen: [PeerText])
  /// The host's key is not the one its LAN advertisement announced.
  case impostor(advertised: Fingerprint, presented: Fingerprint)
  /// The host came back after a drop with another key than the one the game was played with.
  case keyChangedOnReconnect(before: Fingerprint, now: Fingerprint)

  public var description: String {
    switch self {
    case .network(let error): return error.description
    case .session(let end): return end.description
    case .declinedByPlayer: return "You did not trust the host's key, so nothing was sent to it."
    case .setup(let failure): return failure.description
    case .discoveryUnavailable(let failure): return failure.description
    case .lanGameNotFound(let name, let seconds, let seen):
      return "No game called \"\(name)\" answered on the local network within \(seconds) s"
        + (seen.isEmpty ? "." : "; found: \(seen.map(\.description).joined(separator: ", ")).")
    case .impostor(let advertised, let presented):
      return
        "The advertisement and the host disagree: the game was announced with key \(advertised) but the host "
        + "presented \(presented). Someone may be impersonating the host; nothing was sent to it."
    case .keyChangedOnReconnect(let before, let now):
      return
        "The host came back with another key: the game was played with \(before), the new connection presented "
        + "\(now). Someone may be impersonating the host; the game was not resumed."
    }
  }
}

extension MatchEnd {
  /// Whether a joiner whose match ended so is offered `r` to join the same host again: not after leaving itself,
  /// nor after a warning about the host's key (KEY CHANGED, an impostor: joining again meets the same key and
  /// can only fail the same way), nor when the match could not be set up (the same address or invite fails
  /// again).
  public var canJoinAgain: Bool {
    if isTrustWarning { return false }
    switch self {
    case .session(.localQuit), .setup: return false
    default: return true
    }
  }

  /// The description as a sentence, ending with a full stop.
  public var sentence: String {
    let text = description
    return text.hasSuffix(".") || text.hasSuffix("?") || text.hasSuffix("!") ? text : text + "."
  }
}

/// Why a match could not be set up, in the shape of every module's errors: a code, what happened, what to do.
public struct SetupFailure: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  public let code: String
  public let reason: String
  public let hint: String?

  public init(code: String, reason: String, hint: String?) {
    self.code = code
    self.reason = reason
    self.hint = hint
  }

  /// A module's error, with its own code, reason and hint.
  public init(_ error: any Error) {
    if let explained = error as? any ExplainedError {
      self.init(code: explained.code, reason: explained.reason, hint: explained.hint)
    } else {
      self.init(code: "app.setup", reason: "\(error)", hint: nil)
    }
  }

  /// What the player typed in the join field is neither an address nor an invite.
  public static func notAnAddress(_ typed: String) -> SetupFailure {
    if let problem = Endpoint.numericProblem(typed) {
      return SetupFailure(
        code: "address.hidden", reason: VisibleText.escaping(problem), hint: "Type the address as it is meant.")
    }
    return SetupFailure(
      code: "address.invalid", reason: "\"\(VisibleText.escaping(typed))\" is not an address or an invite",
      hint: "Type HOST, HOST:PORT or [IPv6]:PORT, or paste the host's invite.")
  }

  /// The reason as a sentence, then the hint: "copied whole? Ask ...", never "copied whole?. Ask ...".
  public var description: String {
    guard let hint else { return reason }
    let ended = reason.hasSuffix(".") || reason.hasSuffix("?") || reason.hasSuffix("!")
    return reason + (ended ? " " : ". ") + hint
  }
}

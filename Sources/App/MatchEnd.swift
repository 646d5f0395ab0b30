import Security
import Session
import Transport
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
  case declinedByPlayer(String)
  case setup(String)
  /// LAN discovery cannot work here (no avahi-daemon, no D-Bus): why.
  case discoveryUnavailable(String)
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
    case .declinedByPlayer(let text): return text
    case .setup(let text): return text
    case .discoveryUnavailable(let text): return text
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
  /// The description as a sentence, ending with a full stop.
  var sentence: String {
    let text = description
    return text.hasSuffix(".") || text.hasSuffix("?") || text.hasSuffix("!") ? text : text + "."
  }
}

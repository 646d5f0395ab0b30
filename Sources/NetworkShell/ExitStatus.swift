import MatchCoordination
import NetworkFacts
import Security
import Session
import TransitRelay
import Transport

/// The documented exit statuses: one per class of failure, so scripts can tell them apart.
public enum ExitStatus {
  public static let ok: Int32 = 0
  public static let failure: Int32 = 1
  public static let usage: Int32 = 64
  public static let badFile: Int32 = 65

  public static let connectionRefused: Int32 = 10
  public static let timedOut: Int32 = 11
  public static let hostNotFound: Int32 = 12
  public static let unreachable: Int32 = 13
  public static let notATictactoePeer: Int32 = 14
  public static let versionMismatch: Int32 = 15
  public static let pinMismatch: Int32 = 20
  public static let keyChanged: Int32 = 21
  public static let certificateDates: Int32 = 22
  public static let nameMismatch: Int32 = 23
  public static let unknownAuthority: Int32 = 24
  public static let refusedByPeer: Int32 = 25
  public static let declinedByPlayer: Int32 = 26
  public static let hostRefused: Int32 = 27
  public static let impostor: Int32 = 28
  public static let discoveryUnavailable: Int32 = 69
  public static let lanGameNotFound: Int32 = 29
  public static let peerQuit: Int32 = 30
  public static let peerVanished: Int32 = 31
  public static let protocolViolation: Int32 = 32
  public static let relayUnreachable: Int32 = 40
  public static let relayClosed: Int32 = 41
  public static let relayNobodyCame: Int32 = 42
  public static let relayPairedWithJoiner: Int32 = 43

  /// The table for the README and the man page: status, meaning.
  public static let table: [(Int32, String)] = [
    (0, "the match ended because you quit"), (1, "another error"), (64, "usage error"),
    (65, "a file (settings, identity, known peers) is corrupt or unreadable"),
    (10, "connection refused"), (11, "timed out (connecting or setting up TLS)"), (12, "host not found"),
    (13, "network unreachable or another socket error"), (14, "not a tictactoe peer"),
    (15, "protocol or TLS version mismatch"), (20, "pinned key mismatch"), (21, "the peer's key changed"),
    (22, "certificate expired or not yet valid"), (23, "certificate name mismatch"),
    (24, "unknown certificate authority"), (25, "the peer refused our certificate or required one"),
    (26, "you declined the peer's key"), (27, "the host refused (busy or declined)"),
    (28, "the host's key differs from its LAN advertisement"),
    (29, "no LAN game of that name answered (join --lan)"), (69, "LAN discovery is unavailable (list, join --lan)"),
    (30, "the opponent quit"), (31, "the opponent vanished, or did not come back after a drop"),
    (32, "the opponent broke the protocol"),
    (40, "the relay cannot be reached (refused, no route, name not found)"),
    (41, "the relay closed the connection, or answered something other than ok"),
    (42, "nobody came to the relay with the invite's token in time"),
    (43, "the relay paired us with another joiner again and again"),
  ]

  public static func code(for end: MatchEnd) -> Int32 {
    switch end {
    case .network(let error): return code(for: error)
    case .session(let end): return code(for: end)
    case .declinedByPlayer: return declinedByPlayer
    case .setup: return failure
    case .discoveryUnavailable: return discoveryUnavailable
    case .lanGameNotFound: return lanGameNotFound
    case .impostor: return impostor
    case .keyChangedOnReconnect: return keyChanged
    }
  }

  static func code(for error: NetworkError) -> Int32 {
    switch error {
    case .connectionRefused: return connectionRefused
    case .timedOut, .handshakeTimedOut: return timedOut
    case .hostNotFound: return hostNotFound
    case .unreachable, .socket, .cannotListen: return unreachable
    case .relay(_, let failure): return code(for: failure)
    case .closedDuringHandshake, .proxyHeader: return notATictactoePeer
    case .tls(let tls): return code(for: tls)
    }
  }

  static func code(for failure: RelayFailure) -> Int32 {
    switch failure {
    case .refused, .unreachable: return relayUnreachable
    case .closed, .answered: return relayClosed
    case .nobodyCame: return relayNobodyCame
    case .pairedWithJoiner: return relayPairedWithJoiner
    }
  }

  static func code(for error: TLSError) -> Int32 {
    switch error {
    case .notTLS, .noCommonApplicationProtocol: return notATictactoePeer
    case .protocolVersion: return versionMismatch
    case .certificateRequired, .certificateRefusedByPeer: return refusedByPeer
    case .untrusted(let failure):
      switch failure {
      case .pinMismatch: return pinMismatch
      case .keyChanged: return keyChanged
      case .expired, .notYetValid: return certificateDates
      case .nameMismatch: return nameMismatch
      case .unknownAuthority, .untrustedChain, .noCertificate: return unknownAuthority
      case .knownPeersUnusable: return badFile
      }
    case .closedByPeer, .unexpectedEOF: return peerVanished
    case .handshakeFailed, .internalError: return notATictactoePeer
    }
  }

  static func code(for end: SessionEnd) -> Int32 {
    switch end {
    case .localQuit: return ok
    case .peerQuit: return peerQuit
    case .peerVanished, .connectionLost, .gameNoLongerHeld, .resumeWithoutGame: return peerVanished
    case .peerDidNotReturn(_, let claimed): return claimed ? ok : peerVanished
    case .refused: return hostRefused
    case .versionMismatch: return versionMismatch
    case .protocolViolation, .peerReportedError, .coinTossCheated: return protocolViolation
    case .termsDeclined: return ok
    case .peerDeclinedTerms: return peerQuit
    }
  }
}

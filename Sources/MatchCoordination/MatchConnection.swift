import GameRecords
import NetworkFacts
import PeerTrust
import Session
import WireProtocol

/// A connection of a networked match, as the coordinator knows it: a number the shell maps to its socket.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  public let value: Int
  public var description: String { "#\(value)" }
}

/// One connection of a match and where it is in its life. The phases follow each other in this order; a
/// connection may close from any of them.
public struct MatchConnection {
  public enum Phase: Sendable, Equatable {
    /// Joiner: the TCP connection is being set up (TLS starts once it is writable).
    case connecting
    /// Connected to a transit relay, waiting for its `ok` (the other player came with the same token): the
    /// host's wait has no deadline; a joiner's ends at `deadline` (nobody came).
    case atRelay
    /// TLS is being set up (until `deadline`).
    case handshaking
    /// Host: the key of the game kept after a drop connected; its first message says whether it resumes the
    /// game or says hello afresh (until `deadline`).
    case awaitingResume
    /// Secured and greeted: waiting for the peer's hello (the host: until `deadline`, `helloTimeout` after
    /// TLS, as sshd's LoginGraceTime).
    case greeting
    /// The player is being asked whether to trust the peer's key.
    case asking
    /// Let in (host) or trusted (joiner): the match is on.
    case playing
    /// Host: a spectator watching the game (`Spectators`), with no session of its own.
    case watching
    /// Closed: nothing more is read or sent. The game's connection stays known while its game is kept.
    case closed
  }

  public let peer: String
  public var phase: Phase
  /// When the connection is given up if it is still connecting, handshaking, awaiting resume or (host)
  /// greeting.
  public var deadline: Double?
  public var session: NetSession?
  public var facts: PeerFacts?
  /// Joiner: a new connection to the host to resume the game.
  public var isReconnect = false
  /// The transit relay this connection goes through (nil: a direct connection).
  public var relay: Endpoint?
  /// Joiner with a relay in its invite: secured, but its hello waits until the host's hello arrives on it, so
  /// the host hears from the joiner only on the connection that won the race between the direct addresses and
  /// the relay.
  public var held = false
  /// When the connection began waiting at the relay (for naming how long nobody came).
  public var relayWaitSince: Double?
  /// Joiner: the numeric address the TCP connection reached (where reconnections go once it is trusted).
  public var remote: Endpoint?
  /// Host: counted against its source address's limits until it closes.
  public var counted = false
  /// Host: when the connection was accepted and secured, and when its joiner last said that its player is
  /// deciding about our key (PROTOCOL.md rule 13): what `PendingHandshakes` sets the time to say hello by.
  public var acceptedAt = 0.0
  /// Nothing has arrived on it yet (not even the start of TLS), so it may make room sooner: the host's pending
  /// cap reads it; on a joiner's connections it is kept all the same and read by nobody.
  public var quiet = true
  public var securedAt: Double?
  public var decidingAt: Double?
  /// Let in (host) or taken up for a resumed game: stays true once the connection closes, so its end is told
  /// with the peer's words.
  public var admitted = false

  public var isClosed: Bool { phase == .closed }

  /// Why a connection to a relay is given up at its deadline: no answer to the connect, or (connected)
  /// nobody came with the token.
  public func relayLate(now: Double) -> NetworkError {
    let relay = self.relay ?? Endpoint(host: peer, port: 0)
    guard phase == .atRelay, let since = relayWaitSince else {
      return .relay(relay, .unreachable(reason: "no answer within \(Int(MatchCore.handshakeTimeout)) s"))
    }
    return .relay(relay, .nobodyCame(seconds: Int((now - since).rounded())))
  }
  /// Connected but not yet past hello, and not waiting for the player: what the cap on pending connections
  /// counts, and what makes room when it is reached. A connection on its way to a relay is not: until the relay
  /// glues it, nobody is on its other end.
  public var isPending: Bool {
    phase == .connecting ? relay == nil : [.handshaking, .awaitingResume, .greeting].contains(phase)
  }
}

/// What the coordinator asks its shell to do, in order.
public enum MatchCommand {
  /// Joiner: start a non-blocking connection to `address` (for `endpoint`); a failure is reported back with
  /// the side's `failed` (`MatchRole`).
  case connect(ConnectionID, ResolvedAddress, for: Endpoint)
  /// Joiner: as `connect`, to the numeric address where the host was reached (a reconnection: the shell reads
  /// it without a lookup), for the host as typed (the name TLS checks, and the peer shown).
  case reconnect(ConnectionID, to: Endpoint, for: Endpoint)
  /// Connect to a transit relay and wait there with the route's token (`RelayPrelude`); TLS starts once the relay
  /// glued the connection to the other player's, in this side's role (the host is the TLS server). A joiner's
  /// wait lasts `patience` seconds (nil: the host's, as long as the relay keeps it).
  case connectRelay(ConnectionID, RelayRoute, patience: Double?)
  case send(ConnectionID, Message)
  /// Close the connection: gracefully (what is queued, then close_notify) or at once.
  case close(ConnectionID, graceful: Bool)
  /// Remember a peer's key in known_peers (with the address the joiner typed, if any).
  case remember(name: String, key: Fingerprint, address: String?)
  /// Bind a known key to another address the joiner typed.
  case bind(Fingerprint, address: String)
  /// Host: the state the LAN advertisement shows, and how many watch (nil: the game may not be watched, or none
  /// is played), in one update of the TXT record: every DNS-SD client on the LAN wakes for each.
  case advertise(AdvertisedState, watchers: Int?)
  /// Host: how many watch the game being played, for the LAN advertisement's `watch=N` (nil: the game may not be
  /// watched). The shell paces the changes it publishes.
  case advertiseWatchers(Int?)
  /// The match is over: withdraw the LAN advertisement.
  case stopAdvertising
  case log(String)
  /// Tell the front end.
  case report(MatchEvent)
  /// Write a game's record to this match's record file `file` (replacing what was written there before).
  case keepRecord(GameRecord, file: Int)
  /// Look up the record against the opponent with this key, called `name`, in the saved games, and tell the
  /// front end (`MatchEvent.opponentRecord`) when there is one.
  case lookUpRecord(against: Fingerprint, name: String)
  /// Keep the journal of the game in progress against `peer` (PROTOCOL.md rule 19), replacing the one before.
  case keepJournal(GameJournal, peer: Fingerprint)
  /// The game against `peer` is over: remove its journal, after the writes asked for before.
  case endJournal(peer: Fingerprint)
}

/// What the coordinator is given besides its connections (so tests can give their own): chance, a hash and its
/// name for itself. No file: the known peers come in as a value (`MatchCore.knownPeers`), and records are
/// written and looked up by the shell (`MatchCommand.keepRecord`, `.lookUpRecord`).
public struct MatchEnvironment {
  /// A fresh coin for a new session.
  public var coin: () -> [UInt8]
  public var sha256: @Sendable ([UInt8]) -> [UInt8]
  /// The software this side says it is in its hello.
  public var software: String

  public init(coin: @escaping () -> [UInt8], sha256: @escaping @Sendable ([UInt8]) -> [UInt8], software: String) {
    self.coin = coin
    self.sha256 = sha256
    self.software = software
  }

  /// A random coin and the hash given: for a coordinator in a test.
  public static func inMemory(sha256: @escaping @Sendable ([UInt8]) -> [UInt8]) -> MatchEnvironment {
    MatchEnvironment(
      coin: { (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255) } }, sha256: sha256, software: "test")
  }
}

/// What a host's LAN advertisement says of its game: waiting for a joiner, or being played.
public enum AdvertisedState: Sendable, Equatable {
  case waiting
  case playing
}

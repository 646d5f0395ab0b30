import Synchronization

/// Known peers that a holder changes while TLS contexts judge with them: trust on first use then reads them as
/// they are at each handshake, so a bot that lets new players in adds each without making its context again
/// (which copied 100,000 players for every new one, and kept a copy alive for every connection still on an
/// older context).
public final class SharedKnownPeers: Sendable, Equatable {
  private let state: Mutex<KnownPeers>

  public init(_ peers: KnownPeers) {
    state = Mutex(peers)
  }

  /// The peers as they are now.
  public var peers: KnownPeers { state.withLock { $0 } }

  /// Changes the peers in place.
  public func update<Result>(_ change: (inout KnownPeers) -> Result) -> Result {
    state.withLock { change(&$0) }
  }

  public static func == (left: SharedKnownPeers, right: SharedKnownPeers) -> Bool { left === right }
}

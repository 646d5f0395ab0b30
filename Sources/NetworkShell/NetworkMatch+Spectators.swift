import MatchCoordination
import WireProtocol

/// A match's spectators as the shell sees them (PROTOCOL.md, "Version 4: watching"): the host's policy, a joiner
/// that watches instead of playing, and each spectator's outbox measured after a send, so that one that does not
/// read is dropped (`HostCoordinator.backlog`) instead of growing the host or slowing the players.
extension NetworkMatch {
  /// Host: who may watch its games (the setting `spectators`); nil: its terms do not say, and nobody may.
  public var spectatorPolicy: SpectatorPolicy? {
    get { host?.core.configuration.spectators }
    set { withHost { $0.core.configuration.spectators = newValue } }
  }

  /// Host: how many moves late its spectators see a game (`--watch-delay`); 0: live.
  public var watchDelay: Int {
    get { host?.core.configuration.watchDelay ?? 0 }
    set { withHost { $0.core.configuration.watchDelay = newValue } }
  }

  /// Joiner: this side watches the host's game instead of playing (its hello says so).
  public var watches: Bool {
    get { joiner?.isWatching ?? false }
    set { withJoiner { $0.core.configuration.watch = newValue ? 0 : nil } }
  }

  /// Spectator: which game its hello asks for (0: the host's one game, or the list of a host of several).
  public var watchedGame: UInt16 {
    get { joiner?.core.configuration.watch ?? 0 }
    set { withJoiner { $0.core.configuration.watch = newValue } }
  }

  /// Sends `message` on `id`; what is still queued for a spectator afterwards is its outbox.
  func send(_ message: Message, on id: ConnectionID) -> [MatchEvent] {
    sockets.send(message, on: id)
    guard let host, host.spectators.contains(id), let queued = sockets[id]?.queuedBytes else { return [] }
    guard let commands = withHost({ $0.backlog(id, queuedBytes: queued, now: clock()) }), !commands.isEmpty else {
      return []
    }
    return perform(commands)
  }
}

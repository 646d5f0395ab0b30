import MatchCoordination
import WireProtocol

// A match's spectators as the shell sees them (PROTOCOL.md, "Version 4: watching"): the host's policy and watch
// delay (here), a joiner that watches instead of playing (here), and each spectator's outbox measured after a
// send (the shared extension below), so that one that does not read is dropped (`HostCoordinator.backlog`)
// instead of growing the host or slowing the players.

/// The host's say over its spectators: who may watch, and how late.
extension NetworkMatch where Side == HostCoordinator {
  /// Who may watch its games (the setting `spectators`); nil: its terms do not say, and nobody may.
  package var spectatorPolicy: SpectatorPolicy? {
    get { coordinator.core.configuration.spectators }
    set { coordinator.core.configuration.spectators = newValue }
  }

  /// How many moves late its spectators see a game (`--watch-delay`); 0: live.
  package var watchDelay: Int {
    get { coordinator.core.configuration.watchDelay }
    set { coordinator.core.configuration.watchDelay = newValue }
  }
}

extension NetworkMatch where Side == JoinerCoordinator {
  /// This side watches the host's game instead of playing (its hello says so).
  package var watches: Bool {
    get { coordinator.isWatching }
    set { coordinator.core.configuration.watch = newValue ? 0 : nil }
  }

  /// Which game its hello asks for (0: the host's one game, or the list of a host of several).
  package var watchedGame: UInt16 {
    get { coordinator.core.configuration.watch ?? 0 }
    set { coordinator.core.configuration.watch = newValue }
  }

  /// The game it watches, as the host last told it (nil: none yet, or it plays).
  package var watched: WatchedGame? { coordinator.watched }
}

extension NetworkMatch {
  /// Sends `message` on `id`; what is still queued for a spectator afterwards is its outbox.
  func send(_ message: Message, on id: ConnectionID) -> [MatchEvent] {
    sockets.send(message, on: id)
    let commands = coordinator.sent(on: id, queuedBytes: { sockets[id]?.queuedBytes }, now: clock())
    return commands.isEmpty ? [] : perform(commands)
  }
}

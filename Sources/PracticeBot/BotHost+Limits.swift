import Glibc
import MatchCoordination
import Transport

/// How much the practice bot takes on at once and how often it looks at its connections: the pending cap and
/// hello deadline, a joiner's outbox, the sweep, an AI move's share of the loop, and what one round accepts and
/// handshakes.
extension BotHost {
  /// The pending connections' cap and the time a joiner has to finish the TLS handshake and say hello (as
  /// sshd's LoginGraceTime: 10 s, longer for a joiner whose player is deciding): until then it counts among the
  /// pending connections. The same policy as an ordinary host's (`HostCoordinator.pending`).
  static let pending = PendingHandshakes.bot
  /// A joiner that leaves more than this queued (it does not read) is cut off: its outbox would grow the bot.
  static let outboxLimit = 256 * 1024
  /// How often heartbeats, silences and handshake deadlines are checked, instead of computing the nearest
  /// deadline on every wake-up: every 100 ms a tenth of the connections, so each is looked at once a second
  /// (heartbeats are due every 3 s and the silence limit is 10 s) and a thousand games that fall quiet
  /// together send their heartbeats in ten small batches rather than one 25 ms stall (measured).
  static let sweepInterval = 0.1
  static let sweepSlices = 10
  /// The most an AI move searches on boards too big to solve exactly (the interactive game thinks 250 ms). The
  /// search runs on a worker thread (`BotMoves`), so it holds up no other game's loop, but every game's search
  /// shares the machine's cores. Boards of up to 16 cells are solved exactly, on the loop, and each position
  /// only once (`MoveBook`).
  static let moveBudget: Duration = .milliseconds(10)
  /// Connections the kernel queues for accepting (a burst of joiners waits there rather than being refused).
  static let listenBacklog: Int32 = 4096
  /// At most this many connections are accepted in one round, so a burst does not starve running games.
  static let acceptsPerRound = 64
  /// At most this many TLS handshakes advance in one round of the loop (each costs the server about half a
  /// millisecond of key exchange and signing), after the round's games have been served: the rest wait for the
  /// next round, so hundreds of connections arriving together do not hold up the moves of games already playing.
  static let handshakesPerRound = 2
}

extension BotHost {
  /// A service's SIGHUP: the bot reads its deny list and limits again and every game goes on.
  package var rereadsOnHangUp: Bool { true }

  package func rereadSettings() {
    log.write(door.reread())
  }

  /// A joiner that goes before it takes the bot's offer of the next game did not play that game: the game the
  /// offer took under the limits is given back (a player who plays one game a connection counts one, not two).
  func gameNotPlayed(_ link: BotLink) {
    door.limits.gameNotPlayed(key: limitsKey(link), from: link.connection.peerAddress, now: clock())
  }

  /// Who `link`'s games are counted for under the limits: its key's fingerprint, or its address without one.
  func limitsKey(_ link: BotLink) -> String {
    link.connection.tls.peerCertificate?.fingerprint.description ?? link.connection.peerAddress
  }

  /// A closed connection's last bytes go out as its peer takes them (`ClosingOnLoop` watches it); at the deadline
  /// whatever is still going out is closed.
  func linger() {
    loop.schedule(at: clock() + ClosingSockets.linger) { [unowned self] in self.closing.expire() }
  }
}

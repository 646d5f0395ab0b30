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
  /// After rounds that served a full wait of secured connections (a saturated bot), `handshakesPerRound` advance
  /// for each this many served: the share of the loop they had when one wait returned up to 256.
  static let servedPerHandshakes = 256
}

/// The connections whose TLS handshakes wait for their turn, oldest first, and how many may advance in a round.
/// Pure.
struct HandshakeQueue {
  private var waiting: [Int32] = []
  private var queued: Set<Int32> = []
  /// Secured connections served this round (games, spectators), and in rounds full of them since handshakes
  /// last advanced.
  private var servedThisRound = 0
  private var servedInFullRounds = 0

  var isEmpty: Bool { waiting.isEmpty }

  /// `fd` had something to read or write during its handshake (once in the queue however often).
  mutating func add(_ fd: Int32) {
    if queued.insert(fd).inserted { waiting.append(fd) }
  }

  /// A secured connection was served this round.
  mutating func served() { servedThisRound += 1 }

  /// The oldest waiting, taken out of the queue.
  mutating func next() -> Int32? {
    guard !waiting.isEmpty else { return nil }
    let fd = waiting.removeFirst()
    queued.remove(fd)
    return fd
  }

  /// How many handshakes may advance at the end of a round, when a wait returns at most `batch` descriptors:
  /// `BotHost.handshakesPerRound` after a round that served fewer than `batch` secured connections (a burst of
  /// joiners alone is let through as fast as before); after rounds full of them (a saturated bot), as many for
  /// every `BotHost.servedPerHandshakes` served, so joiners take no more of a busy bot than when one wait
  /// returned up to 256 (BENCHMARKS.md, 2026-12-05).
  mutating func budget(batch: Int) -> Int {
    defer { servedThisRound = 0 }
    guard servedThisRound >= batch else {
      servedInFullRounds = 0
      return BotHost.handshakesPerRound
    }
    servedInFullRounds += servedThisRound
    guard servedInFullRounds >= BotHost.servedPerHandshakes else { return 0 }
    servedInFullRounds = 0
    return BotHost.handshakesPerRound
  }
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

import Discovery
import EventLoop
import GameCore
import GameRecords
import Glibc
import Security
import Session
import Transport
import WireProtocol

/// A practice bot: serves AI games to any number of joiners at once, each on its own TLS connection with its
/// own host session, all on the event loop (no thread per connection). Trust works as for `host`, except that
/// nobody is there to be asked: a new joiner is let in only with `--accept-new`, otherwise refused with
/// `RefusalReason.untrusted` and told how to get in. Every game that ends is one line in the log.
final class BotHost {
  private final class Link {
    let connection: PeerConnection
    let acceptedAt: Double
    var seat: BotSeat?
    var admission: BotAdmission?
    /// Where the link is in `BotHost.order`.
    var slot = 0
    init(connection: PeerConnection, acceptedAt: Double) {
      self.connection = connection
      self.acceptedAt = acceptedAt
    }
  }

  /// Seconds a joiner has to finish the TLS handshake and say hello (as sshd's LoginGraceTime): until then it
  /// counts among the pending connections, whose number is capped.
  static let handshakeTimeout = 10.0
  /// A joiner that leaves more than this queued (it does not read) is cut off: its outbox would grow the bot.
  static let outboxLimit = 256 * 1024
  /// How often heartbeats, silences and handshake deadlines are checked, instead of computing the nearest
  /// deadline on every wake-up: every 100 ms a tenth of the connections, so each is looked at once a second
  /// (heartbeats are due every 3 s and the silence limit is 10 s) and a thousand games that fall quiet
  /// together send their heartbeats in ten small batches rather than one 25 ms stall (measured).
  static let sweepInterval = 0.1
  static let sweepSlices = 10
  /// The most an AI move may hold the shared loop on boards too big to solve exactly (the interactive game
  /// thinks 250 ms; here that would stall every other game). Boards of up to 16 cells are solved exactly, and
  /// each position only once (`MoveBook`).
  static let moveBudget: Duration = .milliseconds(10)
  /// Connections the kernel queues for accepting (a burst of joiners waits there rather than being refused).
  static let listenBacklog: Int32 = 4096
  /// At most this many connections are accepted in one round, so a burst does not starve running games.
  static let acceptsPerRound = 64

  let level: AILevel
  let rules: Rules
  private let profile: Profile
  private let identity: Identity
  /// Where the bot's games are recorded (nil: not recorded).
  var collection: BotCollection?
  private let options: NetworkOptions
  private let log: Log
  private let clock: () -> Double
  private let ai: AIPlayer
  private var pendingLimit = PendingHandshakes()
  /// Shared by every connection; made again when a new peer is remembered (the trust options hold a copy of
  /// the known peers).
  private var context: TLSContext
  private var listeners: [Int32] = []
  private var links: [Int32: Link] = [:]
  /// The same links in an array, for sweeping a slice at a time.
  private var order: [Link] = []
  private var sweepCursor = 0
  /// Connections still setting up TLS, oldest first.
  private var pending: [Int32] = []
  private let loop: EventLoop
  /// Connections whose goodbye is still going out: a peer that stops reading cannot stall the loop.
  private let closing: ClosingSockets
  private var stopping = false
  private var advertiser: Advertiser?
  /// Peers remembered since the start: a burst of connections from one new peer, all judged before the context
  /// was made again, writes the known-peers file once.
  private var remembered: Set<Fingerprint> = []
  /// Accepting stops until then after the process ran out of descriptors.
  private var acceptPausedUntil = 0.0
  private(set) var port: UInt16 = 0
  /// Games played to their end (a line, a draw or a resignation).
  private(set) var gamesPlayed = 0
  private(set) var playersLetIn = 0

  init(
    level: AILevel, rules: Rules, profile: Profile, identity: Identity, options: NetworkOptions, log: Log,
    loop: EventLoop
  ) throws {
    self.loop = loop
    self.clock = { loop.now }
    closing = ClosingSockets(clock: { loop.now })
    self.level = level
    self.rules = rules
    self.profile = profile
    self.identity = identity
    self.options = options
    self.log = log
    ai = AIPlayer(level: level, budget: BotHost.moveBudget, book: MoveBook())
    context = try profile.tlsContext(.server, identity: identity, options: options, expectedHost: nil)
  }

  deinit {
    advertiser?.cancel()
    for fd in listeners { Glibc.close(fd) }
  }

  /// The server context for joiners, with the known peers as they are now.
  /// Solves the opening positions (the empty board and every first move) before anyone joins, so the first
  /// games do not pay for them on the shared loop. Returns the seconds it took (1.0–1.4 s on 4×4 with k = 4 here;
  /// nothing to do on boards too big to solve).
  func warmUp() -> Double {
    let start = clock()
    let empty = Game(rules: rules)
    guard let book = ai.book, book.perfectMoves(in: empty) != nil else { return clock() - start }
    for move in empty.legalMoves {
      var next = empty
      try? next.play(move)
      _ = book.perfectMoves(in: next)
    }
    return clock() - start
  }

  // MARK: - Starting

  func listen(bind: String?, port: UInt16) throws(NetworkError) {
    listeners = try Sockets.listen(bind: bind, port: port, backlog: BotHost.listenBacklog)
    self.port = listeners.first.map(Sockets.localPort) ?? port
    log.write("bot (\(level)) hosting \(rules) on \(bind ?? "*"):\(self.port)")
  }

  /// Announces the bot on the LAN (state `waiting` for good: it always has room). Returns what to tell the
  /// operator when that is impossible.
  func advertise() -> String? {
    guard let txtRules = ServiceTXT.Rules(rows: rules.rows, columns: rules.columns, k: rules.k) else { return nil }
    let txt = ServiceTXT(
      protocolVersions: ProtocolVersion.supported.sorted().map(Int.init), rules: txtRules, state: .waiting,
      fingerprint: identity.fingerprint.description, displayName: profile.name, bot: level.rawValue)
    do {
      advertiser = try Advertiser(name: profile.name, port: port, txt: txt)
      return nil
    } catch {
      log.write("not advertised: \(error)")
      return "\(error.message) Players can still join by address."
    }
  }

  // MARK: - The loop

  /// Serves until SIGINT, SIGTERM or SIGHUP, then says goodbye to every peer. `say` prints a status line.
  func run(say: @escaping (String) -> Void) {
    loop.handleSignals { [unowned self] number in
      guard [SIGINT, SIGTERM, SIGHUP].contains(number), !self.stopping else { return }
      self.shutDown(say: say)
      // The goodbyes still going out get their moment (at most ClosingSockets.linger), then the bot stops.
      self.stopping = true
      if self.closing.count == 0 { self.loop.stop() }
    }
    for fd in listeners { loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in self.acceptWaiting(on: fd) } }
    if let fd = advertiser?.descriptor {
      loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in self.processAdvertiser(say: say) }
    }
    scheduleSweep()
    loop.beforeEachWait { [unowned self] in self.watchListeners(now: self.clock()) }
    loop.run()
  }

  private func scheduleSweep() {
    loop.schedule(at: clock() + BotHost.sweepInterval) { [unowned self] in
      self.sweep(now: self.clock())
      self.scheduleSweep()
    }
  }

  private func processAdvertiser(say: (String) -> Void) {
    guard let advertiser, let fd = advertiser.descriptor else { return }
    do {
      for case .registered(let name) in try advertiser.process() {
        log.write("advertised as \(name)")
        say("Announced on the local network as \(name).")
      }
    } catch {
      loop.unwatch(fd)
      self.advertiser = nil
      log.write("advertisement lost: \(error)")
      say("\(error.message) Players can still join by address.")
    }
  }

  /// Listeners are watched only while the bot may accept (see `PendingHandshakes`), so a full house does not
  /// wake the loop for nothing.
  private func watchListeners(now: Double) {
    let open =
      now >= acceptPausedUntil && pendingLimit.decide(pending: pending.count, oldest: oldestPending, now: now) != .wait
    for fd in listeners { loop.setEvents(fd, open ? Int16(POLLIN) : 0) }
  }

  private var oldestPending: Double? { pending.first.flatMap { links[$0]?.acceptedAt } }

  private func acceptWaiting(on listener: Int32) {
    for _ in 0..<BotHost.acceptsPerRound {
      let now = clock()
      let decision = pendingLimit.decide(pending: pending.count, oldest: oldestPending, now: now)
      guard decision != .wait, now >= acceptPausedUntil else { return }
      guard let (fd, peer) = Sockets.accept(listener) else {
        if errno == EMFILE || errno == ENFILE {
          log.write("out of file descriptors with \(links.count) connections: not accepting for a second")
          acceptPausedUntil = now + 1
        }
        return
      }
      if decision == .dropOldestThenAccept, let oldest = pending.first, let link = links[oldest] {
        log.write(
          "\(pending.count) connections are setting up TLS or have not said hello: dropping the oldest, \(link.connection.peerAddress)"
        )
        close(link, gracefully: false)
      }
      // Answers go out at once: without this, a second small message (a rematch acceptance, then the bot's
      // first move) waits for the joiner's delayed ACK, up to 40 ms on Linux.
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      do {
        let connection = try PeerConnection(fd: fd, context: context, peerAddress: peer)
        connection.closer = closing
        let link = Link(connection: connection, acceptedAt: now)
        link.slot = order.count
        order.append(link)
        links[fd] = link
        pending.append(fd)
        loop.watch(fd, events: Int16(POLLIN)) { [unowned self] revents in
          if let link = self.links[fd] { self.service(link, revents: revents) }
        }
      } catch {
        log.write("cannot serve \(peer): \(error)")
        Glibc.close(fd)
      }
    }
  }

  private func service(_ link: Link, revents: Int16) {
    if revents & Int16(POLLOUT) != 0 { link.connection.flush() }
    if revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 { read(link) }
    watch(link)
  }

  private func watch(_ link: Link) {
    guard !link.connection.isClosed else { return }
    let events = POLLIN | (link.connection.wantsWrite ? POLLOUT : 0)
    loop.setEvents(link.connection.fd, Int16(events))
  }

  private func read(_ link: Link) {
    let arrivals: [PeerConnection.Arrival]
    do {
      arrivals = try link.connection.readable()
    } catch {
      log.write("\(link.connection.peerAddress): \(error)")
      close(link, gracefully: false)
      return
    }
    for arrival in arrivals where !link.connection.isClosed {
      let now = clock()
      switch arrival {
      case .secured:
        secured(link, now: now)
      case .message(let message):
        if let reaction = link.seat?.receive(message, now: now) { react(link, reaction) }
      case .malformed(let error):
        if let reaction = link.seat?.receiveMalformed(error, now: now) { react(link, reaction) }
      case .ended:
        if let reaction = link.seat?.connectionLost(now: now) { react(link, reaction) } else { close(link) }
      }
    }
  }

  private func secured(_ link: Link, now: Double) {
    let admission = BotAdmission.decide(link.connection.tls.trustDecision, botName: profile.name)
    link.admission = admission
    let ai = self.ai
    var seat = BotSeat(
      // The bot keeps no game to resume, so it keeps no messages to send again either (they were a third of
      // its memory per game).
      configuration: .init(
        role: .host, name: profile.name, software: CommandLineParser.version, rules: rules, resendLimit: 0),
      level: level, admission: admission, coinBytes: (0..<Message.coinBytes).map { _ in UInt8.random(in: 0...255) },
      sha256: Digest.sha256, now: now,
      chooseMove: { game in
        var random = SystemRandomNumberGenerator()
        return ai.chooseMove(in: game, using: &random)
      })
    let reaction = seat.start(now: now)
    link.seat = seat
    react(link, reaction)
  }

  private func react(_ link: Link, _ reaction: BotReaction) {
    let connection = link.connection
    for message in reaction.messages {
      do {
        try connection.send(message)
      } catch {
        log.write("send failed to \(connection.peerAddress): \(error)")
      }
    }
    // Said hello: no longer pending (the handshake and hello deadline is behind it).
    if link.seat?.session.peerName != nil, let index = pending.firstIndex(of: connection.fd) {
      pending.remove(at: index)
    }
    if connection.queuedBytes > BotHost.outboxLimit {
      log.write("\(connection.peerAddress): \(connection.queuedBytes) bytes it does not read: closed")
      close(link, gracefully: false)
      return
    }
    let certificate = connection.tls.peerCertificate
    if reaction.admitted {
      playersLetIn += 1
      if case .letIn(remember: true) = link.admission, let certificate { remember(certificate) }
    }
    if !reaction.games.isEmpty {
      // Logged by the name trust was decided on (a known key's known name), with the claimed one beside it.
      let claimed = link.seat?.session.peerName?.unsanitised ?? "?"
      let decided = ShownName.decided(connection.tls.trustDecision, certificate: certificate) { nil }
      let peer = BotGameRecord.Peer(
        name: decided ?? claimed, fingerprint: certificate?.fingerprint.description ?? "?",
        address: connection.peerAddress, claimed: decided.map { $0 == claimed ? nil : claimed } ?? nil)
      for game in reaction.games {
        if case .unfinished = game.outcome {} else { gamesPlayed += 1 }
        log.write(game.logLine(peer: peer))
        if var record = game.record, let collection {
          record.addKeys(bot: identity.publicKeyBase64, peer: certificate?.publicKeyBase64, botMark: game.botMark)
          record.date = RecordOfGame.today()
          signAndSend(&record, game: game.number, botMark: game.botMark, on: connection)
          collection.append(record, day: record.date)
        }
      }
    }
    if let end = reaction.end {
      if case .refuse(let text) = link.admission {
        log.write("refused \(certificate?.commonName ?? "?") at \(connection.peerAddress): \(text)")
      } else {
        log.write("\(connection.peerAddress): session ended: \(end)")
      }
      close(link)
    }
  }

  /// Signs the bot's record and sends the signature, as a host does (docs/PROTOCOL.md rule 12), so the joiner's
  /// record carries it; the joiner's answer is not waited for (the day's collection is only appended to).
  private func signAndSend(_ record: inout GameRecord, game: Int, botMark: Mark, on connection: PeerConnection) {
    guard let signature = try? identity.sign(record.signedBytes) else { return }
    record.setSignature(RecordBase64.encode(signature), of: botMark)
    guard !connection.isClosed, let number = UInt16(exactly: game) else { return }
    try? connection.send(.recordSignature(game: number, date: record.date, signature: signature))
  }

  /// A new peer let in by --accept-new is remembered like one a player accepted, and the context is made
  /// again so its next connection is judged as known (and a later change of its key is caught).
  private func remember(_ certificate: PeerCertificate) {
    guard remembered.insert(certificate.fingerprint).inserted else { return }
    do {
      try profile.remember(name: certificate.commonName, fingerprint: certificate.fingerprint)
      context = try profile.tlsContext(.server, identity: identity, options: options, expectedHost: nil)
      log.write("remembered new peer \(certificate.commonName) \(certificate.fingerprint)")
    } catch {
      log.write("could not remember \(certificate.commonName): \(error)")
    }
  }

  private func close(_ link: Link, gracefully: Bool = true) {
    let fd = link.connection.fd
    loop.unwatch(fd)
    if links.removeValue(forKey: fd) != nil {
      let last = order.removeLast()
      if link.slot < order.count {
        order[link.slot] = last
        last.slot = link.slot
      }
    }
    if let index = pending.firstIndex(of: fd) { pending.remove(at: index) }
    link.connection.close(gracefully: gracefully)
    if closing.contains(fd) { linger(fd) }
  }

  /// Sends a closed connection's last bytes as its peer takes them; closes it when they are out or at its
  /// deadline.
  private func linger(_ fd: Int32) {
    loop.watch(fd, events: Int16(POLLOUT)) { [unowned self] _ in
      if self.closing.flush(fd) { self.closed(fd) }
    }
    loop.schedule(at: clock() + ClosingSockets.linger) { [unowned self] in
      for fd in self.closing.expire() { self.closed(fd) }
    }
  }

  private func closed(_ fd: Int32) {
    loop.unwatch(fd)
    if stopping && closing.count == 0 { loop.stop() }
  }

  /// Handshake deadlines, heartbeats and silences, for the next slice of the connections.
  private func sweep(now: Double) {
    let slice = (order.count + BotHost.sweepSlices - 1) / BotHost.sweepSlices
    for _ in 0..<slice where !order.isEmpty {
      if sweepCursor >= order.count { sweepCursor = 0 }
      let link = order[sweepCursor]
      sweepCursor += 1
      if !link.connection.isSecured || link.seat?.session.peerName == nil {
        if now - link.acceptedAt >= BotHost.handshakeTimeout {
          let missing = link.connection.isSecured ? "hello" : "TLS handshake"
          log.write("\(link.connection.peerAddress): no \(missing) within \(Int(BotHost.handshakeTimeout)) s")
          close(link, gracefully: false)
        }
      } else if let reaction = link.seat?.tick(now: now), !reaction.isEmpty {
        react(link, reaction)
        watch(link)
      }
    }
  }

  /// "1 game", "2 games".
  static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

  private func shutDown(say: (String) -> Void) {
    advertiser?.cancel()
    advertiser = nil
    let now = clock()
    var told = 0
    for link in links.values where !link.connection.isClosed {
      if let reaction = link.seat?.shutDown(now: now), !reaction.messages.isEmpty {
        told += 1
        react(link, reaction)
      }
      if !link.connection.isClosed { close(link, gracefully: link.connection.isSecured) }
    }
    for fd in listeners {
      loop.unwatch(fd)
      Glibc.close(fd)
    }
    listeners = []
    let summary =
      "said goodbye to \(BotHost.count(told, "player")); \(BotHost.count(gamesPlayed, "game")) played to the end, "
      + "\(BotHost.count(playersLetIn, "player")) let in"
    log.write("bot stopped: \(summary)")
    say("Stopped: \(summary).")
  }
}

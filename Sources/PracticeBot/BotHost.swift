import EventLoop
import GameCore
import Glibc
import MatchCoordination
import NetworkFacts
import NetworkShell
import PeerTrust
import PlayerFiles
import Security
import Transport

/// A practice bot: serves AI games to any number of joiners at once, each on its own TLS connection with its
/// own host session, all on the event loop (no thread per connection). Trust works as for `host`, except that
/// nobody is there to be asked: a new joiner is let in only with `--accept-new`, otherwise refused with
/// `RefusalReason.untrusted` and told how to get in. Every game that ends is one line in the log.
package final class BotHost: LoopFrontEnd {
  let level: AILevel
  let rules: Rules
  /// The time control (`--clock`, else the clock setting; the bot's moves take `moveBudget`) and the opening offered.
  package var timeControl = TimeControl.none, opening = Opening.standard
  let profile: Profile
  let identity: Identity
  /// Where the bot's games are recorded (nil: not recorded).
  package var collection: BotCollection? {
    get { reports.collection }
    set {
      // Written off the loop: an fsync per game held every other game up (a p99 of 137 ms at 1000 games).
      newValue?.run = { [loop] work, done in loop.perform(work, then: done) }
      // A few batches a second: one per turn of the loop cost a busy bot a seventh of its CPU.
      newValue?.after = { [loop] seconds, action in _ = loop.schedule(at: loop.now + seconds, action) }
      reports.collection = newValue
    }
  }
  private let options: NetworkOptions
  /// The listening sockets and the door where connections wait at the pending cap (`host`'s too); see `listen`.
  private var listener: HostListener?
  /// Who comes in: the pending cap, the limits per source address and key (docs/SECURITY.md).
  package var door: BotDoor
  /// With `--accept-new`: the known peers in memory, new ones appended off the loop (nil: the file is read
  /// whenever the context is made).
  private let newPeers: BotKnownPeers?
  let log: Log
  let clock: () -> Double
  let ai: AIPlayer
  /// Where moves not chosen on the loop come from: the computer's search on a worker thread, or the engine.
  package let moves: BotMoves
  /// Shared by every connection; with `--accept-new` it judges by `newPeers.shared`, so a peer remembered is
  /// known to the next handshake without making the context again.
  private let context: TLSContext
  var links = BotConnections()
  var spectating = BotWatch()
  var keptGames = BotKeptGames()
  let reports: BotGameReports
  package let loop: EventLoop
  /// Connections whose goodbye is still going out: a peer that stops reading cannot stall the loop.
  let closing: ClosingSockets
  /// Every connection's sends, written in a row before the loop waits (`WriteBatch`).
  let writes = WriteBatch()
  /// Links whose sends wait for the batch of signatures, in the order they were held (`sendHeld`).
  var holding = BotHolding()
  private let closingWatch: ClosingOnLoop
  package var shutdown = Shutdown()
  /// Prints a status line for the operator (set by `run`).
  private var say: (String) -> Void = { _ in }
  var advertisement: BotAdvertisement?
  /// Connections in TLS that had something to read or write, in order: advanced after the round's games.
  private var handshakes = HandshakeQueue()
  /// Pending connections dropped at the cap, logged as one source: a flood cannot fill the log.
  private var drops = PerAddressLog()
  package var port: UInt16 { listener?.port ?? 0 }
  var gamesPlayed: Int { reports.gamesPlayed }
  private(set) var playersLetIn = 0

  package init(
    level: AILevel, rules: Rules, profile: Profile, identity: Identity, options: NetworkOptions, log: Log,
    loop: EventLoop, limits: SourceLimits? = nil, engine: (words: [String], cap: Int)? = nil
  ) throws {
    self.loop = loop
    self.clock = { loop.now }
    closing = ClosingSockets(clock: { loop.now })
    closingWatch = ClosingOnLoop(closing, loop: loop)
    self.level = level
    self.rules = rules  // its variant is offered in the terms (protocol version 4)
    self.profile = profile
    self.identity = identity
    self.options = options
    self.log = log
    ai = AIPlayer(level: level, budget: BotHost.moveBudget, book: MoveBook())
    moves = BotMoves(engine: engine, ai: ai, botName: profile.name, loop: loop, log: log)
    reports = BotGameReports(identity: identity, log: log)
    door = BotDoor(limits: limits ?? SourceLimits(now: loop.now))
    let trustsOnFirstUse = options.acceptNew && options.pins.isEmpty && options.caFile == nil && !options.insecure
    newPeers =
      trustsOnFirstUse
      ? try BotKnownPeers(file: KnownPeersFile(path: profile.knownPeersPath), loop: loop, log: log) : nil
    // Otherwise joiners are judged through known_peers' index: made now, a bad line reported now.
    if newPeers == nil { try profile.knownPeersIndex.prepare() }
    context = try profile.tlsContext(
      .server, identity: identity, options: options, expectedHost: nil, shared: newPeers?.shared)
  }

  package func listen(bind: String?, port: UInt16) throws(NetworkError) {
    listener = try HostListener(
      bind: bind, port: port, backlog: BotHost.listenBacklog, acceptsPerRound: BotHost.acceptsPerRound, log: log,
      fromProxy: { [unowned self] in door.fromProxy($0) })
    log.write("bot (\(player)) hosting \(rules) on \(bind ?? "*"):\(self.port)")
  }

  // MARK: - The loop

  /// Serves until SIGINT or SIGTERM (SIGHUP: `rereadSettings`), then says goodbye to all; `say` prints a line.
  package func run(say: @escaping (String) -> Void) {
    self.say = say
    takeSignals()
    advertisement?.watch(say: say)
    listener?.watch(on: loop) { [unowned self] fd in self.acceptWaiting(on: fd) }
    scheduleSweep()
    log.hold()  // a round's lines (one a game) go out in one write, before the loop waits
    loop.beforeEachWait { [unowned self] in
      // The round's games signed in one batch, its answers written in a row, its log lines in one write.
      defer {
        self.signWhenDue()
        self.writeBatch()
        self.log.flush()
      }
      // The goodbyes still going out get their moment (at most ClosingSockets.linger), then the bot stops.
      if self.stopIfDone() { return }
      self.advanceHandshakes()
      // Handshakes left: the next round comes at once (they waited for the sweep's wake, two at a time).
      if !self.handshakes.isEmpty { _ = self.loop.schedule(at: 0) {} }
    }
    loop.run()
    log.release()
  }

  private func scheduleSweep() {
    loop.schedule(at: clock() + BotHost.sweepInterval) { [unowned self] in
      self.sweep(now: self.clock())
      self.scheduleSweep()
    }
  }

  /// Whether the pending cap leaves a place at `now` (one that the oldest pending connection makes, perhaps).
  private func mayAccept(now: Double) -> Bool {
    door.decide(pending: links.pending.count, oldest: links.oldestPending, now: now) != .wait
  }

  /// A listening socket or a connection at the door is readable: in while there is a place, else to the door.
  private func acceptWaiting(on fd: Int32) {
    let now = clock()
    let _: [Never] =
      listener?.handle(
        readable: [fd], now: now, mayAccept: { mayAccept(now: now) }, pendingFrom: { links.pendingByAddress },
        admit: { admit($0, peer: $1, now: now) }) ?? []
  }

  /// One the listener let in: refused by the source limits, or served (the oldest pending dropped at the cap).
  private func admit(_ fd: Int32, peer: String, now: Double) -> [Never] {
    let proxied = door.fromProxy(peer)  // judged by the client its header names (`introduced`)
    let (admitted, line) = proxied ? (true, nil) : door.admit(peer, now: now)
    if let line { log.write(line) }
    guard admitted else {
      Glibc.close(fd)
      return []
    }
    if door.decide(pending: links.pending.count, oldest: links.oldestPending, now: now) == .dropOldestThenAccept,
      let oldest = links.droppable, let link = links[oldest]
    {
      let line =
        "\(links.pending.count) connections are setting up TLS or have not said hello: dropping the oldest, \(link.connection.peerAddress)"
      // One line per drop filled the log under a flood: a few, then one a minute with the count held back.
      if let line = drops.line(line, about: "0.0.0.0", now: now) { log.write(line) }
      close(link, gracefully: false)
    }
    do {
      let connection = try PeerConnection(fd: fd, context: context, peerAddress: peer)
      connection.closer = closing
      connection.batch = writes
      let link = BotLink(connection: connection, acceptedAt: now, counted: !proxied)
      links.add(link)
      if proxied { connection.start(after: ProxyPrelude(now: now)) }
      // What its descriptor is ready for comes straight to this link (no look-up by descriptor).
      link.watched.watch(on: loop) { [unowned self, unowned link] revents in self.service(link, revents: revents) }
    } catch {
      log.write("cannot serve \(peer): \(error)")
      door.left(peer)
      Glibc.close(fd)
    }
    return []
  }

  private func service(_ link: BotLink, revents: Int16) {
    guard link.connection.isSecured else { return handshakes.add(link.connection.fd) }
    handshakes.served()
    if revents & Int16(POLLOUT) != 0 { link.connection.flush() }
    if revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 { read(link) }
    watch(link)
  }

  /// The handshakes that were waiting, as many as the round allows (`HandshakeQueue.budget`), oldest first; what
  /// was ready for a connection closed since (its number perhaps reused) is passed over or judged afresh.
  private func advanceHandshakes() {
    var advanced = 0
    let budget = handshakes.budget(batch: EventLoop.waitBatch)
    while advanced < budget, let fd = handshakes.next() {
      guard let link = links[fd], !link.connection.isClosed, !link.connection.isSecured else { continue }
      advanced += 1
      link.connection.flush()
      read(link)
      watch(link)
    }
  }

  /// Watches `link` for writing while it has bytes queued (no system call when that did not change).
  func watch(_ link: BotLink) { link.watched.followWrites() }

  func read(_ link: BotLink) {
    let arrivals: [PeerConnection.Arrival]
    do {
      arrivals = try link.connection.readable()
    } catch {
      if !BotHost.isHealthCheck(error) { log.write("\(link.connection.peerAddress): \(error)") }
      close(link, gracefully: false)
      return
    }
    for arrival in arrivals where !link.connection.isClosed {
      let now = clock()
      switch arrival {
      case .introduced(let header):
        introduced(link, header, now: now)
      case .secured:
        secured(link, now: now)
      case .message(let message):
        if case .deciding = message, !link.saidHello { deciding(link, now: now) }
        if spectatorTakes(message, on: link, now: now) { continue }
        if let reaction = link.seat?.receive(message, now: now) { react(link, reaction) }
        if case .recordSignature(let game, let date, let signature) = message {
          countersigned(link, game: Int(game), date: date, signature: signature, now: now)
        }
      case .malformed(let error):
        if let reaction = link.seat?.receiveMalformed(error, now: now) { react(link, reaction) }
      case .ended:
        if let reaction = link.seat?.connectionLost(now: now) { react(link, reaction) } else { close(link) }
      }
    }
  }

  /// Before hello the joiner says its player is deciding about the bot's key: it is given longer to say hello
  /// (`PendingHandshakes.helloDeadline`), and the bot's heartbeats keep its side of the silence limit.
  private func deciding(_ link: BotLink, now: Double) {
    if link.decidingAt == nil {
      log.write("\(link.connection.peerAddress): its player is deciding about the bot's key; waiting for its hello")
    }
    link.decidingAt = now
  }

  private func secured(_ link: BotLink, now: Double) {
    link.securedAt = now
    var admission = BotAdmission.decide(link.connection.tls.trustDecision, botName: profile.name)
    let peer = link.connection.peerAddress
    if case .letIn(remember: true) = admission, let refusal = door.limits.newKey(from: peer, now: now) {
      admission = .refuse("\(profile.name): \(refusal)", reason: .busy)
    }
    admission = moves.placeFor(ObjectIdentifier(link), admission)
    link.admission = admission
    let key = limitsKey(link)
    var seat = BotSeat.practice(
      name: profile.name, level: level, rules: rules, timeControl: timeControl, opening: opening,
      chooseMove: moves.chooserOnLoop(rules: rules), admission: admission,
      now: now, gracePeriod: options.gracePeriod,
      mayStartGame: { [unowned self, source = SourceLimits.Peer(peer)] in
        self.door.limits.game(key: key, from: source, now: $0)
      })
    link.key = link.connection.tls.peerCertificate?.fingerprint.description
    seat.playedBy = moves.engineName
    if let kept = link.key.flatMap({ keptGames[$0] }) { seat.offerBack(kept.seat, now: now) }
    let reaction = seat.start(now: now)
    link.seat = seat
    react(link, reaction)
  }

  func react(_ link: BotLink, _ reaction: BotReaction) {
    let connection = link.connection
    // One write for the reaction: the signatures of the games it ends after their last messages, then the offer
    // of the next game.
    send(link, reaction, reported: reportGames(link, reaction))
    spectatorsAfter(link, admitted: reaction.admitted, now: loop.now)
    // Said hello: no longer pending (the handshake and hello deadline is behind it).
    if link.saidHello { links.saidHello(link) }
    if connection.backlogBytes > BotHost.outboxLimit {
      log.write("\(connection.peerAddress): \(connection.backlogBytes) bytes it does not read: closed")
      close(link, gracefully: false)
      return
    }
    if reaction.admitted {
      playersLetIn += 1
      if case .letIn(remember: true) = link.admission, let certificate = connection.tls.peerCertificate {
        remember(certificate)
      }
    }
    keptGame(link, reaction)
    moves(link, reaction)
    if let end = reaction.end {
      // The certificate is copied only here and above, not on every move.
      let certificate = connection.tls.peerCertificate
      if case .refuse(let text, _) = link.admission {
        log.write("refused \(certificate?.commonName ?? "?") at \(connection.peerAddress): \(text)")
      } else if let text = link.seat?.refusedText {
        log.write("refused \(certificate?.commonName ?? "?") at \(connection.peerAddress): \(text)")
      } else {
        log.write("\(connection.peerAddress): session ended: \(end)")
      }
      close(link)
    }
  }

  /// A new peer let in by --accept-new is remembered like one a player accepted: its next connection is judged
  /// as known (and a later change of its key is caught).
  private func remember(_ certificate: PeerCertificate) {
    guard let newPeers, newPeers.remember(name: certificate.commonName, fingerprint: certificate.fingerprint)
    else { return }
    log.write("remembered new peer \(certificate.commonName) \(certificate.fingerprint)")
  }

  func close(_ link: BotLink, gracefully: Bool = true) {
    if link.held != nil { sendHeld() }  // its games' signatures go before its goodbye
    spectatorLinkClosing(link)
    let fd = link.connection.fd
    if links.remove(link) {
      if link.counted { door.left(link.connection.peerAddress) }
      if link.seat?.offerUntaken == true { gameNotPlayed(link) }
    }
    moves.release(ObjectIdentifier(link))
    // Given up by the loop, then closed; a goodbye still going out is watched by `closingWatch` until it is out.
    link.watched.close(gracefully: gracefully)
    if closing.contains(fd) { linger() }
  }

  /// Handshake deadlines, heartbeats and silences, for the next slice of the connections.
  private func sweep(now: Double) {
    // Those at the door whose time is over are closed; whoever spoke goes in as places free.
    let _: [Never] =
      listener?.tick(
        now: now, mayAccept: { mayAccept(now: now) }, pendingFrom: { links.pendingByAddress },
        admit: { admit($0, peer: $1, now: now) }) ?? []
    expireKeptGames(now: now)
    spectatorsDue(now: now)
    for link in links.nextSlice(of: BotHost.sweepSlices) where !link.connection.isClosed {
      if !link.saidHello {
        let deadline = BotHost.pending.helloDeadline(
          accepted: link.acceptedAt, secured: link.securedAt, deciding: link.decidingAt)
        if now >= deadline {
          let missing = link.connection.isSecured ? "hello" : "TLS handshake"
          let seconds = Int((deadline - link.acceptedAt).rounded())
          log.write("\(link.connection.peerAddress): no \(missing) within \(seconds) s")
          close(link, gracefully: false)
        } else if link.decidingAt != nil, let reaction = link.seat?.tick(now: now), !reaction.isEmpty {
          react(link, reaction)  // heartbeats while its player decides
          watch(link)
        }
      } else if let reaction = link.seat?.tick(now: now), !reaction.isEmpty {
        react(link, reaction)
        watch(link)
      }
    }
  }

  /// Goodbyes still going out, and game records and new players still being written.
  package var goodbyesGoingOut: Int {
    closing.count + (collection?.isWriting == true ? 1 : 0) + (newPeers?.isWriting == true ? 1 : 0)
  }

  /// Tells every player goodbye, stops listening and advertising, and says what the bot did.
  package func sayGoodbye(signal number: Int32) {
    advertisement?.cancel()
    advertisement = nil
    let now = clock()
    var told = 0
    defer { collection?.flush() }  // the last games' records, without waiting for the interval
    spectatorsShutDown()
    for link in links.all where !link.connection.isClosed {
      if let reaction = link.seat?.shutDown(now: now), !reaction.wire(signatures: []).isEmpty {
        told += 1
        react(link, reaction)
      }
      if !link.connection.isClosed { close(link, gracefully: link.connection.isSecured) }
    }
    stopKeepingGames(now: now)
    moves.stopAll()
    listener?.close()
    let summary =
      "said goodbye to \(BotHost.count(told, "player")); \(BotHost.count(gamesPlayed, "game")) played to the end, "
      + "\(BotHost.count(playersLetIn, "player")) let in"
    log.write("bot stopped: \(summary)")
    say("Stopped: \(summary).")
  }
}

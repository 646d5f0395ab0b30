import MatchCoordination
import PeerTrust
import Security
import Session
import WireProtocol

/// The bot's games by the numbers spectators ask for, and their spectators (PROTOCOL.md, "Version 4: watching",
/// rule 27). The deciding is `BotSpectators`'; this holds what the shell must look up for it.
package struct BotWatch {
  var spectators = BotSpectators()
  /// Each player's connection (its descriptor) by its game's number, and the next number to give.
  var players: [UInt16: Int32] = [:]
  private var next: UInt16 = 1

  /// A number no game has now, going round from 1 to 65535.
  mutating func number() -> UInt16 {
    while players[next] != nil { next = next == .max ? 1 : next + 1 }
    defer { next = next == .max ? 1 : next + 1 }
    return next
  }
}

/// The practice bot's spectators on the loop: a spectator's hello taken before any seat sees it, each game's
/// changes sent to its spectators after every reaction on its seat, and a spectator that falls behind dropped.
extension BotHost {
  /// Takes `message` on `link` when it is a spectator's business: true when taken.
  func spectatorTakes(_ message: Message, on link: BotLink, now: Double) -> Bool {
    if link.watching {
      let peer = link.connection.peerAddress
      perform(spectating.spectators.received(message, from: link.connection.fd, peer: peer, now: now), now: now)
      return true
    }
    guard case .hello(let versions, _, _, _, let game?, _) = message, !link.saidHello, link.seat != nil else {
      return false
    }
    let peer = link.connection.peerAddress
    link.watching = true
    link.seat = nil  // a spectator plays no game: its session's memory goes
    links.saidHello(link)
    if case .rejected(let failure)? = link.connection.tls.trustDecision {
      let text = "\(profile.name): your certificate was refused: \(failure)"
      perform([
        .send(link.connection.fd, [.refuse(.untrusted, text: text)]), .close(link.connection.fd, graceful: true),
      ])
      return true
    }
    // The games are looked up in a copy: `spectators` is being changed meanwhile.
    let players = spectating.players
    let commands = spectating.spectators.hello(
      link.connection.fd, versions: versions, game: game, peer: peer, exempt: door.limits.exempt, now: now,
      list: { gameList(players) }, lookup: { lookUp($0, in: players) })
    perform(commands, now: now)
    return true
  }

  /// After a reaction on a player's seat: a player let in gets its game's number; its spectators are told what
  /// changed.
  func spectatorsAfter(_ link: BotLink, admitted: Bool, now: Double) {
    if admitted, link.watchNumber == nil {
      let number = spectating.number()
      link.watchNumber = number
      spectating.players[number] = link.connection.fd
    }
    guard let number = link.watchNumber, spectating.spectators.count(of: number) > 0 else { return }
    // The player's answer goes out before the spectators' copies are made (up to 100 TLS records): written at
    // the end of the turn, it waited for all of them (2.7 times the unwatched round trip at the median).
    writeBatch()
    perform(spectating.spectators.after(number, view: view(of: link), now: now), now: now)
  }

  /// `link` is closing: a spectator leaves its game; a player's game ends for its spectators.
  func spectatorLinkClosing(_ link: BotLink) {
    let now = loop.now
    if link.watching {
      perform(spectating.spectators.drop(link.connection.fd, note: nil, graceful: false, now: now), now: now)
    } else if let number = link.watchNumber {
      link.watchNumber = nil
      spectating.players[number] = nil
      perform(spectating.spectators.after(number, view: nil, now: now), now: now)
    }
  }

  /// Heartbeats and silences of the spectators; the advertisement's count of them.
  func spectatorsDue(now: Double) {
    if spectating.spectators.count > 0 { perform(spectating.spectators.due(now: now), now: now) }
    advertisement?.showWatchers(spectating.spectators.count, now: now)
  }

  /// The bot stops: every spectator is told.
  func spectatorsShutDown() {
    perform(spectating.spectators.shutDown(text: "\(profile.name) is shutting down"))
  }

  private func view(of link: BotLink) -> WatchView? {
    guard let session = link.seat?.session, let key = link.connection.tls.peerCertificate?.fingerprint else {
      return nil
    }
    return WatchView(session: session, key: key.bytes)
  }

  private func lookUp(_ number: UInt16, in players: [UInt16: Int32]) -> BotGameLookup {
    guard let fd = players[number], let link = links[fd], let view = view(of: link) else { return .missing }
    return (link.seat?.session.version ?? 0) >= 4 ? .watchable(view) : .olderJoiner
  }

  /// The games a spectator may watch (those whose joiner speaks version 4), by number.
  private func gameList(_ players: [UInt16: Int32]) -> (games: [ListedGame], total: Int) {
    var games: [ListedGame] = []
    for (number, fd) in players {
      guard let session = links[fd]?.seat?.session, (session.version ?? 0) >= 4, let name = session.peerName else {
        continue
      }
      let moves = UInt16(clamping: session.game?.history.count ?? 0)
      let hostPlaysX = session.gameNumber > 0 ? session.myMark.map { $0 == .x } : nil
      games.append(ListedGame(number: number, joinerName: name.unsanitised, hostPlaysX: hostPlaysX, moves: moves))
    }
    games.sort { $0.number < $1.number }
    return (Array(games.prefix(GameListPart.maximumListed)), games.count)
  }

  /// Carries out what `BotSpectators` decided, in order; a spectator whose outbox grew past the limit is dropped.
  func perform(_ commands: [BotWatchCommand], now: Double? = nil) {
    let now = now ?? loop.now
    for command in commands {
      switch command {
      case .send(let fd, let messages):
        guard let link = links[fd], !link.connection.isClosed else { continue }
        try? link.connection.send(messages)
        watch(link)
        let peer = link.connection.peerAddress
        perform(
          spectating.spectators.backlog(fd, queuedBytes: link.connection.backlogBytes, peer: peer, now: now), now: now)
      case .close(let fd, let graceful):
        if let link = links[fd], !link.connection.isClosed { close(link, gracefully: graceful) }
      case .log(let line):
        log.write(line)
      case .tellPlayer(let game, let count):
        guard let fd = spectating.players[game], let link = links[fd], (link.seat?.session.version ?? 0) >= 4 else {
          continue
        }
        // Behind what the player's link holds for the round's signatures, if anything (`send(_:_:reported:)`).
        send(link, BotReaction(messages: [.watchers(count: UInt16(clamping: count))]), reported: .init())
        watch(link)
      }
    }
  }
}

extension NetSession.Configuration {
  /// The configuration with the terms saying that the game may be watched (the practice bot's: anyone may).
  func watchable() -> Self {
    var configuration = self
    configuration.watchable = true
    return configuration
  }
}

/// The record of a watched game, signed by both, for its spectators (PROTOCOL.md rule 28).
extension BotHost {
  /// Reports the games `reaction` ends (the log, the collection, the signatures to send); for a game whose
  /// spectators watch, the signed record is kept on `link` for the joiner's signature.
  func reportGames(_ link: BotLink, _ reaction: BotReaction) -> BotGameReports.Reported {
    guard !reaction.games.isEmpty else { return BotGameReports.Reported() }
    let watched = link.watchNumber.map { spectating.spectators.count(of: $0) > 0 } ?? false
    let who = link.reportedAs ?? reports.who(seat: link.seat, on: link.connection)
    if link.reportedAs == nil, link.saidHello { link.reportedAs = who }
    // Signed in the round's batch when the joiner checks that form and the link stays open after the reaction.
    let batch = who.takesBatches && reaction.end == nil
    let reported = reports.report(
      reaction.games, peer: who.peer, peerKey: who.key, toJoiner: !link.connection.isClosed, watched: watched,
      batch: batch)
    if let signed = reported.watched { link.countersign = signed }
    return reported
  }

  /// The joiner's signature over game `game`'s record: when it completes the record kept for the game's spectators
  /// (it verifies with the joiner's key), they are sent the record signed by both; otherwise nothing.
  func countersigned(_ link: BotLink, game: Int, date: String, signature: [UInt8], now: Double) {
    guard let kept = link.countersign, let number = link.watchNumber else { return }
    link.countersign = nil
    guard spectating.spectators.count(of: number) > 0, let wire = UInt16(exactly: game),
      let record = kept.countersigned(
        game: game, date: date, signature: signature,
        verify: { RecordSignature.verify($0, of: $1, publicKeyBase64: $2) })
    else { return }
    perform(spectating.spectators.record(number, game: wire, sgf: record.sgf, now: now), now: now)
  }
}

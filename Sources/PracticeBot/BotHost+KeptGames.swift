/// The games the bot keeps for joiners that went away mid-game (PROTOCOL.md rule 19): kept when a seat asks, offered
/// back to the key that comes back, claimed when the grace period ends, logged unfinished when the bot stops.
extension BotHost {
  /// After `reaction` on `link`: a seat whose joiner went away mid-game is kept for the joiner's key; a joiner let in
  /// with version 3 was offered the game kept for it (`BotSeat.offerBack`), which its new seat now holds.
  func keptGame(_ link: BotLink, _ reaction: BotReaction) {
    // Most reactions neither let a joiner in nor keep a game: the seat is not copied for them (a copy every move).
    guard reaction.admitted || reaction.keep, let key = link.key, var seat = link.seat else { return }
    let address = link.connection.peerAddress
    if reaction.admitted, (seat.session.version ?? 0) >= 3, let kept = keptGames.remove(key) {
      let moves = kept.seat.session.game?.history.count ?? 0
      log.write("\(address): back for game \(kept.seat.session.gameNumber) kept at move \(moves + 1): offered")
    }
    guard reaction.keep else { return }
    let kept = BotKeptGames.Kept(
      seat: seat, peer: reports.peer(seat: seat, on: link.connection),
      peerKey: link.connection.tls.peerCertificate?.publicKeyBase64)
    guard keptGames.keep(kept, key: key) else {
      reports.report(seat.notKept(now: loop.now), peer: kept.peer, peerKey: kept.peerKey, toJoiner: false)
      return
    }
    let seconds = Int(seat.session.configuration.gracePeriod)
    log.write("\(address): gone mid-game; game \(seat.session.gameNumber) kept \(seconds) s for its key")
  }

  /// Claims the kept games whose grace period is over: each lost by its joiner, recorded and logged.
  func expireKeptGames(now: Double) {
    for (kept, reaction) in keptGames.expire(now: now) {
      reports.report(reaction.games, peer: kept.peer, peerKey: kept.peerKey, toJoiner: false)
    }
  }

  /// The bot stops: each kept game is logged unfinished ("the bot shut down").
  func stopKeepingGames(now: Double) {
    for (key, kept) in keptGames.byKey {
      var seat = kept.seat
      reports.report(seat.shutDown(now: now).games, peer: kept.peer, peerKey: kept.peerKey, toJoiner: false)
      keptGames.remove(key)
    }
  }

  /// "1 game", "2 games".
  static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

  /// The bot prints lines; it has no screen to redraw.
  package func redraw() {}
}

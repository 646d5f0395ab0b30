import GameCore

/// The bot's moves chosen off the loop (`BotMoves`): asked for when a seat wants one, answered to the seat when
/// they come back, and an engine's game ended with the game.
extension BotHost {
  /// After a reaction on `link`: a game that ended lets its engine go; a move wanted is asked for.
  func moves(_ link: BotLink, _ reaction: BotReaction) {
    if !reaction.games.isEmpty || reaction.end != nil { moves.gameOver(for: ObjectIdentifier(link)) }
    guard let request = reaction.moveWanted, reaction.end == nil, !link.connection.isClosed else { return }
    moves.ask(request, for: ObjectIdentifier(link)) { [weak self, weak link] answer in
      guard let self, let link, !link.connection.isClosed, link.seat != nil else { return }
      if case .forfeit(let text) = answer {
        self.log.write("\(link.connection.peerAddress), game \(request.ticket.gameNumber): \(text)")
      }
      guard let reaction = link.seat?.answer(answer, for: request.ticket, now: self.loop.now), !reaction.isEmpty
      else { return }
      self.react(link, reaction)
      self.watch(link)
    }
  }
}

/// Starting: the openings solved, the advertisement.
extension BotHost {
  /// Who plays for the bot, as the log and the operator are told: its level, or the engine.
  package var player: String { moves.engineName.map { "engine \($0)" } ?? "\(level)" }

  /// Solves the opening positions before anyone joins (`AIPlayer.solveOpenings`); returns the seconds it took.
  package func warmUp() -> Double {
    guard moves.engineName == nil else { return 0 }
    let start = loop.now
    ai.solveOpenings(of: rules)
    return loop.now - start
  }

  /// Announces the bot on the LAN (naming its level, none for an engine). Returns what to tell the operator when
  /// that is impossible.
  package func advertise() -> String? {
    do throws(BotAdvertisementProblem) {
      advertisement = try BotAdvertisement(
        name: profile.name, port: port, rules: rules, timeControl: timeControl, opening: opening,
        fingerprint: identity.fingerprint.description, level: moves.engineName == nil ? level : nil, loop: loop,
        log: log)
      return nil
    } catch {
      return error.message
    }
  }
}

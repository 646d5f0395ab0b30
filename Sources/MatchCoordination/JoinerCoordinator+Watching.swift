import Session
import UntrustedText
import WireProtocol

/// A spectator is a joiner whose hello asks to watch (`MatchCore.Configuration.watch`): it reaches and judges the
/// host as a joiner does, then takes the host's snapshots, moves and results into its `WatchedGame` instead of
/// playing. Either side is told how many watch.
extension JoinerCoordinator {
  public var isWatching: Bool { core.configuration.watch != nil }

  /// The count of spectators, and a spectator's messages; nil for anything else.
  mutating func watcherHolds(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]? {
    if case .watchers(let count) = message { return [.report(.spectators(Int(count)))] }
    if case .watchChat(let name, let text) = message {
      guard isWatching else { return fail(id, .session(.protocolViolation("spectators' chat to a player")), now: now) }
      return [.report(.spectatorChat(name: PeerText(name), text: PeerText(text)))]
    }
    switch message {
    case .watchSnapshot, .watchMove, .watchEnd, .watchGames, .watchRecord: break
    case .welcome, .coinCommit, .coinKept, .gameOffer:
      // A host that takes this spectator for a player (an older program): it leaves before anything is played.
      return isWatching ? leaveUnwatchable(id, now: now) : nil
    default: return nil
    }
    guard isWatching, id == core.active, let session = core.connections[id]?.session, let host = session.peerName
    else {
      return fail(id, .session(.protocolViolation("a \(message.name) to a player")), now: now)
    }
    if case .watchGames(let part) = message { return listed(part, on: id, host: host, now: now) }
    if case .watchRecord(let game, let part, let last) = message {
      return recordPart(game: game, part: part, last: last, on: id, now: now)
    }
    do throws(WatchViolation) {
      let update = try WatchedGame.after(message, watched, host: host, terms: session.hostTerms)
      switch update {
      case .position(let game), .moved(let game, _, _), .ended(let game), .unfinished(let game, _): watched = game
      }
      if case .ended(let game) = update { watchedEnded = game }
      return [.report(.watched(update))]
    } catch {
      return act(on: id, now: now) { $0.violation(error.text, now: now) }
    }
  }

  /// A part of a watched game's record (rule 28): once whole, checked and kept as the players' record, or, when
  /// it is not the game seen or its signatures do not verify, not kept and the player told why. Without records
  /// (`records = off`) it is not kept.
  private mutating func recordPart(game: UInt16, part: [UInt8], last: Bool, on id: ConnectionID, now: Double)
    -> [MatchCommand]
  {
    let whole: (Int, [UInt8])?
    do throws(WatchViolation) { whole = try watchedRecord.add(game: game, part: part, last: last) } catch {
      return act(on: id, now: now) { $0.violation(error.text, now: now) }
    }
    guard let (number, text) = whole, let records = core.records else { return [] }
    let checked = WatchedRecord.check(
      text, game: number, watched: watchedEnded, hostKey: core.connections[id]?.facts?.certificate?.fingerprint,
      sha256: core.environment.sha256, verify: { records.verifies($0, of: $1, key: $2) })
    switch checked {
    case .success(let record):
      recordsKept += 1
      return [
        .keepRecord(record, file: recordsKept), .log("kept the record of game \(number), signed by both players"),
        .report(.status("The record of game \(number), signed by both players, is kept: tictactoe games lists it.")),
      ]
    case .failure(let refusal):
      let line = "The record of game \(number) the host sent is not kept: \(refusal)."
      return [.log(line), .report(.status(line))]
    }
  }

  /// The connection to the host is over (`end`): a game still on is reported unfinished, with why, before the end.
  mutating func watcherClosed(_ end: SessionEnd) -> [MatchCommand] {
    switch end {
    case .peerQuit(let text): return unfinished(why: text)
    case .connectionLost: return unfinished(why: PeerText("the connection to the host was lost"))
    default: return unfinished(why: PeerText("\(end)"))
    }
  }

  /// A game still on is reported unfinished, with `why`.
  mutating func unfinished(why: PeerText) -> [MatchCommand] {
    guard isWatching, let game = watched, game.gameNumber > 0, game.end == nil else { return [] }
    watched = nil
    return [.report(.watched(.unfinished(game, why: why)))]
  }

  /// The host's hello has come: a spectator whose host does not say that its game may be watched leaves at once.
  mutating func watcherHeardHello(_ id: ConnectionID, now: Double) -> [MatchCommand]? {
    guard isWatching, core.connections[id]?.session?.hostTerms?.watchable != true else { return nil }
    return leaveUnwatchable(id, now: now)
  }

  private mutating func leaveUnwatchable(_ id: ConnectionID, now: Double) -> [MatchCommand] {
    guard core.finished == nil else { return [] }
    let why = "its hello does not say that its game may be watched (an older program, or its setting)"
    let end = MatchEnd.session(.refused(.notWatchable, PeerText(why)))
    core.finished = end
    core.question = nil
    route.stop()
    return [.send(id, .bye(.quit, text: "a spectator, leaving: the game may not be watched"))]
      + core.connections.close(id, graceful: true) + [
        .log("leaving \(core.peer(id)): \(why)"), .report(.finished(end)),
      ]
  }
}

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
    case .watchSnapshot, .watchMove, .watchEnd, .watchGames: break
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
    do throws(WatchViolation) {
      let update = try WatchedGame.after(message, watched, host: host, terms: session.hostTerms)
      switch update {
      case .position(let game), .moved(let game, _, _), .ended(let game), .unfinished(let game, _): watched = game
      }
      return [.report(.watched(update))]
    } catch {
      return act(on: id, now: now) { $0.violation(error.text, now: now) }
    }
  }

  /// The connection to the host is over (`end`): a game still on is reported unfinished, with why, before the end.
  mutating func watcherClosed(_ end: SessionEnd) -> [MatchCommand] {
    guard isWatching, let game = watched, game.gameNumber > 0, game.end == nil else { return [] }
    watched = nil
    let why: PeerText
    switch end {
    case .peerQuit(let text): why = text
    case .connectionLost: why = PeerText("the connection to the host was lost")
    default: why = PeerText("\(end)")
    }
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

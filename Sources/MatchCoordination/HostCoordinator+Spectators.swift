import GameRecords
import PeerTrust
import Session
import UntrustedText
import WireProtocol

/// The host's spectators (PROTOCOL.md, "Version 4: watching"): let in by the policy and the numbers without asking
/// the player, sent the game as it changes, heartbeats both ways, dropped when silent, behind or misbehaving.
/// They never reach a session: nothing they send can touch the game, and they are sent nothing of the chat.
extension HostCoordinator {
  /// What the host does with a message on `id` before any session sees it: a spectator's, or a hello asking to
  /// watch. nil: not a spectator's business.
  mutating func spectatorHolds(_ message: Message, on id: ConnectionID, now: Double) -> [MatchCommand]? {
    if spectators.contains(id) {
      guard spectators.heard(id, now: now) else {
        let text = "more than \(Spectators.messagesPerSecond) messages within a second"
        return [.send(id, .error(text: text))]
          + dropSpectator(id, note: "spectator at \(core.peer(id)) dropped: \(text)", graceful: true, now: now)
      }
      switch message {
      case .heartbeat, .deciding: return []
      // Passed on to the other spectators only: the players never see it.
      case .chat(let text): return spectators.chat(text, from: id, now: now)
      case .bye, .error: return dropSpectator(id, note: "\(core.peer(id)) stopped watching", graceful: true, now: now)
      default:
        let text = "a spectator cannot send a \(message.name)"
        return [.send(id, .error(text: text))]
          + dropSpectator(id, note: "spectator at \(core.peer(id)) dropped: \(text)", graceful: true, now: now)
      }
    }
    guard case .hello(let versions, let name, _, _, let watch?, _) = message, core.connections[id]?.phase == .greeting
    else {
      return nil
    }
    let commands = spectatorHello(id, versions: versions, game: watch, now: now)
    spectators.name(id, name)
    return commands
  }

  /// Whether there is a game a spectator on `id` may watch now, and if so nil.
  private func refusal(_ id: ConnectionID, versions: [UInt16], game: UInt16) -> Spectators.Refusal? {
    let policy = core.configuration.spectators ?? .none
    if policy == .none { return .notWatchable("its host lets nobody watch") }
    guard versions.contains(4) else { return .notWatchable("watching needs protocol version 4") }
    guard game == 0 else { return .notWatchable("this host has no game \(game), only its own (0)") }
    guard let active = core.active, let playing = core.connections[active], playing.admitted,
      let session = playing.session
    else { return .notWatchable("no game has begun here yet") }
    guard (session.version ?? 0) >= 4 else {
      return .notWatchable("the joiner's program is older and was not told that the game may be watched")
    }
    let key = core.connections[id]?.facts?.certificate?.fingerprint
    let known = key.flatMap { core.knownPeers?.lookup(fingerprint: $0) } != nil
    return spectators.refusal(policy: policy, known: known, peer: core.peer(id), exempt: limits?.exempt)
  }

  private mutating func spectatorHello(_ id: ConnectionID, versions: [UInt16], game: UInt16, now: Double)
    -> [MatchCommand]
  {
    core.connections[id]?.session = nil
    core.connections[id]?.deadline = nil
    if let refused = refusal(id, versions: versions, game: game) {
      return core.log("turned away a spectator at \(core.peer(id)): \(refused.text)", about: id, now: now)
        + [.send(id, .refuse(refused.reason, text: refused.text))] + core.connections.close(id, graceful: true)
    }
    // Those already watching are brought up to date first: from now on all were told the same.
    var commands = spectatorsAfterStep(now: now)
    core.connections[id]?.phase = .watching
    let key = core.connections[id]?.facts?.certificate?.fingerprint.description ?? "?"
    commands.append(.log("spectator at \(core.peer(id)) (\(key)) watching"))
    // The first spectator starts the pace afresh; later ones are shown what the others were.
    if spectators.told == nil || spectators.count == 0 {
      spectators.told = currentView()
      spectators.toldAt = now
      spectators.paceDue = nil
    }
    spectators.admit(id, peer: core.peer(id), now: now)
    if let view = spectators.told {
      commands += spectators.send(view.messages(after: nil, watchers: spectators.count), to: id, now: now)
    }
    return commands + spectatorCount(now: now)
  }

  /// The game as spectators see it now (nil: no game being played).
  private func currentView() -> WatchView? {
    guard let active = core.active, let connection = core.connections[active], connection.admitted,
      let session = connection.session, let key = connection.facts?.certificate?.fingerprint
    else { return nil }
    return WatchView(session: session, key: key.bytes)?.delayed(by: core.configuration.watchDelay)
  }

  /// After a step of the game: what spectators are sent of it; when the match is over or its opponent gone, a
  /// goodbye and the door.
  public mutating func spectatorsAfterStep(now: Double) -> [MatchCommand] {
    guard spectators.count > 0 else { return [] }
    guard core.finished == nil, let view = currentView(), session?.isClosed == false else {
      return spectatorsLeave(leavingWords)
    }
    // Under a watch delay, the moves held back go out at the pace they were played (`WatchPace`).
    let (paced, next) = WatchPace.paced(view, told: spectators.told, toldAt: spectators.toldAt, now: now)
    spectators.paceDue = next
    let messages = paced.messages(after: spectators.told, watchers: spectators.count)
    if paced.moves != spectators.told?.moves { spectators.toldAt = now }
    spectators.told = paced
    return spectators.toAll(messages, now: now)
  }

  /// The record of `game`, now signed by both players, to every spectator (rule 28): the host's own record, as
  /// SGF text in parts, so that a spectator keeps the players' record and `verify` checks it.
  public mutating func recordSigned(_ record: GameRecord, game: Int, now: Double) -> [MatchCommand] {
    guard spectators.count > 0, let number = UInt16(exactly: game) else { return [] }
    return spectators.toAll(Message.watchRecordFrames(game: number, text: record.sgf), now: now)
  }

  /// Why the spectators are let go, in the goodbye they are sent: who left, when the host knows.
  private var leavingWords: String {
    let joiner = spectators.told.map { VisibleText.escaping($0.joinerName) } ?? "the joiner"
    switch core.finished {
    case .session(.localQuit)?: return "the match is over: \(core.configuration.name), the host, left"
    case nil: return "the match is over: \(joiner) left"
    case let end?: return "the match is over: \(end)"
    }
  }

  /// Every spectator is told `why` and let go.
  mutating func spectatorsLeave(_ why: String) -> [MatchCommand] {
    let gone = spectators.removeAll()
    guard !gone.isEmpty else { return [] }
    return gone.flatMap { [.send($0, .bye(.quit, text: why))] + core.connections.close($0, graceful: true) }
      + [.report(.spectators(0))]
  }

  /// Whether the game being played may be watched: the host lets someone watch, and the joiner speaks version 4
  /// (an older one was never told the game may be watched).
  var gameIsWatchable: Bool {
    guard (core.configuration.spectators ?? .none) != .none, let active = core.active,
      let playing = core.connections[active], playing.admitted, !playing.isClosed
    else { return false }
    return (playing.session?.version ?? 0) >= 4
  }

  /// The players are told how many watch (the host's player by an event, the joiner by `watchers`), and so are
  /// the spectators and the LAN.
  private mutating func spectatorCount(now: Double) -> [MatchCommand] {
    let count = Message.watchers(count: UInt16(clamping: spectators.count))
    var commands: [MatchCommand] = [
      .report(.spectators(spectators.count)), .advertiseWatchers(gameIsWatchable ? spectators.count : nil),
    ]
    if let active = core.active, core.connections[active]?.isClosed == false,
      (core.connections[active]?.session?.version ?? 0) >= 4
    {
      commands.append(.send(active, count))
    }
    return commands + spectators.toAll([count], now: now)
  }

  /// Spectator `id` goes, with `note` in the log; the others and the players hear the new count.
  mutating func dropSpectator(_ id: ConnectionID, note: String, graceful: Bool, now: Double) -> [MatchCommand] {
    guard spectators.remove(id) else { return [] }
    return [.log(note)] + core.connections.close(id, graceful: graceful) + spectatorCount(now: now)
  }

  /// The shell says `queuedBytes` wait to go out to `id`: a spectator that far behind is dropped, so that it never
  /// holds the players up nor grows the host.
  public mutating func backlog(_ id: ConnectionID, queuedBytes: Int, now: Double) -> [MatchCommand] {
    guard spectators.contains(id), Spectators.isBehind(queuedBytes: queuedBytes) else { return [] }
    let note = "spectator at \(core.peer(id)) dropped: \(queuedBytes) bytes behind (at most \(Spectators.outboxLimit))"
    return dropSpectator(id, note: note, graceful: false, now: now)
  }

  /// Heartbeats to spectators, and the silent ones dropped.
  mutating func spectatorsDue(now: Double) -> [MatchCommand] {
    let (heartbeats, silent) = spectators.due(now: now)
    let seconds = Int(Spectators.silenceLimit)
    let paced = spectators.paceDue.map { $0 <= now } == true ? spectatorsAfterStep(now: now) : []
    return heartbeats + paced
      + silent.flatMap {
        dropSpectator($0, note: "spectator at \(core.peer($0)) silent for \(seconds) s", graceful: false, now: now)
      }
  }
}

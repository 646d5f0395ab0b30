import WireProtocol

/// What a host of several games (the practice bot) knows of one of them when a spectator asks for it.
public enum BotGameLookup: Equatable, Sendable {
  /// No game of that number is being played.
  case missing
  /// Its joiner speaks version 3 or older: it was never told that its game may be watched.
  case olderJoiner
  case watchable(WatchView)
}

/// What the bot's shell carries out for its spectators, in order.
public enum BotWatchCommand: Equatable, Sendable {
  /// Send these messages on the connection (its descriptor).
  case send(Int32, [Message])
  case close(Int32, graceful: Bool)
  case log(String)
  /// Tell game `game`'s player how many watch it (`watchers`, when it speaks version 4).
  case tellPlayer(game: UInt16, count: Int)
}

/// The practice bot's spectators (PROTOCOL.md, "Version 4: watching", rule 27): anyone may watch any of its games.
/// A spectator asking for game 0 is sent the list of games and let go; one asking for game N watches it, held to
/// the limits of a game's spectators (`Spectators`: 100 a game, 8 an address) and to 8 an address over all the
/// bot's games, with the limits' exemptions. Pure: the shell gives the games, the time and the outboxes.
public struct BotSpectators {
  private var games: [UInt16: Spectators] = [:]
  /// Each spectator's game and its counted address (`SourceAddress.counted`).
  private var watching: [Int32: (game: UInt16, address: String)] = [:]

  public init() {}

  public var count: Int { watching.count }
  public func isSpectator(_ fd: Int32) -> Bool { watching[fd] != nil }
  public func count(of game: UInt16) -> Int {
    // Asked after every move of every game: with nobody watching anything, no key is hashed.
    games.isEmpty ? 0 : games[game]?.count ?? 0
  }
  /// The games someone watches.
  public var watchedGames: [UInt16] { Array(games.keys) }

  /// A spectator on `fd` from `peer` says hello, listing `versions` and asking for `game` (0: the list, `list`).
  public mutating func hello(
    _ fd: Int32, versions: [UInt16], game: UInt16, peer: String, exempt: DenyList?, now: Double,
    list: () -> (games: [ListedGame], total: Int), lookup: (UInt16) -> BotGameLookup
  ) -> [BotWatchCommand] {
    guard versions.contains(4) else { return refuse(fd, .notWatchable("watching needs protocol version 4"), peer) }
    if game == 0 {
      let (listed, total) = list()
      let bye = Message.bye(.quit, text: "pick a game and watch it: tictactoe watch ADDRESS --game N")
      return [.send(fd, GameListPart.frames(listed, total: total) + [bye]), .close(fd, graceful: true)]
    }
    let view: WatchView
    switch lookup(game) {
    case .missing:
      let why = "there is no game \(game) here now (`tictactoe watch ADDRESS` lists the games)"
      return refuse(fd, .notWatchable(why), peer)
    case .olderJoiner:
      return refuse(fd, .notWatchable("the joiner's program is older and was not told that it may be watched"), peer)
    case .watchable(let found): view = found
    }
    var spectators = games[game] ?? Spectators()
    if let refusal = spectators.refusal(policy: .anyone, known: false, peer: peer, exempt: exempt) {
      return refuse(fd, refusal, peer)
    }
    let address = SourceAddress.counted(peer)
    if watching.values.filter({ $0.address == address }).count >= Spectators.perAddress, exempt?.refuses(peer) != true {
      return refuse(fd, .tooMany("from one address (at most \(Spectators.perAddress))"), peer)
    }
    // Those already watching are brought up to date first: from now on all were told the same.
    var commands = Self.commands(
      spectators.toAll(view.messages(after: spectators.told, watchers: spectators.count), now: now))
    spectators.told = view
    spectators.admit(ConnectionID(value: Int(fd)), peer: peer, now: now)
    watching[fd] = (game, address)
    commands.append(.log("spectator at \(peer) watching game \(game)"))
    commands += Self.commands(
      spectators.send(view.messages(after: nil, watchers: spectators.count), to: ConnectionID(value: Int(fd)), now: now)
    )
    games[game] = spectators
    return commands + counted(game, now: now)
  }

  private func refuse(_ fd: Int32, _ refusal: Spectators.Refusal, _ peer: String) -> [BotWatchCommand] {
    [
      .log("turned away a spectator at \(peer): \(refusal.text)"),
      .send(fd, [.refuse(refusal.reason, text: refusal.text)]), .close(fd, graceful: true),
    ]
  }

  /// Game `game` changed (the player's move, the bot's, a result, a rematch): what its spectators are sent. nil
  /// `view`: the game is over for good (its joiner left), and its spectators are told so and let go.
  public mutating func after(_ game: UInt16, view: WatchView?, now: Double) -> [BotWatchCommand] {
    guard var spectators = games[game] else { return [] }
    guard let view else { return gameGone(game) }
    let messages = view.messages(after: spectators.told, watchers: spectators.count)
    spectators.told = view
    defer { games[game] = spectators }
    return Self.commands(spectators.toAll(messages, now: now))
  }

  /// The record of the game numbered `game` on its connection, signed by both players, to the spectators of the
  /// bot's game `number` (rule 28): the SGF text in parts.
  public mutating func record(_ number: UInt16, game: UInt16, sgf: String, now: Double) -> [BotWatchCommand] {
    guard var spectators = games[number] else { return [] }
    defer { games[number] = spectators }
    return Self.commands(spectators.toAll(Message.watchRecordFrames(game: game, text: sgf), now: now))
  }

  /// Every spectator of `game` is told the match is over and let go.
  private mutating func gameGone(_ game: UInt16) -> [BotWatchCommand] {
    guard var spectators = games.removeValue(forKey: game) else { return [] }
    let gone = spectators.removeAll().map { Int32($0.value) }
    for fd in gone { watching[fd] = nil }
    return gone.flatMap { [.send($0, [.bye(.quit, text: "the match is over")]), .close($0, graceful: true)] }
  }

  /// The bot stops: every spectator is told and let go.
  public mutating func shutDown(text: String) -> [BotWatchCommand] {
    let all = watching.keys.sorted()
    games = [:]
    watching = [:]
    return all.flatMap { [.send($0, [.bye(.shuttingDown, text: text)]), .close($0, graceful: true)] }
  }

  /// A message from spectator `fd`: a heartbeat, `deciding` or chat is nothing; a goodbye lets it go; anything else,
  /// or a flood, is a violation that ends only its connection.
  public mutating func received(_ message: Message, from fd: Int32, peer: String, now: Double) -> [BotWatchCommand] {
    guard let (game, _) = watching[fd], var spectators = games[game] else { return [] }
    let flooding = !spectators.heard(ConnectionID(value: Int(fd)), now: now)
    games[game] = spectators
    let text: String
    if flooding {
      text = "more than \(Spectators.messagesPerSecond) messages within a second"
    } else {
      switch message {
      case .heartbeat, .deciding, .chat: return []
      case .bye, .error: return drop(fd, note: "\(peer) stopped watching game \(game)", graceful: true, now: now)
      default: text = "a spectator cannot send a \(message.name)"
      }
    }
    return [.send(fd, [.error(text: text)])]
      + drop(fd, note: "spectator at \(peer) dropped: \(text)", graceful: true, now: now)
  }

  /// Spectator `fd` goes (its connection ended, or it broke the rules), with `note` in the log when there is one;
  /// the others of its game and its player hear the new count.
  public mutating func drop(_ fd: Int32, note: String?, graceful: Bool, now: Double) -> [BotWatchCommand] {
    guard let (game, _) = watching.removeValue(forKey: fd), var spectators = games[game] else { return [] }
    spectators.remove(ConnectionID(value: Int(fd)))
    games[game] = spectators.count == 0 ? nil : spectators
    return (note.map { [.log($0)] } ?? []) + [.close(fd, graceful: graceful)] + counted(game, now: now)
  }

  /// `queuedBytes` wait to go out to `fd`: a spectator that far behind is dropped, so that it never slows the bot.
  public mutating func backlog(_ fd: Int32, queuedBytes: Int, peer: String, now: Double) -> [BotWatchCommand] {
    guard watching[fd] != nil, Spectators.isBehind(queuedBytes: queuedBytes) else { return [] }
    let note = "spectator at \(peer) dropped: \(queuedBytes) bytes behind (at most \(Spectators.outboxLimit))"
    return drop(fd, note: note, graceful: false, now: now)
  }

  /// Heartbeats to spectators sent nothing for a while, and the silent ones dropped.
  public mutating func due(now: Double) -> [BotWatchCommand] {
    var commands: [BotWatchCommand] = []
    for game in games.keys.sorted() {
      guard var spectators = games[game] else { continue }
      let (heartbeats, silent) = spectators.due(now: now)
      games[game] = spectators
      commands += Self.commands(heartbeats)
      for id in silent {
        let note = "a spectator of game \(game) silent for \(Int(Spectators.silenceLimit)) s"
        commands += drop(Int32(id.value), note: note, graceful: false, now: now)
      }
    }
    return commands
  }

  /// Game `game`'s spectators and its player are told how many watch.
  private mutating func counted(_ game: UInt16, now: Double) -> [BotWatchCommand] {
    let count = games[game]?.count ?? 0
    guard var spectators = games[game] else { return [.tellPlayer(game: game, count: 0)] }
    defer { games[game] = spectators }
    let told = spectators.toAll([.watchers(count: UInt16(clamping: count))], now: now)
    return [.tellPlayer(game: game, count: count)] + Self.commands(told)
  }

  private static func commands(_ matchCommands: [MatchCommand]) -> [BotWatchCommand] {
    var result: [BotWatchCommand] = []
    for case .send(let id, let message) in matchCommands {
      if case .send(let fd, let messages) = result.last, fd == Int32(id.value) {
        result[result.count - 1] = .send(fd, messages + [message])
      } else {
        result.append(.send(Int32(id.value), [message]))
      }
    }
    return result
  }
}

import WireProtocol

/// Who may watch a host's games (the setting `spectators`; PROTOCOL.md, "Version 4: watching").
public enum SpectatorPolicy: String, Sendable, Equatable, CaseIterable {
  /// Any key (the default): spectators cannot change the game, and the players are told how many watch.
  case anyone
  /// Only keys in known_peers.
  case known
  /// Nobody: the terms say the game may not be watched.
  case none
}

/// The spectators of a host's game: who is let in (the policy, at most `perGame`, at most `perAddress` from an
/// address the limits do not exempt), when each was last heard and sent to, and whether one fell behind. Pure:
/// the coordinator gives the time, the shell the bytes still queued for a spectator.
public struct Spectators {
  public static let perGame = 100
  public static let perAddress = 8
  /// Bytes still queued for one spectator (its outbox) past which it is dropped: a snapshot is one frame of at
  /// most 4 KiB, a move 16 bytes, so an honest spectator never holds more than a few frames.
  public static let outboxLimit = 64 * 1024
  /// As between players (PROTOCOL.md rule 9): a heartbeat after 3 s of sending nothing, gone after 10 s of silence.
  public static let heartbeatInterval = 3.0
  public static let silenceLimit = 10.0
  /// A spectator sends heartbeats (one every 3 s): more than this many messages within a second is a flood, as
  /// between players (rule 9), and drops it.
  public static let messagesPerSecond = 20
  /// A spectator's chat is passed on to the other spectators at most this many times in `chatWindow` seconds;
  /// what it says beyond that is dropped (a line in the host's log once a window).
  public static let chatsPerWindow = 5
  public static let chatWindow = 10.0

  struct Watcher {
    let address: String
    /// The name its hello gave (checked as every hello's).
    var name = ""
    /// When its latest chats came (within `chatWindow`), and whether it was told that it says too much.
    var chats: [Double] = []
    var toldTooMuch = false
    var lastSent: Double
    var lastHeard: Double
    /// The second the spectator's messages are being counted in, and how many came in it.
    var second = 0.0
    var heardInSecond = 0
  }

  private var watchers: [ConnectionID: Watcher] = [:]
  /// The spectators in the order they came: messages go out in it.
  public private(set) var ids: [ConnectionID] = []
  /// What the spectators were last told (nil: nothing yet).
  var told: WatchView?
  /// When the host's spectators were last told a move (a watch delay's pace counts from it, `WatchPace`).
  var toldAt = 0.0
  /// When a move held back by that pace is due to go out (nil: none).
  var paceDue: Double?

  public init() {}

  public var count: Int { ids.count }
  public func contains(_ id: ConnectionID) -> Bool { watchers[id] != nil }

  /// Why a spectator is turned away, as its `refuse` says it.
  public enum Refusal: Equatable, Sendable {
    case notWatchable(String)
    case notKnown
    case tooMany(String)

    public var reason: RefusalReason {
      switch self {
      case .notWatchable: return .notWatchable
      case .notKnown: return .notKnown
      case .tooMany: return .tooManySpectators
      }
    }

    public var text: String {
      switch self {
      case .notWatchable(let why): return "this game may not be watched: \(why)"
      case .notKnown: return "only players this host knows may watch"
      case .tooMany(let why): return "too many spectators \(why)"
      }
    }
  }

  /// Whether a spectator from `peer` may watch now: the policy (`known`: whether its key is in known_peers), then
  /// the numbers. An address in `exempt` (the limits' exemptions) is not held to `perAddress`.
  public func refusal(policy: SpectatorPolicy, known: Bool, peer: String, exempt: DenyList?) -> Refusal? {
    switch policy {
    case .none: return .notWatchable("its host lets nobody watch")
    case .known where !known: return .notKnown
    default: break
    }
    guard count < Self.perGame else { return .tooMany("(at most \(Self.perGame) a game)") }
    let address = SourceAddress.counted(peer)
    let fromThere = watchers.values.filter { $0.address == address }.count
    if fromThere >= Self.perAddress, exempt?.refuses(peer) != true {
      return .tooMany("from one address (at most \(Self.perAddress))")
    }
    return nil
  }

  public mutating func admit(_ id: ConnectionID, peer: String, now: Double) {
    guard watchers[id] == nil else { return }
    watchers[id] = Watcher(address: SourceAddress.counted(peer), lastSent: now, lastHeard: now)
    ids.append(id)
  }

  /// The name spectator `id` goes by in its chat.
  public mutating func name(_ id: ConnectionID, _ name: String) { watchers[id]?.name = name }

  /// Spectator `id` says `text` at `now`: the `watch chat` to every other spectator, or nothing when it said
  /// `chatsPerWindow` things within `chatWindow` already (then, once a window, a line in the log).
  public mutating func chat(_ text: String, from id: ConnectionID, now: Double) -> [MatchCommand] {
    guard var watcher = watchers[id] else { return [] }
    watcher.chats.removeAll { $0 + Self.chatWindow <= now }
    guard watcher.chats.count < Self.chatsPerWindow else {
      let told = watcher.toldTooMuch
      watcher.toldTooMuch = true
      watchers[id] = watcher
      let note = "a spectator's chat beyond \(Self.chatsPerWindow) in \(Int(Self.chatWindow)) s is not passed on"
      return told ? [] : [.log(note)]
    }
    watcher.chats.append(now)
    watcher.toldTooMuch = false
    watchers[id] = watcher
    let said = Message.watchChat(name: watcher.name, text: text)
    return ids.filter { $0 != id }.flatMap { send([said], to: $0, now: now) }
  }

  /// Forgets `id`: whether it was a spectator.
  @discardableResult
  public mutating func remove(_ id: ConnectionID) -> Bool {
    guard watchers.removeValue(forKey: id) != nil else { return false }
    ids.removeAll { $0 == id }
    return true
  }

  public mutating func removeAll() -> [ConnectionID] {
    defer {
      watchers = [:]
      ids = []
      told = nil
      paceDue = nil
    }
    return ids
  }

  /// A message from spectator `id` at `now`: whether it is within `messagesPerSecond` (false: a flood).
  public mutating func heard(_ id: ConnectionID, now: Double) -> Bool {
    guard var watcher = watchers[id] else { return true }
    watcher.lastHeard = now
    if now - watcher.second >= 1 { (watcher.second, watcher.heardInSecond) = (now, 0) }
    watcher.heardInSecond += 1
    watchers[id] = watcher
    return watcher.heardInSecond <= Self.messagesPerSecond
  }

  /// `messages` to spectator `id`.
  public mutating func send(_ messages: [Message], to id: ConnectionID, now: Double) -> [MatchCommand] {
    guard watchers[id] != nil, !messages.isEmpty else { return [] }
    watchers[id]?.lastSent = now
    return messages.map { .send(id, $0) }
  }

  /// `messages` to every spectator.
  public mutating func toAll(_ messages: [Message], now: Double) -> [MatchCommand] {
    ids.flatMap { send(messages, to: $0, now: now) }
  }

  /// At `now`: heartbeats to spectators sent nothing for `heartbeatInterval`, and the spectators silent for
  /// `silenceLimit` (to drop).
  public mutating func due(now: Double) -> (heartbeats: [MatchCommand], silent: [ConnectionID]) {
    let silent = ids.filter { (watchers[$0]?.lastHeard ?? now) + Self.silenceLimit <= now }
    let quiet = ids.filter { !silent.contains($0) && (watchers[$0]?.lastSent ?? now) + Self.heartbeatInterval <= now }
    return (quiet.flatMap { send([.heartbeat], to: $0, now: now) }, silent)
  }

  public var nextDeadline: Double? {
    (watchers.values.flatMap { [$0.lastSent + Self.heartbeatInterval, $0.lastHeard + Self.silenceLimit] }
      + (watchers.isEmpty ? [] : [paceDue].compactMap { $0 })).min()
  }

  /// Whether a spectator with `queuedBytes` still waiting to go out has fallen behind (and is dropped).
  public static func isBehind(queuedBytes: Int) -> Bool { queuedBytes > outboxLimit }
}

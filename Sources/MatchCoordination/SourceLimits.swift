/// What one source address, and one key, may do at a host reachable from the internet, so that an abuser
/// reconnecting again and again cannot crowd out honest players or grow the host: connections at once and new
/// connections per address, new keys per address and in all, games per key and per address. Pure: the caller
/// gives the time and says when a connection closes. Addresses are counted as `SourceAddress` (IPv6 by /64).
/// The addresses in `exempt` (by default 127.0.0.1 and ::1: the machine's own players, tests and benchmarks)
/// are not limited; `deny` is refused before anything else.
public struct SourceLimits {
  /// The numbers (docs/SECURITY.md, "Limits and timeouts").
  public struct Numbers: Equatable, Sendable {
    public init() {}
    /// Connections open at once from one address.
    public var connectionsPerAddress = 32
    /// New connections from one address: a burst, then this many a second.
    public var connectionBurst = 32.0
    public var connectionsPerSecond = 2.0
    /// New keys (players never seen before) from one address: a burst, then this many a minute.
    public var newKeyBurst = 5.0
    public var newKeysPerMinute = 5.0
    /// New keys from everywhere together (each one is a line appended to known_peers).
    public var allNewKeysBurst = 60.0
    public var allNewKeysPerSecond = 10.0
    /// Games started (the first one of a connection or a rematch) per key and per address: a burst, then
    /// this many a minute. A 3×3 game against the bot takes a person several seconds.
    public var gameBurst = 30.0
    public var gamesPerMinute = 20.0
  }

  /// Why a connection, a new key or a game is refused.
  public enum Refusal: Equatable, Sendable, CustomStringConvertible {
    case denied
    case tooManyConnections(Int)
    case connectingTooOften
    case tooManyNewKeys
    case tooManyGames(wait: Int)

    public var description: String {
      switch self {
      case .denied: return "the address is on the deny list"
      case .tooManyConnections(let limit): return "more than \(limit) connections at once from one address"
      case .connectingTooOften: return "too many new connections from one address"
      case .tooManyNewKeys: return "too many new players from one address, or in all; try again in a minute"
      case .tooManyGames(let wait): return "too many games in a short time; the next one can start in \(wait) s"
      }
    }
  }

  public private(set) var numbers: Numbers
  public private(set) var deny: DenyList
  public private(set) var exempt: DenyList
  private var open: [SourceAddress: Int] = [:]
  private var connections: TokenBuckets<SourceAddress>
  private var newKeys: TokenBuckets<SourceAddress>
  private var allNewKeys: TokenBucket
  private var gamesByKey: TokenBuckets<String>
  private var gamesByAddress: TokenBuckets<SourceAddress>

  /// The loopback addresses a local client connects from.
  public static let loopback: DenyList = (try? DenyList(parsing: "127.0.0.1, ::1")) ?? DenyList()

  public init(
    numbers: Numbers = Numbers(), deny: DenyList = DenyList(), exempt: DenyList = SourceLimits.loopback, now: Double
  ) {
    self.numbers = numbers
    self.deny = deny
    self.exempt = exempt
    connections = TokenBuckets(rate: numbers.connectionsPerSecond, burst: numbers.connectionBurst)
    newKeys = TokenBuckets(rate: numbers.newKeysPerMinute / 60, burst: numbers.newKeyBurst)
    allNewKeys = TokenBucket(rate: numbers.allNewKeysPerSecond, burst: numbers.allNewKeysBurst, now: now)
    gamesByKey = TokenBuckets(rate: numbers.gamesPerMinute / 60, burst: numbers.gameBurst)
    gamesByAddress = TokenBuckets(rate: numbers.gamesPerMinute / 60, burst: numbers.gameBurst)
  }

  /// A connection from `peer` (an address as the sockets write it) was accepted: nil lets it stay (it is then
  /// counted until `disconnected`), a refusal means close it at once.
  public mutating func connected(_ peer: String, now: Double) -> Refusal? {
    if deny.refuses(peer) { return .denied }
    guard let address = limited(peer) else { return nil }
    if open[address, default: 0] >= numbers.connectionsPerAddress {
      return .tooManyConnections(numbers.connectionsPerAddress)
    }
    guard connections.take(address, now: now) else { return .connectingTooOften }
    open[address, default: 0] += 1
    return nil
  }

  /// A connection `connected` let stay has closed.
  public mutating func disconnected(_ peer: String) {
    guard let address = limited(peer), let count = open[address] else { return }
    open[address] = count > 1 ? count - 1 : nil
  }

  /// Connections counted as open from `peer`'s address.
  public func openConnections(from peer: String) -> Int { limited(peer).map { open[$0, default: 0] } ?? 0 }

  /// A key never seen before arrived from `peer`: nil lets it in (and counts it).
  public mutating func newKey(from peer: String, now: Double) -> Refusal? {
    guard let address = limited(peer) else { return nil }
    guard newKeys.allows(address, now: now), allNewKeys.allows(now: now) else { return .tooManyNewKeys }
    _ = newKeys.take(address, now: now)
    _ = allNewKeys.take(now: now)
    return nil
  }

  /// A peer's address (as the sockets write it) read once, for the games of its connection: a practice bot asks
  /// before every game, thousands a second, and reading the text each time was 1.7 % of its time (measured).
  /// Whether it is exempt is still decided at each game, by the exempt addresses of the moment.
  public struct Peer: Sendable {
    /// The whole address (`SourceAddress.parse`); nil when the text is not an address.
    let whole: [UInt8]?
    let address: SourceAddress?

    public init(_ peer: String) {
      whole = SourceAddress.parse(peer)
      address = whole.map(SourceAddress.init(whole:))
    }
  }

  /// A game is to start for `key` (a fingerprint) connected from `peer`: nil lets it start (and counts it
  /// against both), else how long until one may.
  public mutating func game(key: String, from peer: String, now: Double) -> Refusal? {
    game(key: key, from: Peer(peer), now: now)
  }

  /// `game(key:from:now:)` for a peer whose address was read before.
  public mutating func game(key: String, from peer: Peer, now: Double) -> Refusal? {
    guard let address = gamesCounted(peer) else { return nil }
    guard gamesByKey.allows(key, now: now), gamesByAddress.allows(address, now: now) else {
      let wait = max(gamesByKey.wait(key, now: now), gamesByAddress.wait(address, now: now))
      return .tooManyGames(wait: max(1, Int(wait.rounded(.up))))
    }
    _ = gamesByKey.take(key, now: now)
    _ = gamesByAddress.take(address, now: now)
    return nil
  }

  /// A game counted by `game(key:from:now:)` was not played after all (the bot offered it and the joiner went):
  /// it is given back to both limits.
  public mutating func gameNotPlayed(key: String, from peer: String, now: Double) {
    guard let address = gamesCounted(Peer(peer)) else { return }
    gamesByKey.giveBack(key, now: now)
    gamesByAddress.giveBack(address, now: now)
  }

  /// The deny list, the exempt addresses and the connections allowed at once per address, read again (SIGHUP
  /// at the bot): what was counted so far stays counted, so nobody gets a fresh burst, and the connections open
  /// stay open; the new values judge what comes next. An address that is now exempt forgets its open count (its
  /// connections will not be counted out); one that no longer is starts from none open.
  public mutating func reread(deny: DenyList, exempt: DenyList, connectionsPerAddress: Int) {
    self.deny = deny
    self.exempt = exempt
    numbers.connectionsPerAddress = connectionsPerAddress
    // An IPv6 /64 is matched as its address with the interface part zero.
    let whole = { (address: SourceAddress) in
      address.bytes.count == 8 ? address.bytes + [UInt8](repeating: 0, count: 8) : address.bytes
    }
    open = open.filter { address, _ in !exempt.prefixes.contains { $0.contains(whole(address)) } }
  }

  /// The address `peer`'s games are counted under; nil when it is exempt (or not an address).
  private func gamesCounted(_ peer: Peer) -> SourceAddress? {
    guard let whole = peer.whole, !exempt.refuses(whole: whole) else { return nil }
    return peer.address
  }

  /// The address `peer` is counted under; nil when it is exempt (or not an address).
  private func limited(_ peer: String) -> SourceAddress? {
    exempt.refuses(peer) ? nil : SourceAddress(peer)
  }
}

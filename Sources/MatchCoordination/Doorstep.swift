/// Connections a host accepted while its pending connections were at their cap (`PendingHandshakes`), held at
/// the door without a TLS context (a socket and a few bytes of kernel buffer each) until they speak. The
/// host keeps accepting: the kernel's listen queue never fills behind a flood of silent connections, so a real
/// joiner's connection is taken at once instead of being dropped by the kernel (issue 25, item 6). A real
/// joiner sends its TLS hello as soon as it is connected: it speaks within a round trip and goes in, oldest
/// first, as soon as a pending place is free; a connection silent for `silence` seconds is closed.
///
/// Bounded: at most `cap` at the door (the oldest silent one, else the oldest, makes room for a new one) and
/// `perAddress` from one address (its own oldest makes room); one that spoke waits at most `patience` seconds
/// for a place. Pure: the shell holds the sockets by `Key`.
public struct Doorstep<Key: Hashable> {
  public struct Waiting: Equatable {
    public let key: Key
    public let address: String
    public let since: Double
    public var spoke = false
  }

  public let cap: Int
  public let perAddress: Int
  /// Seconds a connection at the door may stay silent.
  public let silence: Double
  /// Seconds one that spoke waits for a pending place before it is turned away: as long as a handshake may take
  /// (a joiner gives up then), so a joiner behind a flood that speaks too waits its turn as it did in the
  /// kernel's listen queue.
  public let patience: Double

  public init(
    cap: Int = 2048, perAddress: Int = 32, silence: Double = 1.0,
    patience: Double = PendingHandshakes.handshakeTimeout
  ) {
    (self.cap, self.perAddress, self.silence, self.patience) = (cap, perAddress, silence, patience)
  }

  /// In the order they were accepted.
  public private(set) var waiting: [Waiting] = []
  /// How many wait from each address, and how many of all spoke (kept as they change: the shell asks for each
  /// connection it accepts, hundreds a turn under a flood).
  private var fromAddress: [String: Int] = [:]
  private var spokenCount = 0

  public var count: Int { waiting.count }

  /// Those still silent: the shell watches them for their first bytes. Asked every turn of a host's loop: a
  /// closure, not `map(\.key)`, whose key path into this generic type was built at run time on every call (1.8 %
  /// of a busy practice bot's time, measured).
  public var silent: [Key] { waiting.compactMap { $0.spoke ? nil : $0.key } }

  /// A connection accepted at the door; the ones to close to make room for it.
  public mutating func arrived(_ key: Key, from address: String, now: Double) -> [Key] {
    var closed: [Key] = []
    if fromAddress[address, default: 0] >= perAddress, let oldest = waiting.firstIndex(where: { $0.address == address })
    {
      closed.append(take(at: oldest).key)
    }
    if waiting.count >= cap, let index = waiting.firstIndex(where: { !$0.spoke }) ?? waiting.indices.first {
      closed.append(take(at: index).key)
    }
    waiting.append(Waiting(key: key, address: address, since: now))
    fromAddress[address, default: 0] += 1
    return closed
  }

  /// `key` sent its first bytes: it goes in at the next free place. `address`: where its first bytes say it
  /// comes from (a trusted proxy's header names its client), counted from now on instead of where it was accepted
  /// from, so each of a proxy's clients has its own turn.
  public mutating func spoke(_ key: Key, from address: String? = nil) {
    guard let index = waiting.firstIndex(where: { $0.key == key }), !waiting[index].spoke else { return }
    waiting[index].spoke = true
    spokenCount += 1
    guard let address, address != waiting[index].address else { return }
    let old = waiting[index].address
    fromAddress[old, default: 1] -= 1
    if fromAddress[old] == 0 { fromAddress[old] = nil }
    waiting[index] = Waiting(key: key, address: address, since: waiting[index].since, spoke: true)
    fromAddress[address, default: 0] += 1
  }

  /// `key` closed while at the door.
  public mutating func remove(_ key: Key) {
    if let index = waiting.firstIndex(where: { $0.key == key }) { take(at: index) }
  }

  /// Takes the one at `index` off the door.
  @discardableResult
  private mutating func take(at index: Int) -> Waiting {
    let entry = waiting.remove(at: index)
    fromAddress[entry.address, default: 1] -= 1
    if fromAddress[entry.address] == 0 { fromAddress[entry.address] = nil }
    if entry.spoke { spokenCount -= 1 }
    return entry
  }

  /// The next that spoke, taken off the door to go in: from the address with the fewest connections already in
  /// (`busy`, by the door's addresses), the oldest of those. So a flood from many addresses whose connections
  /// speak too (they finish TLS, then fall silent) does not queue a newcomer from another address behind all
  /// of its own: each address has its turn.
  public mutating func nextIn(busy: [String: Int] = [:]) -> (key: Key, address: String)? {
    var index: Int?
    var fewest = Int.max
    for (position, entry) in waiting.enumerated() where entry.spoke {
      let count = busy[entry.address, default: 0]
      if count < fewest { (index, fewest) = (position, count) }
      if count == 0 { break }
    }
    guard let index else { return nil }
    let next = take(at: index)
    return (next.key, next.address)
  }

  /// Whether one that spoke is waiting for a place.
  public var anyoneSpoke: Bool { spokenCount > 0 }

  /// The ones whose time at the door is over at `now` (silent too long, or waited too long for a place), taken off.
  public mutating func expire(now: Double) -> [Key] {
    var over: [Key] = []
    var index = 0
    while index < waiting.count {
      if now >= end(of: waiting[index]) { over.append(take(at: index).key) } else { index += 1 }
    }
    return over
  }

  /// Those still silent whose silence is over at `now`: the shell looks once more whether they spoke before
  /// `expire` closes them.
  public func silentOverdue(now: Double) -> [Key] {
    waiting.compactMap { !$0.spoke && now >= end(of: $0) ? $0.key : nil }
  }

  /// When the next one's time at the door is over.
  public var nextDeadline: Double? { waiting.map(end(of:)).min() }

  private func end(of entry: Waiting) -> Double { entry.since + (entry.spoke ? patience : silence) }
}

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
struct Doorstep<Key: Hashable> {
  struct Waiting: Equatable {
    let key: Key
    let address: String
    let since: Double
    var spoke = false
  }

  var cap = 2048
  var perAddress = 32
  /// Seconds a connection at the door may stay silent.
  var silence = 1.0
  /// Seconds one that spoke waits for a pending place before it is turned away: as long as a handshake may take
  /// (a joiner gives up then), so a joiner behind a flood that speaks too waits its turn as it did in the
  /// kernel's listen queue.
  var patience = PendingHandshakes.handshakeTimeout

  /// In the order they were accepted.
  private(set) var waiting: [Waiting] = []

  var count: Int { waiting.count }

  /// Those still silent: the shell watches them for their first bytes.
  var silent: [Key] { waiting.filter { !$0.spoke }.map(\.key) }

  /// A connection accepted at the door; the ones to close to make room for it.
  mutating func arrived(_ key: Key, from address: String, now: Double) -> [Key] {
    var closed: [Key] = []
    let fromThere = waiting.filter { $0.address == address }
    if fromThere.count >= perAddress, let oldest = fromThere.first {
      closed.append(oldest.key)
      waiting.removeAll { $0.key == oldest.key }
    }
    if waiting.count >= cap, let index = waiting.firstIndex(where: { !$0.spoke }) ?? waiting.indices.first {
      closed.append(waiting.remove(at: index).key)
    }
    waiting.append(Waiting(key: key, address: address, since: now))
    return closed
  }

  /// `key` sent its first bytes: it goes in at the next free place.
  mutating func spoke(_ key: Key) {
    if let index = waiting.firstIndex(where: { $0.key == key }) { waiting[index].spoke = true }
  }

  /// `key` closed while at the door.
  mutating func remove(_ key: Key) {
    waiting.removeAll { $0.key == key }
  }

  /// The oldest that spoke, taken off the door to go in.
  mutating func nextIn() -> (key: Key, address: String)? {
    guard let index = waiting.firstIndex(where: \.spoke) else { return nil }
    let next = waiting.remove(at: index)
    return (next.key, next.address)
  }

  /// Whether one that spoke is waiting for a place.
  var anyoneSpoke: Bool { waiting.contains(where: \.spoke) }

  /// The ones whose time at the door is over at `now` (silent too long, or waited too long for a place), taken off.
  mutating func expire(now: Double) -> [Key] {
    let over = waiting.filter { now >= end(of: $0) }.map(\.key)
    let gone = Set(over)
    waiting.removeAll { gone.contains($0.key) }
    return over
  }

  /// When the next one's time at the door is over.
  var nextDeadline: Double? { waiting.map(end(of:)).min() }

  private func end(of entry: Waiting) -> Double { entry.since + (entry.spoke ? patience : silence) }
}

import Glibc
import Transport

/// The bot's door: its listening sockets and who comes in through them. The cap on connections still setting
/// up (`PendingHandshakes`), the limits per source address and the deny list (`SourceLimits`) and a pause after
/// the process ran out of descriptors decide; a connection refused is closed at once, before TLS, and logged a
/// few times a minute per address (`PerAddressLog`).
final class BotDoor {
  /// A connection let in: its descriptor, the peer's address, and whether the oldest pending connection must
  /// be dropped first to make room.
  struct Entry {
    let fd: Int32
    let peer: String
    let dropOldest: Bool
  }

  private(set) var listeners: [Int32] = []
  private(set) var port: UInt16 = 0
  /// What one address and one key may do: connections here, new keys and games for the bot to ask.
  var limits: SourceLimits
  private var pendingLimit = PendingHandshakes.bot
  private var refusals = PerAddressLog()
  /// Accepting stops until then after the process ran out of descriptors.
  private var pausedUntil = 0.0
  private let log: Log

  init(limits: SourceLimits, log: Log) {
    self.limits = limits
    self.log = log
  }

  deinit { close() }

  func listen(bind: String?, port: UInt16, backlog: Int32) throws(NetworkError) {
    listeners = try Sockets.listen(bind: bind, port: port, backlog: backlog)
    self.port = listeners.first.map(Sockets.localPort) ?? port
  }

  /// Whether a connection may come in now, with `pending` connections setting up, the oldest since `oldest`
  /// (the listeners are watched only then, so a full house does not wake the loop for nothing).
  func isOpen(pending: Int, oldest: Double?, now: Double) -> Bool {
    now >= pausedUntil && pendingLimit.decide(pending: pending, oldest: oldest, now: now) != .wait
  }

  /// The next connection waiting on `listener` that may come in (those refused on the way are closed), or nil
  /// when none is waiting or the door is shut for now. At most `tries` are taken from the queue.
  func next(on listener: Int32, pending: Int, oldest: Double?, now: Double, tries: Int) -> Entry? {
    for _ in 0..<tries {
      let decision = pendingLimit.decide(pending: pending, oldest: oldest, now: now)
      guard decision != .wait, now >= pausedUntil else { return nil }
      guard let (fd, peer) = Sockets.accept(listener) else {
        if errno == EMFILE || errno == ENFILE {
          log.write("out of file descriptors: not accepting for a second")
          pausedUntil = now + 1
        }
        return nil
      }
      if let refusal = limits.connected(peer, now: now) {
        Glibc.close(fd)
        if let line = refusals.line("refused a connection from \(peer): \(refusal)", about: peer, now: now) {
          log.write(line)
        }
        continue
      }
      return Entry(fd: fd, peer: peer, dropOldest: decision == .dropOldestThenAccept)
    }
    return nil
  }

  /// A connection `next` let in has closed.
  func left(_ peer: String) { limits.disconnected(peer) }

  /// Closes the listeners (the caller stops watching them first).
  func close() {
    for fd in listeners { Glibc.close(fd) }
    listeners = []
  }
}

import EventLoop
import Glibc
import Transport

/// A host's listening side: its listening sockets, accepting at most `acceptsPerRound` a turn, and its door
/// (`HostDoor`) for what is accepted while the pending connections are at their cap. What goes in is handed to
/// `admit` (the match gives it a TLS connection); whether there is a place is `mayAccept`'s to say (the
/// coordinator's `PendingHandshakes`).
final class HostListener {
  /// At most this many connections are accepted in one turn of the loop, so a flood waiting in the listen
  /// queue does not keep the loop from the connections it has.
  static let acceptsPerRound = 32
  /// Joiners the kernel queues until the loop accepts them (the bot's is larger still).
  static let listenBacklog: Int32 = 1024

  private(set) var sockets: [Int32]
  let port: UInt16
  private let door: HostDoor

  /// Listens on `bind` (nil: every address) and `port` (0: one the system picks).
  init(bind: String?, port: UInt16, log: Log) throws(NetworkError) {
    sockets = try Sockets.listen(bind: bind, port: port, backlog: HostListener.listenBacklog)
    self.port = sockets.first.map(Sockets.localPort) ?? port
    door = HostDoor(log: log)
  }

  deinit { close() }

  /// The listening sockets and those at the door still silent, for the loop to watch.
  func descriptors(owner: ObjectIdentifier) -> [DescriptorSync.Want] {
    sockets.map { DescriptorSync.Want(fd: $0, events: Int16(POLLIN), owner: owner) }
      + door.wants().map { DescriptorSync.Want(fd: $0.fd, events: Int16(POLLIN), owner: $0.owner) }
  }

  /// When the next one's time at the door is over; with one waiting that spoke, also `reopens` (when a
  /// pending place frees).
  func nextDeadline(reopens: Double?) -> Double? {
    [door.nextDeadline, door.anyoneSpoke ? reopens : nil].compactMap { $0 }.min()
  }

  /// What is readable among the listening sockets and the door: first bytes at the door, then whoever spoke
  /// goes in while there is a place, then new connections, straight in while there is a place and nobody
  /// waits at the door, else to the door.
  func handle<Event>(
    readable: Set<Int32>, now: Double, mayAccept: () -> Bool, admit: (Int32, String) -> [Event]
  ) -> [Event] {
    for fd in door.silent where readable.contains(fd) { door.readable(fd, now: now) }
    var events = letIn(mayAccept: mayAccept, admit: admit)
    for fd in sockets where readable.contains(fd) {
      for _ in 0..<HostListener.acceptsPerRound {
        guard let (socket, peer) = Sockets.accept(fd) else { break }
        if mayAccept() && !door.anyoneSpoke {
          events += admit(socket, peer)
        } else {
          door.hold(socket, peer: peer, now: now)
        }
      }
    }
    return events
  }

  /// Closes those whose time at the door is over, and lets in whoever spoke while there is a place.
  func tick<Event>(now: Double, mayAccept: () -> Bool, admit: (Int32, String) -> [Event]) -> [Event] {
    door.expire(now: now)
    return letIn(mayAccept: mayAccept, admit: admit)
  }

  private func letIn<Event>(mayAccept: () -> Bool, admit: (Int32, String) -> [Event]) -> [Event] {
    var events: [Event] = []
    while door.anyoneSpoke, mayAccept(), let (fd, peer) = door.nextIn() { events += admit(fd, peer) }
    return events
  }

  /// Stops listening and closes everyone at the door.
  func close() {
    for fd in sockets { Glibc.close(fd) }
    sockets = []
    door.closeAll()
  }
}

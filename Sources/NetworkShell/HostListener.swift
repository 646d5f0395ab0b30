import EventLoop
import Glibc
import MatchCoordination
import NetworkFacts
import PlayerFiles
import Transport

/// The listening side of a host, the ordinary host's (`HostMatch`) and the practice bot's (`BotHost`) alike:
/// its listening sockets, accepting at most `acceptsPerRound` a turn, and its door (`HostDoor`) for what is
/// accepted while the pending connections are at their cap. What goes in is handed to `admit` (the host gives
/// it a TLS connection, or refuses it by its source limits); whether there is a place is `mayAccept`'s to say
/// (the host's `PendingHandshakes`). When the process runs out of descriptors it stops accepting for a second
/// (the listening socket would otherwise stay readable and spin the loop). Once given a loop (`watch(on:ready:)`)
/// it registers its listening sockets, and the door those held there, itself.
package final class HostListener {
  /// At most this many connections are accepted in one turn of the loop to go straight in (each costs a TLS
  /// handshake), so a flood waiting in the listen queue does not keep the loop from the connections it has.
  static let acceptsPerRound = 32
  /// At most this many are accepted in one turn to wait at the door (a socket each, no TLS): the listen queue
  /// is emptied quickly, so a real joiner behind a flood reaches the door, where its address has its turn,
  /// instead of waiting in the kernel's queue behind every connection the flood opens again.
  static let doorAcceptsPerRound = 512
  /// Joiners the kernel queues until the loop accepts them (the bot's is larger still).
  static let listenBacklog: Int32 = 1024
  /// Seconds without accepting after the process ran out of descriptors.
  static let pauseWhenOutOfDescriptors = 1.0

  private(set) var sockets: [Int32]
  package let port: UInt16
  private let door: HostDoor
  private let acceptsPerRound: Int
  private let log: Log
  /// Accepting stops until then after the process ran out of descriptors.
  private var pausedUntil = -Double.infinity
  /// The listening sockets' registrations with the loop (none before it is given).
  private var listening: [LoopRegistration] = []

  /// Listens on `bind` (nil: every address) and `port` (0: one the system picks) of `network`, with the kernel
  /// queueing `backlog` connections. `fromProxy`: whether a peer is a proxy trusted to name its clients (the
  /// door counts their connections under the clients' addresses).
  package init(
    bind: String?, port: UInt16, backlog: Int32 = HostListener.listenBacklog,
    acceptsPerRound: Int = HostListener.acceptsPerRound, network: Network = .system, log: Log,
    fromProxy: @escaping (String) -> Bool = { _ in false }
  ) throws(NetworkError) {
    sockets = try network.listen(bind, port, backlog)
    self.port = sockets.first.map(Sockets.localPort) ?? port
    self.acceptsPerRound = acceptsPerRound
    self.log = log
    door = HostDoor(log: log, fromProxy: fromProxy)
  }

  deinit { close() }

  /// Watches the listening sockets (not while accepting is paused) and those at the door still silent on
  /// `loop`, from now until `detach` or `close`; `ready` hears each that is readable (hand it to `handle`).
  package func watch(on loop: EventLoop, ready: @escaping (Int32) -> Void) {
    guard !isWatched else { return }
    listening = sockets.map { fd in LoopRegistration(loop: loop, fd: fd, events: Int16(POLLIN)) { _ in ready(fd) } }
    if pausedUntil > -Double.infinity { for registration in listening { registration.want(0) } }
    door.register = { [unowned loop] fd in
      LoopRegistration(loop: loop, fd: fd, events: Int16(POLLIN)) { _ in ready(fd) }
    }
  }

  /// Whether it is on a loop.
  package var isWatched: Bool { door.register != nil }

  /// Nothing is watched any more (the loop is going away); the sockets stay open.
  package func detach() {
    for registration in listening { registration.cancel() }
    listening = []
    door.register = nil
  }

  /// Every descriptor it holds: the listening sockets and those at the door.
  package var descriptors: [Int32] { sockets + door.held }

  /// When the next one's time at the door is over, or accepting resumes; with one waiting that spoke, also
  /// `reopens` (when a pending place frees).
  func nextDeadline(reopens: Double?, now: Double) -> Double? {
    [door.nextDeadline, door.anyoneSpoke ? reopens : nil, now < pausedUntil ? pausedUntil : nil].compactMap { $0 }
      .min()
  }

  /// What is readable among the listening sockets and the door: first bytes at the door, then whoever spoke
  /// goes in while there is a place, then new connections, straight in while there is a place and nobody
  /// waits at the door, else to the door.
  package func handle<Event>(
    readable: Set<Int32>, now: Double, mayAccept: () -> Bool, pendingFrom: () -> [String: Int],
    admit: (Int32, String) -> [Event]
  ) -> [Event] {
    for fd in door.silent where readable.contains(fd) { door.readable(fd, now: now) }
    var events = letIn(mayAccept: mayAccept, pendingFrom: pendingFrom, admit: admit)
    for fd in sockets where readable.contains(fd) && now >= pausedUntil {
      var (straightIn, accepted) = (0, 0)
      // Whether there is a place changes only when one goes in (the cap's count is costly to take each time).
      var place = mayAccept()
      while straightIn < acceptsPerRound && accepted < HostListener.doorAcceptsPerRound {
        guard let (socket, peer) = Sockets.accept(fd) else {
          if errno == EMFILE || errno == ENFILE { outOfDescriptors(now: now) }
          break
        }
        accepted += 1
        if place && !door.anyoneSpoke {
          events += admit(socket, peer)
          straightIn += 1
          place = mayAccept()
        } else {
          door.hold(socket, peer: peer, now: now)
        }
      }
    }
    return events
  }

  /// Closes those whose time at the door is over, and lets in whoever spoke while there is a place.
  package func tick<Event>(
    now: Double, mayAccept: () -> Bool, pendingFrom: () -> [String: Int], admit: (Int32, String) -> [Event]
  ) -> [Event] {
    if now >= pausedUntil && pausedUntil > -Double.infinity {
      pausedUntil = -Double.infinity  // accepting again
      for registration in listening { registration.want(Int16(POLLIN)) }
    }
    door.expire(now: now)
    return letIn(mayAccept: mayAccept, pendingFrom: pendingFrom, admit: admit)
  }

  private func outOfDescriptors(now: Double) {
    log.write("out of file descriptors: not accepting for a second")
    pausedUntil = now + HostListener.pauseWhenOutOfDescriptors
    for registration in listening { registration.want(0) }
  }

  /// Lets in whoever spoke while there is a place: first those from the addresses with the fewest pending
  /// connections (`pendingFrom`, by `SourceAddress`), so a flood holding many places is passed by a newcomer.
  private func letIn<Event>(
    mayAccept: () -> Bool, pendingFrom: () -> [String: Int], admit: (Int32, String) -> [Event]
  ) -> [Event] {
    guard door.anyoneSpoke, mayAccept() else { return [] }
    var events: [Event] = []
    var busy = pendingFrom()
    while door.anyoneSpoke, mayAccept(), let (fd, peer, counted) = door.nextIn(busy: busy) {
      busy[counted, default: 0] += 1
      events += admit(fd, peer)
    }
    return events
  }

  /// Stops listening and closes everyone at the door.
  package func close() {
    detach()
    for fd in sockets { Glibc.close(fd) }
    sockets = []
    door.closeAll()
  }
}

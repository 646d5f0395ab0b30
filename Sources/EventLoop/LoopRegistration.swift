/// One descriptor's place on an event loop, held by the one thing that reads and writes it (a connection, a
/// listening socket, a socket at the door): watched from the moment it is made, its events changed only when
/// they change (an unchanged interest costs no system call), and given up once, before the descriptor is closed
/// or handed to a new owner. Whatever is ready goes straight to its handler.
///
/// A descriptor number is the kernel's to reuse as soon as it is closed. A registration made for a number that
/// is still on the loop (its owner closed it without giving it up) replaces the old one afresh: epoll forgot the
/// closed descriptor, and the old owner's handler is never called again. Giving up the old registration later
/// leaves the new one watched.
public final class LoopRegistration {
  public let fd: Int32
  /// What the descriptor is watched for now (poll flags; 0: kept, but not woken for).
  public private(set) var events: Int16
  private weak var loop: EventLoop?

  /// Watches `fd` on `loop` for `events`, calling `handler` with what it is ready for.
  public init(loop: EventLoop, fd: Int32, events: Int16, _ handler: @escaping EventLoop.Handler) {
    self.fd = fd
    self.events = events
    self.loop = loop
    loop.register(self, handler)
  }

  deinit { cancel() }

  /// Whether the loop still watches the descriptor for this registration (not after `cancel`, nor once a new
  /// registration took the number over).
  public var isActive: Bool { loop?.holds(self) == true }

  /// Watches for `events` from now on; no system call when they are what they were.
  public func want(_ events: Int16) {
    guard events != self.events, let loop, loop.holds(self) else { return }
    self.events = events
    loop.setEvents(fd, events)
  }

  /// Stops watching, before the descriptor is closed or handed over. Only the first call does anything, and
  /// nothing when another registration has taken the number over.
  public func cancel() {
    guard let loop, loop.holds(self) else { return }
    loop.unwatch(fd)
  }
}

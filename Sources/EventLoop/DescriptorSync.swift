import Glibc

/// Keeps a changing set of descriptors that belongs to something else, which opens and closes them itself (a LAN
/// browser's DNS-SD operations), registered with the loop. Each round the owner reports what it wants watched;
/// a descriptor that went away is unwatched, and one whose number was reused by a new owner is registered
/// afresh (epoll forgets a closed descriptor, so the old registration cannot be trusted). What owns its
/// descriptors registers each itself instead (`LoopRegistration`).
public final class DescriptorSync {
  /// One descriptor to watch: for what, and the object it belongs to (a DNS-SD operation), to notice reuse.
  public struct Want {
    public var fd: Int32
    public var events: Int16
    public var owner: ObjectIdentifier

    public init(fd: Int32, events: Int16, owner: ObjectIdentifier) {
      self.fd = fd
      self.events = events
      self.owner = owner
    }
  }

  private let loop: EventLoop
  private let handler: (Int32, Int16) -> Void
  private var registered: [Int32: ObjectIdentifier] = [:]

  /// `handler` gets each ready descriptor with its poll flags.
  public init(loop: EventLoop, handler: @escaping (_ fd: Int32, _ revents: Int16) -> Void) {
    self.loop = loop
    self.handler = handler
  }

  /// Makes the loop watch exactly `wanted`.
  public func update(_ wanted: [Want]) {
    var keep: Set<Int32> = []
    for want in wanted {
      keep.insert(want.fd)
      if let owner = registered[want.fd], owner == want.owner {
        loop.setEvents(want.fd, want.events)
        continue
      }
      if registered[want.fd] != nil { loop.unwatch(want.fd) }
      registered[want.fd] = want.owner
      let handler = self.handler
      loop.watch(want.fd, events: want.events) { revents in handler(want.fd, revents) }
    }
    for fd in registered.keys where !keep.contains(fd) {
      loop.unwatch(fd)
      registered[fd] = nil
    }
  }

  /// Unwatches everything.
  public func clear() { update([]) }
}

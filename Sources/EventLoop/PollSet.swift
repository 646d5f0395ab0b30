import CEpoll
import Glibc

/// The descriptors one event loop watches, kept from round to round, with poll()'s flags (POLLIN, POLLOUT in;
/// POLLIN, POLLOUT, POLLHUP, POLLERR out) but Linux's epoll underneath: a wait costs in proportion to the
/// descriptors that are ready, not to all of them. With a thousand connections poll() spent more than half of
/// the bot host's time scanning idle sockets in the kernel (measured: docs/BENCHMARKS.md).
///
/// Level-triggered, like poll(): a descriptor with unread input is reported again on every wait. Remove a
/// descriptor before closing it. A regular file (standard input redirected from one), which epoll refuses with
/// EPERM, is always ready, as poll() reports it.
public final class PollSet {
  private let epoll: Int32
  /// What each descriptor is watched for (poll flags), so an unchanged `setEvents` costs no system call.
  private var watched: [Int32: Int16] = [:]
  /// The descriptors epoll refused, always ready (regular files); what each is watched for is in `watched`.
  private var alwaysReady: Set<Int32> = []
  private var buffer: [epoll_event]
  /// The epoll_ctl calls made so far.
  public private(set) var controlCalls = 0

  /// `batch`: at most this many ready descriptors are returned by one wait (the rest come with the next).
  public init(batch: Int = 256) {
    epoll = epoll_create1(tictactoe_epoll_cloexec())
    buffer = Array(repeating: epoll_event(), count: max(1, batch))
  }

  deinit { close(epoll) }

  public var count: Int { watched.count }

  public func contains(_ fd: Int32) -> Bool { watched[fd] != nil }

  /// What `fd` is watched for (nil when it is not in the set).
  public func events(of fd: Int32) -> Int16? { watched[fd] }

  /// Watches `fd` for `events` (POLLIN, POLLOUT, both, or 0 to keep it without watching it for now).
  public func insert(_ fd: Int32, events: Int16) {
    guard watched[fd] == nil else {
      setEvents(fd, events)
      return
    }
    var event = PollSet.event(fd: fd, events: events)
    controlCalls += 1
    guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
      if errno == EPERM {
        alwaysReady.insert(fd)
        watched[fd] = events
      }
      return
    }
    watched[fd] = events
  }

  public func setEvents(_ fd: Int32, _ events: Int16) {
    guard let current = watched[fd], current != events else { return }
    if alwaysReady.contains(fd) {
      watched[fd] = events
      return
    }
    var event = PollSet.event(fd: fd, events: events)
    controlCalls += 1
    if epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) == 0 { watched[fd] = events }
  }

  /// Stops watching `fd`.
  public func remove(_ fd: Int32) {
    guard watched.removeValue(forKey: fd) != nil else { return }
    guard alwaysReady.remove(fd) == nil else { return }
    var event = epoll_event()
    controlCalls += 1
    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
  }

  /// Waits up to `timeout` milliseconds (-1: forever) and returns the descriptors that are ready, with poll flags
  /// for what each is ready for. An interrupted wait reports nothing.
  public func wait(timeout: Int32) -> [(fd: Int32, revents: Int16)] {
    let ready = buffer.withUnsafeMutableBufferPointer {
      epoll_wait(epoll, $0.baseAddress, Int32($0.count), anyAlwaysReady ? 0 : timeout)
    }
    return collect(ready)
  }

  /// As `wait(timeout:)` with a timeout in nanoseconds (negative: forever), for loops that must wake at a
  /// precise time (epoll_pwait2, Linux 5.11; on older kernels the timeout is rounded up to a millisecond).
  public func wait(nanoseconds: Int64) -> [(fd: Int32, revents: Int16)] {
    guard !anyAlwaysReady else { return wait(timeout: 0) }
    guard nanoseconds >= 0 else { return wait(timeout: -1) }
    var timeout = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    let ready = buffer.withUnsafeMutableBufferPointer {
      epoll_pwait2(epoll, $0.baseAddress, Int32($0.count), &timeout, nil)
    }
    if ready < 0 && errno == ENOSYS {
      return wait(timeout: Int32(min(Int64(Int32.max), (nanoseconds + 999_999) / 1_000_000)))
    }
    return collect(ready)
  }

  /// Whether a descriptor epoll refused is watched for something now (one kept with no events lets the wait
  /// sleep).
  private var anyAlwaysReady: Bool { alwaysReady.contains { (watched[$0] ?? 0) & Int16(POLLIN | POLLOUT) != 0 } }

  private func collect(_ ready: Int32) -> [(fd: Int32, revents: Int16)] {
    var result = alwaysReady.compactMap { fd -> (fd: Int32, revents: Int16)? in
      let ready = (watched[fd] ?? 0) & Int16(POLLIN | POLLOUT)
      return ready == 0 ? nil : (fd, ready)
    }
    guard ready > 0 else { return result }
    result.reserveCapacity(result.count + Int(ready))
    for index in 0..<Int(ready) {
      let event = buffer[index]
      result.append((event.data.fd, PollSet.pollFlags(event.events)))
    }
    return result
  }

  private static let pairs: [(poll: Int32, epoll: UInt32)] = [
    (POLLIN, EPOLLIN.rawValue), (POLLOUT, EPOLLOUT.rawValue), (POLLHUP, EPOLLHUP.rawValue),
    (POLLERR, EPOLLERR.rawValue),
  ]

  private static func event(fd: Int32, events: Int16) -> epoll_event {
    var event = epoll_event()
    event.events = pairs.reduce(0) { Int32(events) & $1.poll != 0 ? $0 | $1.epoll : $0 }
    event.data.fd = fd
    return event
  }

  private static func pollFlags(_ events: UInt32) -> Int16 {
    Int16(pairs.reduce(0) { events & $1.epoll != 0 ? $0 | $1.poll : $0 })
  }
}

import Foundation
import Glibc

/// A TCP proxy on 127.0.0.1 that plays a bad network between two programs under test (this kernel has no
/// netem): it forwards every connection it accepts to a target port, and on command delays bytes, holds them
/// (a stall), or drops the connection. One background thread runs a poll() loop over every socket.
///
///     let proxy = try FaultProxy.start(target: hostPort, delay: 0.2)   // 200 ms each way
///     // join 127.0.0.1:\(proxy.port) instead of the host's port
///     proxy.stall(seconds: 5)      // nothing moves for 5 s, then everything held arrives in order
///     proxy.dropNow()              // both sides get a reset, as when a NAT forgets the connection
///     proxy.stop()                 // or let go of it: the proxy stops when released
///
/// Bytes keep their order in each direction. A delay applies to bytes read after it is set; a stall holds
/// everything already waiting and everything that arrives until it ends. The proxy keeps reading while it holds
/// bytes (as a black hole would), so the senders see nothing unusual. A connection end (FIN) is passed on in
/// its place in the stream: after the bytes before it, with the same delay. Several connections may pass at
/// once or one after another (a joiner that reconnects comes through the same port).
final class FaultProxy: Sendable {
  /// What the proxy has done so far.
  struct Counters: Sendable, Equatable {
    /// Connections accepted from clients (refused ones included).
    var accepted = 0
    /// Bytes read from the client (towards the target) and from the target (towards the client), held or not.
    var bytesFromClient = 0
    var bytesFromTarget = 0
    /// Bytes delivered to the target (client to host) and to the client (host to client).
    var bytesToTarget = 0
    var bytesToClient = 0
    /// Bytes that were due while a stall held them, delivered when it ended.
    var bytesHeldByStall = 0
    /// The least time, by the proxy's clock, between reading a chunk and delivering it (infinity: none yet).
    /// What the proxy itself decided, so no slowness of the machine can make it smaller than the delay.
    var shortestHold = Double.infinity
    /// Connections the proxy ended itself: dropped, refused, or cut after a byte count.
    var dropped = 0
    /// Connections that ended by themselves (both sides closed, or one reset).
    var ended = 0
  }

  /// A direction of a connection.
  enum Direction: Sendable {
    /// From the client that connected to the proxy towards the target.
    case toTarget
    /// From the target back to the client.
    case toClient
  }

  /// How the proxy ends a connection it drops.
  enum Drop: Sendable {
    /// A TCP reset to both sides (SO_LINGER 0): the peers see "connection reset" at once.
    case reset
    /// An orderly close (FIN) to both sides, without the TLS goodbye the peers would have sent.
    case close
  }

  /// The port clients connect to.
  let port: UInt16
  /// The port on 127.0.0.1 that connections are forwarded to.
  let target: UInt16
  private let engine: Engine

  private init(engine: Engine) {
    self.engine = engine
    port = engine.port
    target = engine.target
  }

  /// Listens on a free loopback port and forwards to 127.0.0.1:`target`, adding `delay` seconds each way.
  static func start(target: UInt16, delay: Double = 0) throws -> FaultProxy {
    let engine = try Engine(target: target, delay: delay)
    Thread.detachNewThread { [engine] in engine.run() }
    return FaultProxy(engine: engine)
  }

  /// Stops the proxy when the test lets go of it.
  deinit { engine.stop() }

  /// Ends every connection (with a reset) and the proxy's thread; waits for the thread to finish. Calling it
  /// again does nothing.
  func stop() { engine.stop() }

  // MARK: - Faults

  /// Seconds added to each direction for bytes read from now on (0: none).
  var delay: Double {
    get { engine.locked { engine.settings.delay } }
    set { engine.perform(.change { $0.delay = newValue }) }
  }

  /// Holds every byte in both directions for `seconds` from now; then what was held is delivered in order.
  func stall(seconds: Double) {
    let until = monotonicNow() + seconds
    engine.perform(.change { $0.stallUntil = max($0.stallUntil, until) })
  }

  /// Holds every byte in both directions until `resume()`: a black hole (nothing closes, nothing arrives).
  func stall() { engine.perform(.change { $0.stallUntil = .infinity }) }

  /// Ends a stall now; what was held is delivered (after its delay).
  func resume() { engine.perform(.change { $0.stallUntil = 0 }) }

  /// Ends every current connection at once, discarding bytes not yet delivered.
  func dropNow(_ how: Drop = .reset) { engine.perform(.drop(how)) }

  /// Delivers exactly `bytes` more bytes in `direction` (on the newest open connection, or on the next one if
  /// none is open), then ends that connection as `how` says: "the connection broke after N bytes".
  func drop(after bytes: Int, _ direction: Direction, _ how: Drop = .reset) {
    engine.perform(.dropAfter(bytes: bytes, direction, how))
  }

  /// While true, new connections are accepted and reset at once (the network is down; the host's port stays
  /// open behind the proxy). Open connections are not touched.
  var refusing: Bool {
    get { engine.locked { engine.settings.refusing } }
    set { engine.perform(.change { $0.refusing = newValue }) }
  }

  /// What has happened so far.
  var counters: Counters { engine.locked { engine.counters } }

  /// Every byte the proxy read so far (all connections together): towards the target, and towards the clients.
  var captured: (toTarget: [UInt8], toClient: [UInt8]) { engine.locked { (engine.capture[0], engine.capture[1]) } }

  /// Waits (at most `timeout` seconds) until the counters satisfy `condition`; true if they did.
  func waitFor(timeout: Double = 20, _ condition: (Counters) -> Bool) -> Bool {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
      if condition(counters) { return true }
      usleep(10_000)
    }
    return condition(counters)
  }
}

/// The proxy's sockets and its poll loop. Everything the test thread may touch (settings, commands, counters)
/// is behind `lock`; the connections belong to the loop's thread alone. Every change the test asks for is
/// synchronous: `perform` returns once the loop applied it, so bytes the test sends afterwards are treated
/// under the new rules.
private final class Engine: @unchecked Sendable {
  struct Settings {
    var delay = 0.0
    /// Monotonic time until which nothing is delivered (infinity: until `resume()`).
    var stallUntil = 0.0
    var refusing = false
  }

  enum Command {
    case change(@Sendable (inout Settings) -> Void)
    case drop(FaultProxy.Drop)
    case dropAfter(bytes: Int, FaultProxy.Direction, FaultProxy.Drop)
    case stop
  }

  let port: UInt16
  let target: UInt16
  private let lock = NSLock()
  var settings = Settings()
  var counters = FaultProxy.Counters()
  /// Every byte read, towards the target and towards the clients, all connections together.
  var capture: [[UInt8]] = [[], []]
  private var commands: [(Command, DispatchSemaphore)] = []
  private var stopRequested = false
  private var loopEnded = false
  private let finished = DispatchSemaphore(value: 0)
  private let listener: Int32
  /// A pipe that wakes the poll loop when a command or setting changes.
  private let wakeRead: Int32
  private let wakeWrite: Int32

  init(target: UInt16, delay: Double) throws {
    self.target = target
    (listener, port) = Loopback.listen(backlog: 16)
    var fds: [Int32] = [-1, -1]
    guard listener >= 0, port != 0, pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    for fd in [listener, wakeRead, wakeWrite] {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    settings.delay = delay
  }

  func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// Hands `command` to the loop and waits until it was applied.
  /// (After the loop ended, nothing is left to apply it to: it returns at once.)
  func perform(_ command: Command) {
    let done = DispatchSemaphore(value: 0)
    let queued: Bool = locked {
      guard !loopEnded else { return false }
      commands.append((command, done))
      return true
    }
    guard queued else { return }
    wake()
    done.wait()
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  func stop() {
    let first: Bool = locked {
      defer { stopRequested = true }
      return !stopRequested
    }
    guard first else { return }
    perform(.stop)
    finished.wait()
    close(listener)
    close(wakeRead)
    close(wakeWrite)
  }

  // MARK: - The poll loop

  /// Bytes (or the end of the stream: `end`, no bytes) read at `read`, waiting to be delivered at `due`.
  private struct Chunk {
    var bytes: [UInt8]
    var end: Bool
    var read: Double
    var due: Double
    /// It fell due while a stall was holding everything.
    var heldByStall = false
  }

  /// One direction of a connection: read from `source`, written to `destination`.
  private final class Flow {
    let source: Int32
    let destination: Int32
    let direction: FaultProxy.Direction
    var queue: [Chunk] = []
    var sourceOpen = true
    /// The end of the stream was passed on.
    var finished = false
    /// Bytes still allowed through before the connection is cut (nil: no limit).
    var budget: Int?
    var budgetDrop = FaultProxy.Drop.reset

    init(source: Int32, destination: Int32, direction: FaultProxy.Direction) {
      self.source = source
      self.destination = destination
      self.direction = direction
    }
  }

  private final class Link {
    let client: Int32
    let upstream: Int32
    let flows: [Flow]
    var closed = false

    init(client: Int32, upstream: Int32) {
      self.client = client
      self.upstream = upstream
      flows = [
        Flow(source: client, destination: upstream, direction: .toTarget),
        Flow(source: upstream, destination: client, direction: .toClient),
      ]
    }
  }

  private var links: [Link] = []
  /// Drops armed while no connection was open; applied to the next one.
  private var armed: [(Int, FaultProxy.Direction, FaultProxy.Drop)] = []

  func run() {
    defer {
      let left = locked {
        loopEnded = true
        defer { commands.removeAll() }
        return commands
      }
      for (_, done) in left { done.signal() }
      finished.signal()
    }
    while true {
      waitForWork()
      var sink = [UInt8](repeating: 0, count: 64)
      while read(wakeRead, &sink, sink.count) > 0 {}
      let pending = locked {
        defer { commands.removeAll() }
        return commands
      }
      var stopping = false
      for (command, done) in pending {
        defer { done.signal() }
        switch command {
        case .change(let change):
          locked { change(&settings) }
        case .stop:
          for link in links { end(link, .reset, counted: false) }
          stopping = true
        case .drop(let how):
          for link in links { end(link, how) }
        case .dropAfter(let bytes, let direction, let how):
          if let link = links.last(where: { !$0.closed }) {
            arm(link, bytes, direction, how)
          } else {
            armed.append((bytes, direction, how))
          }
        }
      }
      if stopping { return }
      acceptAll()
      let (delay, stallUntil) = locked { (settings.delay, settings.stallUntil) }
      let now = monotonicNow()
      for link in links where !link.closed {
        for flow in link.flows where flow.sourceOpen && !link.closed { receive(flow, link, now: now, delay: delay) }
        for flow in link.flows where !flow.finished && !link.closed {
          deliver(flow, link, now: now, stallUntil: stallUntil)
        }
        if !link.closed && link.flows.allSatisfy(\.finished) {
          locked { counters.ended += 1 }
          close(link.client)
          close(link.upstream)
          link.closed = true
        }
      }
      links.removeAll(where: \.closed)
    }
  }

  /// Blocks in poll() until a socket is ready, a command arrives, or the next held chunk falls due.
  private func waitForWork() {
    let (stallUntil, now) = (locked { settings.stallUntil }, monotonicNow())
    var fds = [
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
    ]
    var nextDue = Double.infinity
    for link in links {
      for flow in link.flows where !flow.finished {
        if flow.sourceOpen { fds.append(pollfd(fd: flow.source, events: Int16(POLLIN), revents: 0)) }
        guard let first = flow.queue.first else { continue }
        let due = max(first.due, stallUntil)
        if due > now {
          nextDue = min(nextDue, due)
        } else if first.end {
          nextDue = now
        } else {
          fds.append(pollfd(fd: flow.destination, events: Int16(POLLOUT), revents: 0))
        }
      }
    }
    let timeout = nextDue == .infinity ? -1 : Int32(max(0, ((nextDue - now) * 1000).rounded(.up)))
    _ = poll(&fds, nfds_t(fds.count), timeout)
  }

  private func acceptAll() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      locked { counters.accepted += 1 }
      let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var destination = Loopback.address(port: target)
      let connected =
        locked({ settings.refusing })
        ? -1
        : withUnsafePointer(to: &destination) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
      guard connected == 0 else {
        locked { counters.dropped += 1 }
        close(upstream)
        reset(client)
        continue
      }
      for fd in [client, upstream] {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      }
      let link = Link(client: client, upstream: upstream)
      links.append(link)
      for (bytes, direction, how) in armed { arm(link, bytes, direction, how) }
      armed.removeAll()
    }
  }

  private func arm(_ link: Link, _ bytes: Int, _ direction: FaultProxy.Direction, _ how: FaultProxy.Drop) {
    guard let flow = link.flows.first(where: { $0.direction == direction }) else { return }
    flow.budget = bytes
    flow.budgetDrop = how
    if bytes == 0 { end(link, how) }
  }

  /// Reads what the source has into the flow's queue; the end of the stream is queued as a marker.
  private func receive(_ flow: Flow, _ link: Link, now: Double, delay: Double) {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = read(flow.source, &buffer, buffer.count)
      if count > 0 {
        flow.queue.append(Chunk(bytes: Array(buffer[0..<count]), end: false, read: now, due: now + delay))
        locked {
          switch flow.direction {
          case .toTarget: counters.bytesFromClient += count
          case .toClient: counters.bytesFromTarget += count
          }
          capture[flow.direction == .toTarget ? 0 : 1] += buffer[0..<count]
        }
        continue
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
      flow.sourceOpen = false
      if count < 0 {
        // A reset is passed on at once, as on a real network (it overtakes bytes in flight).
        locked { counters.ended += 1 }
        end(link, .reset, counted: false)
      } else {
        flow.queue.append(Chunk(bytes: [], end: true, read: now, due: now + delay))
      }
      return
    }
  }

  /// Writes the chunks that are due (and allowed by a byte budget) to the destination.
  private func deliver(_ flow: Flow, _ link: Link, now: Double, stallUntil: Double) {
    while let first = flow.queue.first {
      guard max(first.due, stallUntil) <= now else {
        // What is already due and still here is waiting for the stall to end.
        for index in flow.queue.indices where flow.queue[index].due <= now { flow.queue[index].heldByStall = true }
        return
      }
      if first.end {
        shutdown(flow.destination, Int32(SHUT_WR))
        flow.queue.removeFirst()
        flow.finished = true
        return
      }
      let allowed = min(first.bytes.count, flow.budget ?? Int.max)
      let written = first.bytes.withUnsafeBytes {
        Glibc.send(flow.destination, $0.baseAddress, allowed, Int32(MSG_NOSIGNAL))
      }
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK { return }
        locked { counters.ended += 1 }
        end(link, .reset, counted: false)
        return
      }
      locked {
        switch flow.direction {
        case .toTarget: counters.bytesToTarget += written
        case .toClient: counters.bytesToClient += written
        }
        if first.heldByStall { counters.bytesHeldByStall += written }
        counters.shortestHold = min(counters.shortestHold, now - first.read)
      }
      if let budget = flow.budget {
        flow.budget = budget - written
        if budget - written <= 0 {
          end(link, flow.budgetDrop)
          return
        }
      }
      if written < first.bytes.count {
        flow.queue[0].bytes.removeFirst(written)
        return
      }
      flow.queue.removeFirst()
    }
  }

  /// Ends a connection now, discarding what it holds; `counted` when the proxy chose to (a drop).
  private func end(_ link: Link, _ how: FaultProxy.Drop, counted: Bool = true) {
    guard !link.closed else { return }
    // Counted before the sockets close: a test that sees the close may read the counters at once.
    if counted { locked { counters.dropped += 1 } }
    switch how {
    case .reset:
      reset(link.client)
      reset(link.upstream)
    case .close:
      close(link.client)
      close(link.upstream)
    }
    link.closed = true
  }

  /// Closes `fd` with a TCP reset.
  private func reset(_ fd: Int32) {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    close(fd)
  }
}

/// Seconds on a clock that never jumps.
func monotonicNow() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

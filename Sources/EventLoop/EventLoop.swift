import Glibc
import Synchronization

/// The one place the program waits: descriptors (epoll, through `PollSet`), timers, signals and the answers of
/// work handed to a worker thread, all dispatched on the thread that calls `run`. Every front end (full-screen,
/// plain, the bot host, LAN look-ups) runs on one of these; nothing else in the program blocks.
public final class EventLoop {
  /// What a descriptor is ready for, as poll() flags (POLLIN, POLLOUT, POLLHUP, POLLERR).
  public typealias Handler = (_ revents: Int16) -> Void
  public typealias TimerID = Int

  /// At most this many descriptors a wait: a practice bot at saturation found 256 ready on every wait, and writes
  /// a turn's answers at its end (`WriteBatch`), by which time the first connections' sockets and TLS state had
  /// left the cache. In turns of 32 it spent 0.6–0.95 µs less CPU a move (16 pairs, BENCHMARKS.md 2026-12-05).
  public static let waitBatch = 32
  private let pollSet = PollSet(batch: EventLoop.waitBatch)
  private var handlers = DescriptorTable<Handler>()
  /// The registration (`LoopRegistration`) each descriptor watched through one belongs to.
  private var holders = DescriptorTable<ObjectIdentifier>()
  /// Descriptors registered since the last wait returned: the wait's news of them is the old owner's.
  private var registeredSinceWait: Set<Int32> = []
  private var timers: [TimerID: (due: Double, action: () -> Void)] = [:]
  private var nextTimer: TimerID = 0
  private var hooks: [() -> Void] = []
  private var stopped = false
  private let clock: @Sendable () -> Double
  /// Work done elsewhere: its answers wait here until the loop's thread takes them.
  private let finished = Mailbox()
  private var completions: [Int: (any Sendable) -> Void] = [:]
  private var nextWork = 0
  /// Where a worker says its answer waits; shared with the workers still out, so it is closed only when the
  /// loop and every one of them let it go.
  let wake: WakePipe
  private var signalPipe: SignalPipe?
  private var signalHandler: ((Int32) -> Void)?

  /// `clock`: seconds on a clock that never jumps (the monotonic clock unless a test gives its own).
  public init(clock: @escaping @Sendable () -> Double = Monotonic.now) {
    self.clock = clock
    wake = WakePipe()
    watch(wake.read, events: Int16(POLLIN)) { [unowned self] _ in self.takeFinishedWork() }
  }

  public var now: Double { clock() }

  // MARK: descriptors

  /// Calls `handler` whenever `fd` is ready for `events` (level-triggered, like poll). Replaces an earlier
  /// handler for the same descriptor.
  public func watch(_ fd: Int32, events: Int16, _ handler: @escaping Handler) {
    handlers[fd] = handler
    holders[fd] = nil
    pollSet.insert(fd, events: events)
  }

  /// Changes what `fd` is watched for (0: kept, but not woken for).
  public func setEvents(_ fd: Int32, _ events: Int16) { pollSet.setEvents(fd, events) }

  /// Stops watching `fd`; call it before closing the descriptor.
  public func unwatch(_ fd: Int32) {
    handlers[fd] = nil
    holders[fd] = nil
    pollSet.remove(fd)
  }

  public func isWatching(_ fd: Int32) -> Bool { handlers[fd] != nil }

  public var watchedCount: Int { handlers.count }

  /// The epoll_ctl calls made so far (adding, changing and removing descriptors), for tests and benchmarks
  /// that check what a round costs.
  public var descriptorChanges: Int { pollSet.controlCalls }

  /// Watches `registration`'s descriptor for it. A number still watched was closed without being given up and
  /// is reused: it is removed and added afresh (epoll forgot it when it was closed). Registered by a handler
  /// while the round's ready descriptors are handed out, it hears nothing of that round: what the wait found
  /// ready under its number was the descriptor closed before.
  func register(_ registration: LoopRegistration, _ handler: @escaping Handler) {
    let fd = registration.fd
    if handlers[fd] != nil { unwatch(fd) }
    watch(fd, events: registration.events, handler)
    holders[fd] = ObjectIdentifier(registration)
    registeredSinceWait.insert(fd)
  }

  /// Whether `registration` is the one its descriptor is watched for.
  func holds(_ registration: LoopRegistration) -> Bool { holders[registration.fd] == ObjectIdentifier(registration) }

  // MARK: timers

  /// Runs `action` once, on the loop, when the clock reaches `due` (at once if it already has).
  @discardableResult
  public func schedule(at due: Double, _ action: @escaping () -> Void) -> TimerID {
    nextTimer += 1
    timers[nextTimer] = (due, action)
    return nextTimer
  }

  public func cancel(_ timer: TimerID?) {
    if let timer { timers[timer] = nil }
  }

  /// Runs `hook` before every wait (to draw the screen, or to bring a set of descriptors up to date).
  public func beforeEachWait(_ hook: @escaping () -> Void) { hooks.append(hook) }

  // MARK: signals

  /// Turns SIGINT, SIGTERM, SIGHUP, SIGWINCH and SIGCONT into calls of `handler` on the loop (SIGPIPE is ignored).
  public func handleSignals(_ handler: @escaping (Int32) -> Void) {
    let pipe = signalPipe ?? SignalPipe()
    signalPipe = pipe
    signalHandler = handler
    watch(pipe.readDescriptor, events: Int16(POLLIN)) { [unowned self] _ in
      for number in pipe.drain() { self.signalHandler?(number) }
    }
  }

  // MARK: work off the loop

  /// Runs `work` on a worker thread (for what must block: name resolution, a blocking C library call, a file
  /// written with fsync) and then `completion` with its answer on the loop.
  public func perform<Answer: Sendable>(
    _ work: @escaping @Sendable () -> Answer, then completion: @escaping (Answer) -> Void
  ) {
    nextWork += 1
    let id = nextWork
    completions[id] = { answer in
      if let answer = answer as? Answer { completion(answer) }
    }
    let finished = self.finished
    // The pipe itself, not its descriptor's number: a loop let go while the work runs must not leave the worker
    // writing its byte into whatever descriptor reuses that number (seen in the test suite: a child's input got
    // "\x01\x01").
    let wake = self.wake
    WorkerThreads.shared.run {
      let answer = work()
      finished.answers.withLock { $0.append((id, answer)) }
      wake.ring()
    }
  }

  /// Work handed out whose answer has not been taken yet.
  public var workInFlight: Int { completions.count }

  private func takeFinishedWork() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(wake.read, &buffer, buffer.count) > 0 {}
    let answers = finished.answers.withLock { list in
      defer { list.removeAll() }
      return list
    }
    for (id, answer) in answers {
      completions.removeValue(forKey: id)?(answer)
    }
  }

  // MARK: running

  /// Runs rounds until `stop()`.
  public func run() {
    stopped = false
    while !stopped { runOnce() }
  }

  /// Ends `run` after the round in progress.
  public func stop() { stopped = true }

  public var isStopped: Bool { stopped }

  /// How many descriptors the last wait found ready: how busy the loop is (a server under load finds many).
  public private(set) var lastReadyCount = 0

  /// One round: the hooks, a wait until a descriptor is ready or the first timer is due (at most
  /// `maximumWait` seconds when given), then every ready handler and every due timer.
  public func runOnce(maximumWait: Double? = nil) {
    for hook in hooks { hook() }
    guard !stopped else { return }
    var wait = timers.values.lazy.map(\.due).min().map { max(0, $0 - clock()) }
    if let maximumWait { wait = min(wait ?? maximumWait, maximumWait) }
    // Milliseconds, rounded up (a timer is never run early): epoll_wait, whose timeout shows in
    // /proc/PID/syscall, so a test can see how long an idle game sleeps.
    let milliseconds = wait.map { Int32(min(Double(Int32.max), ($0 * 1000).rounded(.up))) } ?? -1
    let ready = pollSet.wait(timeout: milliseconds)
    lastReadyCount = ready.count
    registeredSinceWait = []
    for (fd, revents) in ready {
      guard !stopped else { return }
      // Registered by a handler of this round: what the wait said is about the descriptor it replaced.
      if !registeredSinceWait.isEmpty && registeredSinceWait.contains(fd) { continue }
      handlers[fd]?(revents)
    }
    runDueTimers()
  }

  private func runDueTimers() {
    let now = clock()
    // Most rounds have none due: nothing is made for them.
    guard timers.values.contains(where: { $0.due <= now }) else { return }
    let due = timers.filter { $0.value.due <= now }.sorted { ($0.value.due, $0.key) < ($1.value.due, $1.key) }
    for (id, timer) in due where !stopped {
      guard timers.removeValue(forKey: id) != nil else { continue }  // cancelled by an earlier one
      timer.action()
    }
  }
}

/// Answers of finished work, handed from the worker threads to the loop.
private final class Mailbox: Sendable {
  let answers = Mutex<[(Int, any Sendable)]>([])
}

/// The loop's self-pipe for workers' answers: non-blocking, closed on exec, and closed when the last holder (the
/// loop, or a worker still out) lets it go.
final class WakePipe: Sendable {
  let read: Int32
  let write: Int32

  init() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    (read, write) = (fds[0], fds[1])
  }

  /// Wakes the loop (a full pipe is awake already).
  func ring() {
    var byte: UInt8 = 1
    _ = Glibc.write(write, &byte, 1)
  }

  deinit {
    close(read)
    close(write)
  }
}

import Glibc
import Synchronization

/// Threads that run work handed off the event loop (`EventLoop.perform`, the computer's search): started when
/// work comes and none is free, at most `limit`, each then waiting on a semaphore for the next piece. An idle
/// thread sleeps until work comes: no timer wakes it. (libdispatch's global queues, used before, keep a monitor
/// that woke the process every second for as long as it ran, once any work had been handed to them.)
public final class WorkerThreads: Sendable {
  /// The threads the whole program shares.
  public static let shared = WorkerThreads(limit: 8)

  private struct State {
    var queue: [@Sendable () -> Void] = []
    var threads = 0
    var idle = 0
    /// Threads running a piece of work now.
    var busy = 0
    /// The process is exiting: work not started yet is dropped.
    var exiting = false
  }

  /// At exit (the shared threads only), the work running is let finish, for at most 1 s, before the exit
  /// handlers registered earlier run: OpenSSL's frees its locks and providers, and a thread still hashing or
  /// signing then crashed the exiting process (SIGSEGV in pthread_rwlock_rdlock, seen in the tests' process once
  /// in six runs). Exit handlers run last registered first, and this one is registered when the first thread
  /// starts, after OpenSSL set itself up for the identity and the TLS contexts.
  private static let drainsAtExit: Void = {
    atexit { WorkerThreads.shared.finishRunningWork(within: 1) }
  }()

  private let limit: Int
  /// What its threads are called (top, ps -L, /proc; at most 15 bytes).
  private let name: String
  private let state = Mutex(State())
  /// Counts the pieces of work waiting: a thread takes one for each `sem_wait` that returns.
  private nonisolated(unsafe) let waiting: UnsafeMutablePointer<sem_t>

  public init(limit: Int, name: String = "tictactoe-work") {
    self.limit = max(1, limit)
    self.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    waiting = .allocate(capacity: 1)
    sem_init(waiting, 0, 0)
  }

  /// Threads started so far, for the tests.
  public var threads: Int { state.withLock { $0.threads } }

  /// Runs `work` on one of the threads, in the order given when a thread is free for each.
  public func run(_ work: @escaping @Sendable () -> Void) {
    let start = state.withLock { state -> Bool in
      state.queue.append(work)
      // A thread for each piece waiting, up to the limit: work never waits behind a search or a slow lookup
      // while a thread could be started for it.
      guard state.queue.count > state.idle, state.threads < limit else { return false }
      state.threads += 1
      return true
    }
    if start { startThread() }
    sem_post(waiting)
  }

  /// Stops taking work and waits until what runs now has finished, or `seconds` have passed; true when it has.
  @discardableResult
  public func finishRunningWork(within seconds: Double) -> Bool {
    state.withLock { $0.exiting = true }
    var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
    for _ in 0..<Int(seconds * 1000) {
      if state.withLock({ $0.busy }) == 0 { return true }
      nanosleep(&pause, nil)
    }
    return state.withLock { $0.busy } == 0
  }

  private func startThread() {
    if self === WorkerThreads.shared { _ = Self.drainsAtExit }
    var thread = pthread_t()
    let pool = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { argument in
        let pool = Unmanaged<WorkerThreads>.fromOpaque(argument!).takeRetainedValue()
        pool.serve()
        return nil
      }, pool)
    guard started == 0 else {
      Unmanaged<WorkerThreads>.fromOpaque(pool).release()
      state.withLock { $0.threads -= 1 }
      return
    }
    pthread_detach(thread)
  }

  /// A thread's life: wait for work, run it, again.
  private func serve() {
    nameThisThread(name)
    while true {
      state.withLock { $0.idle += 1 }
      while sem_wait(waiting) != 0 {}  // EINTR: a signal arrived; wait on
      let work = state.withLock { state -> (@Sendable () -> Void)? in
        state.idle -= 1
        guard !state.queue.isEmpty else { return nil }
        let next = state.queue.removeFirst()
        guard !state.exiting else { return nil }
        state.busy += 1
        return next
      }
      guard let work else { continue }
      work()
      state.withLock { $0.busy -= 1 }
    }
  }

  /// Names the calling thread (what top, ps -L and /proc show): glibc's pthread_setname_np is not imported here.
  private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = name.withCString { write(fd, $0, strlen($0)) }
    close(fd)
  }
}

import EventLoop
import Glibc
import Synchronization
import Testing

@Suite("Worker threads: work off the loop, and no wakeup while there is none")
struct WorkerThreadsTests {
  /// Waits (at most 10 s) until `condition` holds.
  private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1000 {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  /// Pieces of work that block (a slow lookup, a long search) do not hold up the next: each gets a thread, up
  /// to the limit; past it, work waits for a thread and still runs.
  @Test func blockedWorkGetsAThreadOfItsOwnUpToTheLimit() {
    let pool = WorkerThreads(limit: 3)
    let gate = Mutex(false)
    let done = Mutex(0)
    for _ in 0..<3 {
      pool.run {
        while !gate.withLock({ $0 }) { usleep(1000) }
        done.withLock { $0 += 1 }
      }
    }
    pool.run { done.withLock { $0 += 100 } }  // waits: all three threads are blocked
    #expect(eventually { pool.threads == 3 })
    usleep(50_000)
    #expect(done.withLock { $0 } == 0, "the fourth piece ran without a thread of its own")
    gate.withLock { $0 = true }
    #expect(eventually { done.withLock { $0 } == 103 })
    #expect(pool.threads == 3, "never more threads than the limit")
  }

  /// At exit the work running is let finish (a record being signed, a file being synced) before the exit
  /// handlers registered earlier (OpenSSL's) run; what has not started is dropped, and the wait is bounded.
  @Test func atExitRunningWorkFinishesAndWaitingWorkIsDropped() {
    let pool = WorkerThreads(limit: 1, name: "exit-test")
    let started = Mutex(false)
    let finished = Mutex(false)
    let later = Mutex(false)
    pool.run {
      started.withLock { $0 = true }
      usleep(200_000)
      finished.withLock { $0 = true }
    }
    pool.run { later.withLock { $0 = true } }  // waits behind the first: the one thread is busy
    #expect(eventually { started.withLock { $0 } })
    #expect(pool.finishRunningWork(within: 2))
    #expect(finished.withLock { $0 }, "returned before the running work finished")
    usleep(100_000)
    #expect(!later.withLock { $0 }, "work that had not started ran after the exit began")
    pool.run { later.withLock { $0 = true } }
    usleep(100_000)
    #expect(!later.withLock { $0 }, "work handed over after the exit began ran")

    let stuck = WorkerThreads(limit: 1, name: "stuck-test")
    let going = Mutex(false)
    stuck.run {
      going.withLock { $0 = true }
      usleep(1_000_000)
    }
    #expect(eventually { going.withLock { $0 } })
    #expect(!stuck.finishRunningWork(within: 0.1), "a wait past its bound said the work had finished")
  }

  /// An idle worker sleeps until work comes: over a second with nothing to do, none of its threads is switched
  /// in even once (libdispatch's monitor woke the program every second).
  @Test func idleThreadsNeverWake() throws {
    let pool = WorkerThreads(limit: 2, name: "idle-test")
    let ran = Mutex(0)
    pool.run { ran.withLock { $0 += 1 } }
    pool.run { ran.withLock { $0 += 1 } }
    #expect(eventually { ran.withLock { $0 } == 2 })
    usleep(100_000)  // both back to waiting
    let before = Self.switchesOfWorkers(named: "idle-test")
    #expect(!before.isEmpty, "no worker thread found by name")
    usleep(1_200_000)
    let after = Self.switchesOfWorkers(named: "idle-test")
    for (thread, count) in before where thread != nil {
      #expect(after[thread] == count, "thread \(thread!) woke \((after[thread] ?? count) - count) times while idle")
    }
  }

  /// Context switches of this process's threads called `name` (this test's pool alone: the program's shared
  /// pool works for the tests running beside it), by thread id.
  static func switchesOfWorkers(named name: String) -> [String?: Int] {
    var found: [String?: Int] = [:]
    guard let directory = opendir("/proc/self/task") else { return found }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
      let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard !id.hasPrefix("."), read("/proc/self/task/\(id)/comm")?.hasPrefix(name) == true,
        let status = read("/proc/self/task/\(id)/status")
      else { continue }
      let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
        .compactMap { $0.split(separator: ":").last.flatMap { Int(String($0.filter(\.isNumber))) } }
      found[id] = switches.reduce(0, +)
    }
    return found
  }

  private static func read(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = fread(&buffer, 1, buffer.count, file)
    return String(decoding: buffer[0..<count], as: UTF8.self)
  }
}

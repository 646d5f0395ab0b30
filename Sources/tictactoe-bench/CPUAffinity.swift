#if canImport(Glibc)
  import Glibc
#endif

/// Which CPUs a process may run on. The abuse benchmark gives the abusing process a CPU of its own: a real
/// attacker's handshakes and floods run on the attacker's machine, not on the bot's, and on a machine of two
/// cores an abuser spinning on one of them would otherwise measure the scheduler rather than the bot.
/// sched_setaffinity is a glibc extension Swift does not import, so it is looked up at run time.
enum CPUAffinity {
  private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
  private static let setAffinity = dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: Affinity.self) }

  /// The CPUs online.
  static var count: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// Lets `pid` (0: the calling thread, which threads and processes it starts inherit) run only on `cpus`.
  /// False when the call is missing or refused.
  @discardableResult
  static func pin(_ pid: pid_t, to cpus: [Int]) -> Bool {
    guard let setAffinity, !cpus.isEmpty else { return false }
    var set = cpu_set_t()
    let bits = MemoryLayout<cpu_set_t>.size * 8
    for cpu in cpus where cpu >= 0 && cpu < bits {
      withUnsafeMutableBytes(of: &set) { $0[cpu / 8] |= UInt8(1 << (cpu % 8)) }
    }
    return setAffinity(pid, MemoryLayout<cpu_set_t>.size, &set) == 0
  }
}

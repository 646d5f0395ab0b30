#if canImport(Glibc)
  import Glibc
#endif

/// What /proc says about a running process at one moment: each thread's CPU time and context switches, and
/// the process's resident memory.
struct ProcessSample: Equatable {
  /// One thread's counters.
  struct Thread: Equatable {
    /// Time spent on a CPU, from /proc/PID/task/TID/schedstat (nanoseconds).
    var cpuNanoseconds: UInt64
    /// Voluntary plus involuntary context switches, from /proc/PID/task/TID/status: each is one time the
    /// thread stopped running, so between two samples their difference counts its wakeups.
    var contextSwitches: UInt64
  }

  /// By thread id.
  var threads: [Int: Thread]
  /// VmRSS from /proc/PID/status, in bytes.
  var residentBytes: Int

  /// Reads the process now.
  static func read(pid: pid_t) throws -> ProcessSample {
    guard let status = ProcFile.read("/proc/\(pid)/status"), let resident = residentBytes(status: status) else {
      throw BenchError("process \(pid) is gone (no /proc/\(pid)/status)")
    }
    var sample = ProcessSample(threads: [:], residentBytes: resident)
    for task in directoryEntries("/proc/\(pid)/task") {
      guard let id = Int(task), let schedstat = ProcFile.read("/proc/\(pid)/task/\(task)/schedstat"),
        let cpu = cpuNanoseconds(schedstat: schedstat), let status = ProcFile.read("/proc/\(pid)/task/\(task)/status"),
        let switches = contextSwitches(status: status)
      else { continue }
      sample.threads[id] = Thread(cpuNanoseconds: cpu, contextSwitches: switches)
    }
    return sample
  }

  /// The first field of a schedstat line: "run-time wait-time timeslices".
  static func cpuNanoseconds(schedstat: String) -> UInt64? {
    schedstat.split(separator: " ").first.flatMap { UInt64($0.filter { !$0.isWhitespace }) }
  }

  /// voluntary_ctxt_switches + nonvoluntary_ctxt_switches of a status file; nil when either is missing.
  static func contextSwitches(status: String) -> UInt64? {
    guard let voluntary = field("voluntary_ctxt_switches", in: status).flatMap({ UInt64($0) }),
      let involuntary = field("nonvoluntary_ctxt_switches", in: status).flatMap({ UInt64($0) })
    else { return nil }
    return voluntary + involuntary
  }

  /// VmRSS of a status file, in bytes.
  static func residentBytes(status: String) -> Int? {
    guard let value = field("VmRSS", in: status), value.hasSuffix(" kB"), let kilobytes = Int(value.dropLast(3))
    else { return nil }
    return kilobytes * 1024
  }

  /// The value of "name:<spaces or tabs>value" in a status file, without the leading blanks.
  static func field(_ name: String, in status: String) -> String? {
    for line in status.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0] == name else { continue }
      return String(parts[1].drop { $0 == " " || $0 == "\t" })
    }
    return nil
  }

  /// The names in a directory, without "." and "..".
  static func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// CPU share and wakeup rate of a process between two samples.
struct IdleCost: Equatable {
  /// Percent of one CPU.
  var cpuPercent: Double
  var wakeupsPerSecond: Double
  /// Threads seen in the first sample but gone in the second: what they did in between is not counted.
  var threadsLost: Int

  /// Threads present in both samples count their difference; threads born in between count in full.
  init(from start: ProcessSample, to end: ProcessSample, seconds: Double) {
    var cpu: UInt64 = 0
    var switches: UInt64 = 0
    for (id, thread) in end.threads {
      let before = start.threads[id] ?? ProcessSample.Thread(cpuNanoseconds: 0, contextSwitches: 0)
      cpu += thread.cpuNanoseconds - min(thread.cpuNanoseconds, before.cpuNanoseconds)
      switches += thread.contextSwitches - min(thread.contextSwitches, before.contextSwitches)
    }
    cpuPercent = Double(cpu) / (seconds * 1e9) * 100
    wakeupsPerSecond = Double(switches) / seconds
    threadsLost = start.threads.keys.filter { end.threads[$0] == nil }.count
  }
}

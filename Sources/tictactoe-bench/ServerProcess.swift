#if canImport(Glibc)
  import Glibc
#endif

/// A server the load benchmark starts as a child process (the bot host, or the echo baseline): its output goes
/// to a file the benchmark reads, its memory and CPU time are read from /proc, and it is stopped with SIGTERM.
final class ServerProcess {
  let pid: pid_t
  private let outputPath: String
  private var exitStatus: Int32?

  /// Starts `executable` with `arguments` and `environment` (nil: this process's), standard input from
  /// /dev/null, standard output and error into `outputPath`.
  init(_ executable: String, _ arguments: [String], environment: [String: String]?, outputPath: String) throws {
    self.outputPath = outputPath
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let result =
      if let envp {
        posix_spawn(&pid, executable, &actions, nil, argv, envp)
      } else {
        posix_spawn(&pid, executable, &actions, nil, argv, environ)
      }
    guard result == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))") }
    self.pid = pid
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  /// Everything the server printed so far.
  var output: String {
    guard let file = fopen(outputPath, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Waits (at most `timeout` seconds) for a line of output that starts with `prefix`, and returns the rest of it.
  func waitForLine(startingWith prefix: String, timeout: Double = 20) throws -> String {
    let deadline = Clock.now() + UInt64(timeout * 1e9)
    while Clock.now() < deadline {
      for line in output.split(separator: "\n") where line.hasPrefix(prefix) {
        return String(line.dropFirst(prefix.count))
      }
      if hasExited { break }
      usleep(10_000)
    }
    throw BenchError("the server printed no line starting with \"\(prefix)\"; its output:\n\(output)")
  }

  private var hasExited: Bool {
    if exitStatus != nil { return true }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return false }
    exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return true
  }

  /// Resident memory (VmRSS), in bytes.
  func residentBytes() throws -> Double {
    guard let text = ProcFile.read("/proc/\(pid)/status") else { throw BenchError("cannot read the server's status") }
    guard let bytes = ProcessSample.residentBytes(status: text) else {
      throw BenchError("no VmRSS in the server's status")
    }
    return Double(bytes)
  }

  /// CPU time used so far, in nanoseconds (the scheduler's count in /proc/PID/schedstat: exact, where the
  /// user and system times in /proc/PID/stat only count 10 ms ticks).
  func cpuNanoseconds() throws -> Double {
    guard let text = ProcFile.read("/proc/\(pid)/schedstat"),
      let nanoseconds = ProcessSample.cpuNanoseconds(schedstat: text)
    else { throw BenchError("cannot read the server's CPU time from /proc/\(pid)/schedstat") }
    return Double(nanoseconds)
  }

  /// Waits for the exit status, however long it takes.
  func wait() -> Int32 {
    if let exitStatus { return exitStatus }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    exitStatus = code
    return code
  }

  /// Sends SIGTERM and waits (at most `timeout` seconds) for the exit status.
  func stop(timeout: Double = 20) throws -> Int32 {
    kill(pid, SIGTERM)
    let deadline = Clock.now() + UInt64(timeout * 1e9)
    while Clock.now() < deadline {
      if hasExited, let exitStatus { return exitStatus }
      usleep(10_000)
    }
    throw BenchError("the server did not stop within \(timeout) s of SIGTERM")
  }
}

/// Reads small files: /proc entries, and the PEM files the echo server is given.
enum ProcFile {
  /// The whole file, or nil if it cannot be read.
  static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = Glibc.read(fd, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// A program the benchmark started with posix_spawn (Foundation's Process is not used: the benchmark links no
/// Foundation, and posix_spawn leaks no descriptor into the child). Killed and reaped when dropped.
final class ChildProcess {
  /// Where one of the child's standard descriptors goes.
  enum Stream {
    /// /dev/null.
    case null
    /// A descriptor of this process, duplicated into the child.
    case descriptor(Int32)
  }

  let pid: pid_t
  private var status: Int32?

  /// Starts `path` (searched in PATH when it has no slash) with `arguments`, every signal unblocked.
  init(
    _ path: String, _ arguments: [String], environment: [String: String], stdin: Stream = .null,
    stdout: Stream = .null, stderr: Stream = .null
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
      switch stream {
      case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
      case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(result)))") }
    self.pid = pid
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      _ = wait(timeout: 5)
    }
  }

  /// Whether the child has exited (reaping it if so).
  var hasExited: Bool {
    if status != nil { return true }
    var raw: Int32 = 0
    if waitpid(pid, &raw, WNOHANG) == pid {
      status = raw
      return true
    }
    return false
  }

  /// Waits at most `timeout` seconds for the child to exit; its raw wait status, or nil if it still runs.
  @discardableResult
  func wait(timeout: Double) -> Int32? {
    let deadline = Clock.seconds() + timeout
    while !hasExited {
      if Clock.seconds() >= deadline { return nil }
      usleep(2_000)
    }
    return status
  }

  /// Sends SIGTERM, then SIGKILL if the child has not gone within `grace` seconds.
  func stop(grace: Double = 3) {
    guard !hasExited else { return }
    kill(pid, SIGTERM)
    if wait(timeout: grace) == nil {
      kill(pid, SIGKILL)
      wait(timeout: 5)
    }
  }

  /// Runs `path` to completion with standard output into a pipe, and returns what it printed (at most
  /// `timeout` seconds, then it is killed and an error thrown).
  static func output(
    _ path: String, _ arguments: [String], environment: [String: String] = currentEnvironment(), timeout: Double = 20
  ) throws -> String {
    let pipe = try Pipe()
    let child = try ChildProcess(path, arguments, environment: environment, stdout: .descriptor(pipe.writer))
    pipe.closeWriter()
    var output: [UInt8] = []
    let deadline = Clock.seconds() + timeout
    while Clock.seconds() < deadline {
      let chunk = pipe.read(waitingAtMost: deadline - Clock.seconds())
      if chunk == nil { break }
      output += chunk ?? []
    }
    guard child.wait(timeout: max(0, deadline - Clock.seconds())) != nil else {
      child.stop()
      throw BenchError("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// This process's environment as a dictionary.
  static func currentEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}

/// A pipe between the benchmark and a child: the benchmark reads what the child writes (the read end is then
/// non-blocking), or writes what the child reads (`forChildInput`).
final class Pipe {
  let reader: Int32
  private(set) var writer: Int32

  init(forChildInput: Bool = false) throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw BenchError("cannot create a pipe: \(String(cString: strerror(errno)))") }
    reader = ends[0]
    writer = ends[1]
    if !forChildInput { _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK) }
    _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
  }

  deinit {
    close(reader)
    closeWriter()
  }

  /// Closes this process's copy of the write end (after the child got its own).
  func closeWriter() {
    if writer >= 0 { close(writer) }
    writer = -1
  }

  /// Writes `text` to the child.
  func write(_ text: String) throws { try Descriptor.write(writer, Array(text.utf8)) }

  /// What arrives within `seconds`: some bytes, an empty array when nothing came in time, nil at end of file.
  func read(waitingAtMost seconds: Double) -> [UInt8]? {
    Descriptor.read(reader, waitingAtMost: seconds)
  }
}

/// Reading and writing raw descriptors with a bound on the wait.
enum Descriptor {
  /// What arrives on `fd` within `seconds`: some bytes, an empty array when nothing came in time, nil at end of
  /// file (or an error such as EIO from a terminal whose other side closed).
  static func read(_ fd: Int32, waitingAtMost seconds: Double) -> [UInt8]? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&pfd, 1, Int32(max(0, (seconds * 1000).rounded(.up))))
    guard ready > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = Glibc.read(fd, &buffer, buffer.count)
    if count > 0 { return Array(buffer[0..<count]) }
    if count < 0 && (errno == EAGAIN || errno == EINTR) { return [] }
    return nil
  }

  /// Writes all of `bytes` (blocking).
  static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && errno == EAGAIN {
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&pfd, 1, 100)
        continue
      }
      guard count > 0 else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
      written += count
    }
  }
}

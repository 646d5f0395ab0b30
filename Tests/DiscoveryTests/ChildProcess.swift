import Glibc

/// A program the tests start with posix_spawnp and reap with waitpid (stdin from /dev/null; stdout and stderr
/// into a pipe the test reads without blocking).
final class ChildProcess {
  struct SpawnError: Error, CustomStringConvertible {
    let arguments: [String]
    let code: Int32
    var description: String {
      "could not start \(arguments.joined(separator: " ")): \(String(cString: strerror(code)))"
    }
  }

  let arguments: [String]
  let pid: pid_t
  /// The read end of the output pipe; nil once the child closed it.
  private(set) var outputDescriptor: Int32?
  /// Everything read so far.
  private(set) var output: [UInt8] = []
  private var exitStatus: Int32?

  init(_ arguments: [String]) throws {
    self.arguments = arguments
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw SpawnError(arguments: arguments, code: errno) }
    // Close-on-exec in this process, so children other tests spawn do not hold the pipe open.
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
    var cArguments = arguments.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    // Test threads run with most signals blocked, and a spawned child inherits that mask: SIGTERM would then
    // never reach it. Start it with nothing blocked and default handlers.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var childPID: pid_t = 0
    let code = posix_spawnp(&childPID, arguments[0], &actions, &attributes, &cArguments, environ)
    close(fds[1])
    guard code == 0 else {
      close(fds[0])
      throw SpawnError(arguments: arguments, code: code)
    }
    pid = childPID
    outputDescriptor = fds[0]
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
  }

  /// The output as text (lossy).
  var text: String { String(decoding: output, as: UTF8.self) }

  /// The complete lines of output so far (a line still being written is left out).
  var lines: [Substring] {
    guard let end = text.lastIndex(of: "\n") else { return [] }
    return text[..<end].split(separator: "\n")
  }

  /// Reads what is available without blocking (call when poll() says the descriptor is readable).
  func readAvailable() {
    guard let descriptor = outputDescriptor else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        output += buffer[0..<count]
      } else {
        if count == 0 || (errno != EAGAIN && errno != EINTR) {
          close(descriptor)
          outputDescriptor = nil
        }
        return
      }
    }
  }

  /// Runs to completion within `timeout`, collecting output; the exit status, or nil if it did not finish.
  func waitForExit(timeout: Duration) -> Int32? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while let descriptor = outputDescriptor, clock.now < deadline {
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32((deadline - clock.now).components.seconds * 1000 + 1)
      if poll(&entry, 1, milliseconds) > 0 { readAvailable() }
    }
    guard outputDescriptor == nil else { return nil }
    return reap()
  }

  /// Waits for the child to exit (its output is already closed) and returns its exit status.
  private func reap() -> Int32? {
    if let exitStatus { return exitStatus }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    let exited = status & 0x7F == 0
    exitStatus = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return exitStatus
  }

  /// Sends SIGTERM (to this child's PID only), waits (bounded) for its output to close, sends SIGKILL if it is
  /// still there, and reaps it.
  func terminate() {
    guard exitStatus == nil else { return }
    kill(pid, SIGTERM)
    if waitForExit(timeout: .seconds(5)) == nil {
      kill(pid, SIGKILL)
      if let descriptor = outputDescriptor {
        close(descriptor)
        outputDescriptor = nil
      }
      _ = reap()
    }
  }

  deinit {
    terminate()
  }
}

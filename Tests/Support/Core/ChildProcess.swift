import Foundation
import Testing

/// The tests' one way to start a program: posix_spawnp with standard input, output and error as the test
/// asks, every other descriptor closed, an empty signal mask and every signal at its default action. (The test
/// process blocks some signals and a child would inherit that: it could then not be stopped with SIGTERM.
/// Foundation's Process misses exits when tests run on several threads and leaks pipes into daemons such as
/// tmux's server.) Stopped and reaped by its PID only, never by name; stopped when dropped.
public final class ChildProcess {
  /// Where the child's standard input comes from.
  public enum Input {
    case null
    /// A socket the test writes to with `send` (a socket rather than a pipe: writes use MSG_NOSIGNAL, so a dead
    /// child cannot SIGPIPE the test runner) and closes with `closeInput`.
    case writer
    /// Read from this file (a regular file, as with `tictactoe ... < moves.txt`).
    case file(String)
  }

  /// Where the child's standard output goes.
  public enum Output {
    case null
    /// Into this file (created or truncated, mode 0600).
    case file(String)
    /// Into a pipe the test reads without blocking (`outputDescriptor`, `readAvailable`, `text`).
    case capture
  }

  /// Where the child's standard error goes.
  public enum Errors {
    case null
    case file(String)
    /// Wherever standard output goes.
    case withOutput
  }

  /// What went wrong starting a program.
  public struct SpawnError: Error, CustomStringConvertible {
    public let arguments: [String]
    public let code: Int32
    public var description: String {
      "could not start \(arguments.joined(separator: " ")): \(String(cString: strerror(code)))"
    }
  }

  public let pid: pid_t
  public let arguments: [String]
  private var inputWriter: Int32 = -1
  /// The read end of the captured output; nil once the child closed it (or when output is not captured).
  public private(set) var outputDescriptor: Int32?
  /// The output captured so far.
  public private(set) var captured: [UInt8] = []
  private let reaper: Reaper

  /// Starts `executable` (searched in PATH when it has no slash) with `arguments`; `environment` nil passes
  /// this process's own.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Input = .null,
    output: Output = .null, errors: Errors = .null
  ) throws {
    self.arguments = [executable] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Descriptors of this process that the child gets as 0, 1 or 2: closed here once it has started.
    var lent: [Int32] = []
    var kept: [Int32] = []
    defer { for fd in lent { close(fd) } }
    let fail = { (code: Int32) -> SpawnError in
      for fd in kept { close(fd) }
      return SpawnError(arguments: [executable] + arguments, code: code)
    }

    switch input {
    case .null:
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
    case .writer:
      var pair: [Int32] = [-1, -1]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw fail(errno)
      }
      posix_spawn_file_actions_adddup2(&actions, pair[0], 0)
      lent.append(pair[0])
      kept.append(pair[1])
      inputWriter = pair[1]
    }
    switch output {
    case .null:
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    case .capture:
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else { throw fail(errno) }
      for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
      posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
      lent.append(ends[1])
      kept.append(ends[0])
      outputDescriptor = ends[0]
    }
    switch errors {
    case .null: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    case .withOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    // Nothing else this process has open reaches the child, so no daemon it starts holds a test's descriptor.
    // (Most are close-on-exec already; glibc's closefrom action does not reach Swift.)
    for fd in 3..<min(1024, sysconf(Int32(_SC_OPEN_MAX))) { posix_spawn_file_actions_addclose(&actions, Int32(fd)) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = self.arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let result =
      if let envp {
        posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
      } else {
        posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
      }
    guard result == 0 else { throw fail(result) }
    self.pid = pid
    reaper = try Reaper(pid)
  }

  /// Runs a program to its end (at most `timeout` seconds, then it is stopped and the issue recorded), its
  /// standard output and error captured together.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 60,
    errors: Errors = .withOutput
  ) throws -> (status: Int32?, output: String) {
    let child = try ChildProcess(executable, arguments, environment: environment, output: .capture, errors: errors)
    let status = child.wait(timeout: timeout)
    if status == nil {
      child.stop()
      Issue.record("\(child.arguments.joined(separator: " ")) did not finish within \(timeout) s:\n\(child.text)")
    }
    return (status, child.text)
  }

  /// The PID of a process that has ended and was reaped (for tests of what is left behind by dead processes).
  public static func endedProcessID() throws -> pid_t {
    let child = try ChildProcess("/bin/true", [])
    guard child.wait(timeout: 30) != nil else { throw SpawnError(arguments: child.arguments, code: ETIMEDOUT) }
    return child.pid
  }

  deinit {
    stop()
    if let outputDescriptor { close(outputDescriptor) }
  }

  // MARK: input

  /// Writes `text` to the child's standard input; false if it is closed or the child stopped reading.
  @discardableResult
  public func send(_ text: String) -> Bool {
    guard inputWriter >= 0 else { return false }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { Glibc.send(inputWriter, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      bytes = bytes.dropFirst(count)
    }
    return true
  }

  /// Ends the child's standard input (it reads end of file).
  public func closeInput() {
    if inputWriter >= 0 { close(inputWriter) }
    inputWriter = -1
  }

  // MARK: captured output

  /// The captured output as text (lossy).
  public var text: String {
    readAvailable()
    return String(decoding: captured, as: UTF8.self)
  }

  /// The complete lines of captured output so far (a line still being written is left out).
  public var lines: [Substring] {
    let text = text
    guard let end = text.lastIndex(of: "\n") else { return [] }
    return text[..<end].split(separator: "\n")
  }

  /// Takes what captured output has arrived, without waiting.
  public func readAvailable() {
    guard let descriptor = outputDescriptor else { return }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        captured += buffer[0..<count]
        continue
      }
      if count < 0 && errno == EINTR { continue }
      if count == 0 || errno != EAGAIN {
        close(descriptor)
        outputDescriptor = nil
      }
      return
    }
  }

  /// Waits (at most `timeout` seconds) until the captured output satisfies `condition`; whether it did.
  public func waitForOutput(timeout: Double = 20, _ condition: (String) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let text = text
      if condition(text) { return true }
      guard let descriptor = outputDescriptor else { return false }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&entry, 1, Int32((left * 1000).rounded(.up)))
    }
  }

  // MARK: the process

  /// Whether the child still runs.
  public var isRunning: Bool { reaper.status == nil }

  /// The exit status once the child has ended: its exit code, or 128 + the signal that killed it.
  public var exitStatus: Int32? {
    guard let status = reaper.status else { return nil }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// The signal that ended the child, if one did.
  public var terminatingSignal: Int32? {
    guard let status = reaper.status, status & 0x7F != 0 else { return nil }
    return status & 0x7F
  }

  /// Waits at most `timeout` seconds for the child to end, taking captured output meanwhile; its exit status,
  /// or nil if it still runs. Returns as soon as the child has been reaped (the reaper wakes this wait).
  @discardableResult
  public func wait(timeout: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while isRunning {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      var entries = [pollfd(fd: reaper.exited, events: Int16(POLLIN), revents: 0)]
      if let outputDescriptor { entries.append(pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)) }
      _ = poll(&entries, nfds_t(entries.count), Int32(min(1000, (left * 1000).rounded(.up))))
      readAvailable()
    }
    readAvailable()
    return exitStatus
  }

  /// Sends `number` to the child (by its PID), unless it has already been reaped.
  public func signal(_ number: Int32) {
    if isRunning { kill(pid, number) }
  }

  /// Ends the child: its input closed, then SIGTERM, then SIGKILL if it is still there after `grace` seconds;
  /// each sent to this PID only. Reaps it.
  public func stop(grace: Double = 5) {
    closeInput()
    guard isRunning else { return }
    kill(pid, SIGTERM)
    if wait(timeout: grace) != nil { return }
    kill(pid, SIGKILL)
    if wait(timeout: 60) == nil { Issue.record("\(arguments.joined(separator: " ")) outlived SIGKILL by 60 s") }
  }
}

/// Reaps one child: a thread blocked in waitpid for its PID alone, which keeps the status and makes `exited`
/// readable, so a wait ends the moment the child does (and never by polling on a timer).
private final class Reaper: @unchecked Sendable {
  private let lock = NSLock()
  private var raw: Int32?
  /// Readable once the child has been reaped.
  let exited: Int32
  private let signal: Int32

  init(_ pid: pid_t) throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    (exited, signal) = (ends[0], ends[1])
    Thread.detachNewThread { [self] in
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      lock.withLock { raw = status }
      var byte: UInt8 = 1
      _ = write(signal, &byte, 1)
    }
  }

  /// The raw wait status, once reaped.
  var status: Int32? { lock.withLock { raw } }

  deinit {
    close(exited)
    close(signal)
  }
}

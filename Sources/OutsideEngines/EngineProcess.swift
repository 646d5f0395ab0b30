import CSpawn
import Glibc
import UntrustedText

/// An outside engine's process: started with posix_spawn (no shell) in a session of its own, its standard
/// input, output and error on pipes of ours (non-blocking at our end); it inherits no other descriptor: every one
/// from 3 up is closed in the child, close-on-exec or not (a library's socket, a listening socket), and the pipes
/// are made close-on-exec from the start (pipe2), so a spawn on another thread cannot inherit them either.
/// Stopped with END, then SIGKILL to its group if it does not exit within half a second.
package final class EngineProcess {
  package let pid: pid_t
  /// Where the protocol's lines go (the engine's standard input).
  private(set) var input: Int32
  /// The engine's standard output and standard error.
  let output: Int32
  let errors: Int32
  private var exitStatus: Int32?
  /// POSIX_SPAWN_SETSID (glibc 2.26 and later), which spawn.h shows only to _GNU_SOURCE.
  private static let spawnSetSID: Int32 = 0x80

  /// Why an engine could not be started.
  struct StartError: Error, CustomStringConvertible {
    let program: String
    let code: Int32
    var description: String {
      "cannot start the engine \"\(VisibleText.escaping(program))\": \(String(cString: strerror(code))); "
        + "check the command (a program in PATH or a path to one)"
    }
  }

  init(_ words: [String]) throws(StartError) {
    let program = words.first ?? ""
    var pipes: [[Int32]] = []
    for _ in 0..<3 {
      var fds: [Int32] = [-1, -1]
      guard tictactoe_pipe_cloexec(&fds) == 0 else {
        let code = errno
        for pair in pipes { for fd in pair { close(fd) } }
        throw StartError(program: program, code: code)
      }
      pipes.append(fds)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
    // After the dup2s (actions run in order): nothing from 3 up reaches the engine.
    let closing = tictactoe_spawn_closefrom(&actions, 3)
    guard closing == 0 else {
      for pair in pipes { for fd in pair { close(fd) } }
      throw StartError(program: program, code: closing)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A session of its own (so a process group too, whose number is its pid): no controlling terminal, so it
    // cannot open /dev/tty and write over the screen; the terminal's Ctrl-C is ours to handle; and a stop
    // reaches its children too.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
    close(pipes[0][0])
    close(pipes[1][1])
    close(pipes[2][1])
    guard result == 0 else {
      close(pipes[0][1])
      close(pipes[1][0])
      close(pipes[2][0])
      throw StartError(program: program, code: result)
    }
    self.pid = pid
    input = pipes[0][1]
    output = pipes[1][0]
    errors = pipes[2][0]
    for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  }

  deinit { stop() }

  /// Writes protocol lines, each ended with CR LF. False when the engine does not take them: it has exited, or
  /// it has left a pipe's worth (64 KiB) unread, which an engine that reads its commands never does.
  func send(_ lines: [String]) -> Bool {
    guard input >= 0 else { return false }
    let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  /// How the process ended, if it has: "exited with status 3", "killed by signal 11"; nil while it runs.
  package func ended() -> String? {
    if exitStatus == nil {
      // Seen without reaping first, so that its process group's number cannot be reused yet: whatever it
      // started in its group goes with it.
      var info = siginfo_t()
      if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        if waitpid(pid, &status, 0) == pid { exitStatus = status }
      }
    }
    guard let status = exitStatus else { return nil }
    let signal = status & 0x7F
    return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "killed by signal \(signal)"
  }

  /// Says END, closes its input, and waits up to half a second for it to exit; then kills its process group.
  /// Safe to call more than once.
  func stop() {
    guard !finished else { return }
    hangUp()
    for _ in 0..<50 where ended() == nil {
      var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
      nanosleep(&pause, nil)
    }
    finish()
  }

  /// Says END and closes its input, without waiting: a process that reads its input ends soon after.
  func hangUp() {
    guard input >= 0 else { return }
    _ = send(["END"])
    close(input)
    input = -1
  }

  /// Whether `finish` has run: the process is gone and its pipes are closed.
  private(set) var finished = false

  /// Kills its process group unless it has exited (by its pid, which is not reaped until then), reaps it and
  /// closes our ends of its pipes. Safe to call more than once.
  package func finish() {
    guard !finished else { return }
    hangUp()
    finished = true
    if ended() == nil {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      var status: Int32 = 0
      if waitpid(pid, &status, 0) == pid { exitStatus = status }
    }
    close(output)
    close(errors)
  }
}

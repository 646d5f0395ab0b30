import Glibc

/// The write end of the self-pipe that signal handlers wake the event loop through.
nonisolated(unsafe) private var signalPipeWriter: Int32 = -1

/// Turns SIGINT, SIGTERM, SIGHUP, SIGWINCH and SIGCONT into bytes on a pipe the event loop polls, so every exit path
/// goes through the same clean-up (the terminal is always restored). SIGPIPE is ignored.
public final class SignalPipe {
  public let readDescriptor: Int32
  public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT]

  public init() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    readDescriptor = fds[0]
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    signalPipeWriter = fds[1]
    signal(SIGPIPE, SIG_IGN)
    for number in SignalPipe.handled {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalPipeWriter, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(number, &action, nil)
    }
  }

  /// The signals that arrived since the last call.
  public func drain() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var result: [Int32] = []
    while true {
      let count = read(readDescriptor, &buffer, buffer.count)
      if count <= 0 { break }
      result += buffer[0..<count].map { Int32($0) }
    }
    return result
  }
}

/// Clears the signal mask inherited from whatever started the program, so SIGINT, SIGTERM and SIGHUP always
/// reach it (a parent that blocked them would otherwise make the game unkillable but by SIGKILL).
public func unblockInheritedSignals() {
  var none = sigset_t()
  sigemptyset(&none)
  sigprocmask(SIG_SETMASK, &none, nil)
}

/// What a signal the loop reports means, the same for every front end (the full screen, plain mode, the bot,
/// a replay): SIGWINCH redraws; SIGCONT takes the terminal back and redraws; SIGINT, SIGTERM and SIGHUP end the program, after a goodbye to any peer, with
/// status 128 + the signal (the bot, whose players were all told, exits 0).
public enum SignalMeaning: Sendable, Equatable {
  /// The terminal changed size: draw again.
  case resized
  /// The program was stopped (kill -STOP, or Ctrl-Z under a shell) and goes on: the shell that had the terminal
  /// meanwhile left it in its own modes (cooked, echoing, its own screen), so take it back and draw it all again.
  case resumed
  /// End the program: say goodbye to any peer, restore the terminal, exit with `status`.
  case end(status: Int32)

  public init(_ signal: Int32) {
    switch signal {
    case SIGWINCH: self = .resized
    case SIGCONT: self = .resumed
    default: self = .end(status: 128 + signal)
    }
  }
}

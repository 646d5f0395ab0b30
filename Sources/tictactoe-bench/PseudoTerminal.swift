#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal of a given size: the benchmark holds the master side and reads what a program started on
/// the other side draws, as a terminal emulator would.
final class PseudoTerminal {
  let master: Int32
  /// The terminal side, opened here (without becoming this process's controlling terminal) to hand to a child.
  let terminal: Int32

  // Linux ioctl numbers Swift does not import: TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, uint).
  private static let unlockRequest: UInt = 0x4004_5431
  private static let numberRequest: UInt = 0x8004_5430

  init(width: Int, height: Int) throws {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { throw BenchError("cannot open /dev/ptmx: \(String(cString: strerror(errno)))") }
    var unlocked: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, Self.unlockRequest, &unlocked) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
      close(master)
      throw BenchError("cannot set up a pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard terminal >= 0 else {
      close(master)
      throw BenchError("cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
    }
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(terminal)
    close(master)
  }

  /// Reads what the program writes until `done` says the output so far is complete, at most `timeout` seconds.
  /// Returns the monotonic time (ns) at which the read that completed it returned, or nil on timeout or end.
  func readUntil(timeout: Double, _ done: ([UInt8]) -> Bool) -> (time: UInt64, output: [UInt8])? {
    var output: [UInt8] = []
    let deadline = Clock.seconds() + timeout
    while Clock.seconds() < deadline {
      guard let chunk = Descriptor.read(master, waitingAtMost: deadline - Clock.seconds()) else { return nil }
      guard !chunk.isEmpty else { continue }
      let time = Clock.now()
      output += chunk
      if done(output) { return (time, output) }
    }
    return nil
  }

  /// Reads and throws away whatever is waiting (so a program writing to the terminal never blocks).
  func drain() {
    while let chunk = Descriptor.read(master, waitingAtMost: 0), !chunk.isEmpty {}
  }
}

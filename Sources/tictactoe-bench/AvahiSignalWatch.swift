#if canImport(Glibc)
  import Glibc
#endif

/// Counts the D-Bus signals avahi-daemon sends (through `dbus-monitor` on the system bus). Every program using
/// avahi's DNS-SD compatibility library receives every such signal, whoever it is for (avahi-client subscribes
/// by interface, not by object), and wakes to look at it: a measurement of idle wakeups is only clean when
/// none arrived.
final class AvahiSignalWatch {
  private let process: ChildProcess?
  private let output: Pipe

  /// Starts watching; when dbus-monitor cannot run, `signals()` returns nil.
  init() throws {
    output = try Pipe()
    process = try? ChildProcess(
      "dbus-monitor", ["--system", "type='signal',sender='org.freedesktop.Avahi'"],
      environment: ChildProcess.currentEnvironment(), stdout: .descriptor(output.writer))
    output.closeWriter()
    // Let it subscribe, then forget what it printed on starting.
    usleep(300_000)
    _ = signals()
  }

  deinit { process?.stop() }

  /// How many signals avahi-daemon sent since the last call, or nil when dbus-monitor is not running.
  func signals() -> Int? {
    guard let process, !process.hasExited else { return nil }
    var text: [UInt8] = []
    while let chunk = output.read(waitingAtMost: 0), !chunk.isEmpty { text += chunk }
    return String(decoding: text, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("signal ") }.count
  }
}

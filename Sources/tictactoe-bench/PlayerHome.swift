#if canImport(Glibc)
  import Glibc
#endif

/// The programs the benchmark runs, found beside its own executable (scripts/bench.sh builds them all).
enum Programs {
  /// The directory holding this executable.
  static var directory: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "."
    return path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
  }

  /// The built program `name` beside this one; throws when it was not built.
  static func path(_ name: String) throws -> String {
    let path = directory + "/" + name
    guard access(path, X_OK) == 0 else {
      throw BenchError("\(path) is missing: build every product first (scripts/bench.sh does: swift build -c release)")
    }
    return path
  }
}

/// The C baseline (scripts/bench-curses-baseline.c), compiled with the system's C compiler beside this
/// executable when missing or older than its source.
enum CursesBaseline {
  /// The source, found from where this file was compiled (the benchmark runs from its package's build).
  static let source: String = {
    let here = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return (here.dropLast(3) + ["scripts", "bench-curses-baseline.c"]).joined(separator: "/")
  }()

  static func path() throws -> String {
    let output = Programs.directory + "/tictactoe-bench-curses-baseline"
    guard let sourceTime = modified(source) else { throw BenchError("the C baseline's source \(source) is missing") }
    if let builtTime = modified(output), builtTime >= sourceTime { return output }
    for compiler in ["cc", "clang"] {
      _ = try? ChildProcess.output(compiler, ["-O2", "-o", output, source, "-lncursesw"], timeout: 60)
      if modified(output) != nil { return output }
    }
    throw BenchError("cannot compile \(source) with cc or clang (are a C compiler and libncursesw5-dev installed?)")
  }

  /// When `path` was last modified (seconds since 1970), or nil if it does not exist.
  private static func modified(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mtim.tv_sec : nil
  }
}

/// A private home for one player: XDG directories under a fresh temporary directory, removed when dropped.
final class PlayerHome {
  let root: String
  /// The environment a program started for this player gets (nothing else of the benchmark's own).
  let environment: [String: String]

  init(_ name: String) throws {
    var template = Array("/tmp/ttt-bench-\(name)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    root = String(cString: made)
    var environment = [
      "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
      "XDG_STATE_HOME": root + "/state", "LANG": "C.UTF-8", "AVAHI_COMPAT_NOWARN": "1", "USER": name,
      "TERM": "xterm-256color",
    ]
    let inherited = ChildProcess.currentEnvironment()
    for key in ["PATH", "DBUS_SYSTEM_BUS_ADDRESS"] { environment[key] = inherited[key] }
    self.environment = environment
  }

  deinit { _ = try? ChildProcess.output("rm", ["-rf", root]) }
}

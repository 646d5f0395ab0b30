#if canImport(Glibc)
  import Glibc
#endif

/// The binary the Debian package installs (release, Swift standard library linked statically, stripped: what
/// scripts/install.sh builds) beside the dynamic release build, in the same run: resident memory of a
/// networked game (host and joiner full-screen in tmux at 80×24, the larger of the two once the game has
/// started) and the time to the lobby's first frame. The packaged binary is named by the environment variable
/// TICTACTOE_PACKAGED_BIN, which scripts/bench.sh sets.
enum PackageBenchmark {
  static let variable = "TICTACTOE_PACKAGED_BIN"

  struct Result {
    var packagedBytes = Samples()
    var dynamicBytes = Samples()
    var packagedFrame = Samples()
    var dynamicFrame = Samples()
  }

  /// The packaged binary, or nil when the variable is unset.
  static func packagedPath() throws -> String? {
    guard let value = getenv(variable) else { return nil }
    let path = String(cString: value)
    guard access(path, X_OK) == 0 else { throw BenchError("\(variable)=\(path) is not an executable") }
    return path
  }

  static func run(packaged: String, games: Int, frames: Int) throws -> Result {
    let dynamic = try Programs.path("tictactoe")
    var result = Result()
    // Alternating, so that a slower stretch of the machine falls on both.
    for index in 0..<games {
      let order = index.isMultiple(of: 2) ? [packaged, dynamic] : [dynamic, packaged]
      for binary in order {
        let bytes = Double(try gameResidentBytes(binary))
        if binary == packaged { result.packagedBytes.append(bytes) } else { result.dynamicBytes.append(bytes) }
      }
    }
    let home = try PlayerHome("package-frame")
    let marker: String
    do {
      let tmux = Tmux()
      try tmux.start("lobby", [dynamic], environment: home.environment)
      let screen = try tmux.waitFor("lobby", "the lobby") { LobbyText.lastWord($0) != nil }
      guard let word = LobbyText.lastWord(screen) else { throw BenchError("the lobby drew nothing") }
      marker = word
    }
    for index in 0..<frames {
      let order = index.isMultiple(of: 2) ? [packaged, dynamic] : [dynamic, packaged]
      for binary in order {
        let time = try FirstFrameBenchmark.time([binary], marker: marker, environment: home.environment)
        if binary == packaged { result.packagedFrame.append(time) } else { result.dynamicFrame.append(time) }
      }
    }
    return result
  }

  /// A host and a joiner of `binary` in a game over loopback: the larger resident memory of the two.
  private static func gameResidentBytes(_ binary: String) throws -> Int {
    let tmux = Tmux()
    let hostHome = try PlayerHome("package-host")
    let joinHome = try PlayerHome("package-join")
    let host = try tmux.start(
      "host", [binary, "host", "--port", "0", "--bind", "127.0.0.1", "--accept-new", "--name", "host"],
      environment: hostHome.environment)
    let port = try tmux.hostingPort("host", "the host to listen")
    let joiner = try tmux.start(
      "join", [binary, "join", "127.0.0.1:\(port)", "--accept-new", "--name", "joiner"],
      environment: joinHome.environment)
    _ = try IdleBenchmark.whoWaits(tmux)
    usleep(UInt32(IdleBenchmark.settleSeconds * 1e6))
    let bytes = max(try ProcessSample.read(pid: host).residentBytes, try ProcessSample.read(pid: joiner).residentBytes)
    try tmux.stop("join")
    try tmux.stop("host")
    return bytes
  }
}

extension Benchmarks {
  func packageRows() throws -> [Row] {
    guard let packaged = try PackageBenchmark.packagedPath() else {
      if options.only != nil {
        throw BenchError("the package rows need \(PackageBenchmark.variable): run scripts/bench.sh, which sets it")
      }
      printError("note: no package rows: \(PackageBenchmark.variable) is not set (scripts/bench.sh sets it)")
      return []
    }
    progress("the packaged (static) binary beside the dynamic build")
    let measured = try PackageBenchmark.run(packaged: packaged, games: smoke ? 1 : 5, frames: smoke ? 2 : 20)
    return [
      Row(
        figure: "Packaged (static) binary: resident memory, networked game, median (\(measured.packagedBytes.count))",
        value: measured.packagedBytes.median, baseline: measured.dynamicBytes.median, baselineKind: "dynamic build",
        unit: .bytes),
      Row(
        figure: "Packaged (static) binary: first frame of the lobby, median (\(measured.packagedFrame.count))",
        value: measured.packagedFrame.median, baseline: measured.dynamicFrame.median, baselineKind: "dynamic build",
        unit: .time),
    ]
  }
}

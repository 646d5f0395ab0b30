import PeerTrust
import PlayerFiles
import Security

#if canImport(Glibc)
  import Glibc
#endif

/// The bot host (`tictactoe host --bot perfect --accept-new`, the release binary) with one honest joiner from
/// 127.0.0.1 (`LoadGenerator`, one game, a move every 20–50 ms), first quiet, then while a child process
/// (`AbuseClient`, from 127.0.0.2 and up) runs each abuse in turn, reconnecting whenever dropped. Each abuse's
/// round trips are judged against the quiet ones of the same run (target: p99 within 2×); the bot's resident
/// memory at the end of each abuse against the quiet figure and the 64 MiB target; the log's growth per minute
/// of the worst abuse against the 1 MB/min target.
enum AbuseBenchmark {
  struct Phase {
    var run = LoadGenerator.Run()
    var residentBytes = 0.0
    var logBytesPerMinute = 0.0
    /// The abuse client's last report ("connections N dropped M").
    var report = ""
  }

  static let memoryTarget = 64.0 * 1024 * 1024
  static let logTarget = 1_000_000.0
  static let think = 0.02...0.05

  /// The bot under test, the honest joiner playing it, and its log.
  struct Target {
    let server: ServerProcess
    let port: UInt16
    let honest: LoadGenerator
    let log: String
  }

  /// How each abuse phase runs: the honest joiner's playing time after a warm-up, the abuse client's program and
  /// the CPU it is pinned to (nil: not pinned).
  private struct PhasePlan {
    let seconds: Double
    let warmUp: Double
    let smoke: Bool
    let program: String
    let abuserCPU: Int?
  }

  static func rows(smoke: Bool) throws -> [Row] {
    // The bot and the honest joiner (this thread, and the bot it starts) share every CPU but the last, which is
    // the abuser's own (`CPUAffinity`); on a machine of one CPU nothing is pinned.
    let cpus = CPUAffinity.count
    let pinned = cpus > 1 && CPUAffinity.pin(0, to: Array(0..<(cpus - 1)))
    defer { if pinned { CPUAffinity.pin(0, to: Array(0..<cpus)) } }
    if pinned {
      printError("  the abusers run on CPU \(cpus - 1); the bot and the honest joiner on CPUs 0-\(cpus - 2)")
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let client = try Identity.generate(commonName: "bench-honest")
    // The bot starts with 100,000 players in its known_peers (the file a bot that lets everyone in grows).
    let players = smoke ? 1_000 : 100_000
    let knownPeers = directory.path + "/data/tictactoe/known_peers"
    try writeKnownPeers(players, to: knownPeers)
    let loads = try timeLoads(of: knownPeers, players: players, times: smoke ? 1 : 5)
    let target = try startBot(in: directory.path, client: client)
    // About 250 round trips a phase, so the p99 is not the one slowest sample.
    let seconds = smoke ? 0.5 : 10
    var quiet = Phase()
    quiet.run = try target.honest.play(for: seconds, think: think)
    quiet.residentBytes = try target.server.residentBytes()
    let plan = PhasePlan(
      seconds: seconds, warmUp: smoke ? 0.3 : 1.5, smoke: smoke, program: try Programs.path("tictactoe-bench"),
      abuserCPU: pinned ? cpus - 1 : nil)
    var phases: [(AbuseClient.Kind, Phase)] = []
    for kind in AbuseClient.Kind.allCases {
      phases.append((kind, try abusePhase(kind, against: target, plan: plan)))
    }
    target.honest.expectServerToStop()
    let status = try target.server.stop()
    target.honest.closeAll()
    guard status == 0 else {
      throw BenchError("the bot did not stop cleanly (status \(status)):\n\(target.server.output)")
    }
    return [
      Row(
        figure:
          "known_peers of \(players) players (\(Table.format(Double(fileBytes(knownPeers)), .bytes))): load, median (\(loads.count))",
        value: loads.median, baseline: 1e9, baselineKind: "1 s target", unit: .time)
    ] + rows(quiet: quiet, phases: phases)
  }

  /// How long loading the known_peers file at `path` takes, `times` times; it must hold `players`.
  private static func timeLoads(of path: String, players: Int, times: Int) throws -> Samples {
    var loads = Samples()
    for _ in 0..<times {
      let start = Clock.now()
      let loaded = try KnownPeersFile(path: path).load()
      loads.append(Double(Clock.now() - start))
      guard loaded.count == players else { throw BenchError("known_peers held \(loaded.count) players") }
    }
    return loads
  }

  /// Starts the bot in `directory` and connects the honest joiner to it, pinning the key the bot prints.
  static func startBot(in directory: String, client: Identity) throws -> Target {
    let (server, _) = try BotLoadBenchmark.start(.bot, in: directory, client: client)
    let line = try server.waitForLine(startingWith: "Practice bot ")
    let digits = line.components(after: " port ") ?? Substring(line)
    guard let port = UInt16(digits.prefix { $0.isNumber }) else { throw BenchError("no port in \"\(line)\"") }
    guard let fingerprint = Fingerprint(parsing: try server.waitForLine(startingWith: "Key: ")) else {
      throw BenchError("the bot's key is unknown:\n\(server.output)")
    }
    let context = try TLSContext(
      role: .client, identity: client, options: TrustOptions(policy: .pinned([PinnedKey(fingerprint)])))
    let honest = LoadGenerator(server: .bot, port: port, context: context)
    _ = try honest.ramp(to: 1, window: 1, timeout: 30)
    return Target(server: server, port: port, honest: honest, log: directory + "/state/tictactoe/tictactoe.log")
  }

  /// One abuse: its client started on its own CPU, the honest joiner plays through it after a warm-up, and the
  /// bot's memory, its log's growth and the client's last report are taken before the client is stopped.
  private static func abusePhase(_ kind: AbuseClient.Kind, against target: Target, plan: PhasePlan) throws -> Phase {
    printError("  abuse: \(kind.label)")
    let logBefore = logBytes(target.log)
    let began = Clock.seconds()
    let pipe = try Pipe()
    var arguments = [AbuseClient.probeArgument, kind.rawValue, "\(target.port)"]
    if plan.smoke && kind == .pending { arguments.append("50") }
    let abuser = try ChildProcess(plan.program, arguments, environment: [:], stdout: .descriptor(pipe.writer))
    if let cpu = plan.abuserCPU { CPUAffinity.pin(abuser.pid, to: [cpu]) }
    pipe.closeWriter()
    target.honest.idle(for: plan.warmUp)
    var phase = Phase()
    phase.run = try target.honest.play(for: plan.seconds, think: think)
    phase.residentBytes = try target.server.residentBytes()
    let minutes = (Clock.seconds() - began) / 60
    phase.logBytesPerMinute = Double(logBytes(target.log) - logBefore) / minutes
    let text = String(decoding: pipe.read(waitingAtMost: 0) ?? [], as: UTF8.self)
    phase.report = text.split(separator: "\n").last.map(String.init) ?? "no report"
    abuser.stop()
    printError("    \(phase.report); honest p99 \(Table.format(phase.run.latencies.p99, .time))")
    return phase
  }

  /// A known_peers file of `count` players (names and keys made up, one line each), mode 0600 in a 0700 folder.
  private static func writeKnownPeers(_ count: Int, to path: String) throws {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)])
    mkdir(parent, 0o700)
    mkdir(folder, 0o700)
    var text = "# players of a bot that lets everyone in\n"
    for number in 0..<count {
      var bytes = [UInt8](repeating: 0x5A, count: 32)
      withUnsafeBytes(of: UInt64(number).bigEndian) { bytes.replaceSubrange(0..<8, with: $0) }
      guard let key = Fingerprint(bytes: bytes) else { continue }
      text += "player\(number) \(key) 2026-12-01\n"
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot write \(path)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw BenchError("cannot write \(path)")
    }
  }

  private static func fileBytes(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  private static func rows(quiet: Phase, phases: [(AbuseClient.Kind, Phase)]) -> [Row] {
    let quietKind = "quiet, same run"
    var rows: [Row] = []
    for (kind, phase) in phases {
      let latencies = phase.run.latencies
      rows.append(
        Row(
          figure: "Bot, honest move round trip with \(kind.label), median (\(latencies.count))",
          value: latencies.median, baseline: quiet.run.latencies.median, baselineKind: quietKind, unit: .time))
      rows.append(
        Row(
          figure: "Bot, honest move round trip with \(kind.label), p99 (target 2×)", value: latencies.p99,
          baseline: quiet.run.latencies.p99, baselineKind: quietKind, unit: .time))
    }
    guard let largest = phases.max(by: { $0.1.residentBytes < $1.1.residentBytes }),
      let noisiest = phases.max(by: { $0.1.logBytesPerMinute < $1.1.logBytesPerMinute })
    else { return rows }
    rows.append(
      Row(
        figure: "Bot, resident memory, largest under abuse (\(largest.0.rawValue))", value: largest.1.residentBytes,
        baseline: quiet.residentBytes, baselineKind: quietKind, unit: .bytes))
    rows.append(
      Row(
        figure: "Bot, resident memory, largest under abuse (\(largest.0.rawValue))", value: largest.1.residentBytes,
        baseline: memoryTarget, baselineKind: "64 MiB target", unit: .bytes))
    rows.append(
      Row(
        figure: "Bot, log growth per minute of abuse, most (\(noisiest.0.rawValue))",
        value: noisiest.1.logBytesPerMinute, baseline: logTarget, baselineKind: "1 MB/min target", unit: .bytes))
    return rows
  }

  /// The log's size with its rotated copy (a rotation moves the file to `.1`).
  private static func logBytes(_ path: String) -> Int {
    var total = 0
    for file in [path, path + ".1"] {
      var info = stat()
      if stat(file, &info) == 0 { total += Int(info.st_size) }
    }
    return total
  }
}

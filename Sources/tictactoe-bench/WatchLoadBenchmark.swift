import Security

#if canImport(Glibc)
  import Glibc
#endif

/// One game of the practice bot (`tictactoe host --bot perfect`, the release binary) watched by nobody and by 100
/// spectators (PROTOCOL.md "Version 4: watching", rules 26 and 27): the player's move round trip (`LoadGenerator`,
/// one joiner from 127.0.0.1, a move 20–50 ms after each answer, a rematch after every game), median and p99 over
/// 5 runs of each, alternating, against the same game unwatched (targets: median within 1.1×, p99 within 1.5×);
/// the bot's CPU time per move in each; and the bot's resident memory per spectator against an OpenSSL C echo's per
/// connection. The bot runs on every CPU but the last; the generator (this thread, the joiner, and the spectators'
/// child process, `SpectatorCrowd`) on the last, as players and spectators run on machines of their own.
enum WatchLoadBenchmark {
  struct Settings {
    var runs: Int
    /// Seconds of play in each run.
    var seconds: Double
    var spectators: Int
    var think: ClosedRange<Double>

    static let full = Settings(runs: 5, seconds: 4, spectators: 100, think: 0.02...0.05)
    static let smoke = Settings(runs: 1, seconds: 0.5, spectators: 4, think: 0.01...0.03)
  }

  /// What the runs of one condition (watched or not) measured, pooled.
  struct Condition {
    var latencies = Samples()
    var runMedians: [Double] = []
    var runP99s: [Double] = []
    var cpuNanoseconds = 0.0
    var answers = 0
    var cpuPerMove: Double { cpuNanoseconds / Double(max(1, answers)) }
  }

  static func rows(smoke: Bool) throws -> [Row] {
    let settings = smoke ? Settings.smoke : Settings.full
    let cpus = CPUAffinity.count
    // The bot inherits this thread's CPUs when started; then this thread moves to the last CPU, where the
    // spectators' process is started too.
    let split = cpus > 1 && CPUAffinity.pin(0, to: Array(0..<(cpus - 1)))
    defer { if split { CPUAffinity.pin(0, to: Array(0..<cpus)) } }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let client = try Identity.generate(commonName: "bench-watched")
    let target = try AbuseBenchmark.startBot(in: directory.path, client: client)
    if split {
      CPUAffinity.pin(0, to: [cpus - 1])
      printError("  the bot runs on CPUs 0-\(cpus - 2); the player and the spectators on CPU \(cpus - 1)")
    }
    let program = try Programs.path("tictactoe-bench")
    var (quiet, watched) = (Condition(), Condition())
    var memoryPerSpectator = 0.0
    for run in 0..<settings.runs {
      try play(target, settings, into: &quiet)
      let before = try target.server.residentBytes()
      let crowd = try Crowd(program: program, port: target.port, game: 1, count: settings.spectators)
      let report: SpectatorCrowd.Report
      do {
        try crowd.waitUntilAllWatch(keeping: target.honest, timeout: 30)
        try play(target, settings, into: &watched)
        // The first time 100 come: later runs reuse what the allocator kept from the first.
        if run == 0 { memoryPerSpectator = (try target.server.residentBytes() - before) / Double(settings.spectators) }
        report = try crowd.finish(keeping: target.honest)
      } catch {
        throw BenchError("\(error); the bot's log ends:\n\(logTail(target.log))")
      }
      printError(
        "  run \(run + 1): 0 spectators median \(Table.format(quiet.runMedians[run], .time)) p99 "
          + "\(Table.format(quiet.runP99s[run], .time)); \(settings.spectators): median "
          + "\(Table.format(watched.runMedians[run], .time)) p99 \(Table.format(watched.runP99s[run], .time)); "
          + "spectators saw \(report.moves) moves")
      // The bot sees them go before the next unwatched run.
      target.honest.idle(for: smoke ? 0.1 : 0.5)
    }
    target.honest.expectServerToStop()
    let status = try target.server.stop()
    target.honest.closeAll()
    guard status == 0 else {
      throw BenchError("the bot did not stop cleanly (status \(status)):\n\(target.server.output)")
    }
    printError("measuring the OpenSSL echo baseline with \(settings.spectators) connections...")
    let echo = try BotLoadBenchmark.measure(
      .echo,
      .init(games: settings.spectators, window: 50, saturatedSeconds: 0.3, pacedSeconds: 0.3, think: 0.01...0.03),
      client: client)
    return rows(settings, quiet: quiet, watched: watched, memory: memoryPerSpectator, echo: echo.memoryPerGame)
  }

  /// The last 20 lines of the bot's log.
  private static func logTail(_ path: String) -> String {
    let lines = (ProcFile.read(path) ?? "").split(separator: "\n")
    return lines.suffix(20).joined(separator: "\n")
  }

  /// One run of play, its round trips and the bot's CPU time added to `condition`.
  private static func play(_ target: AbuseBenchmark.Target, _ settings: Settings, into condition: inout Condition)
    throws
  {
    let cpuBefore = try target.server.cpuNanoseconds()
    let run = try target.honest.play(for: settings.seconds, think: settings.think)
    condition.cpuNanoseconds += try target.server.cpuNanoseconds() - cpuBefore
    condition.answers += run.answers
    for sample in run.latencies.nanoseconds { condition.latencies.append(sample) }
    condition.runMedians.append(run.latencies.median)
    condition.runP99s.append(run.latencies.p99)
  }

  private static func rows(_ settings: Settings, quiet: Condition, watched: Condition, memory: Double, echo: Double)
    -> [Row]
  {
    let n = settings.spectators
    let same = "0 spectators, same run"
    let runs = "\(settings.runs) run\(settings.runs == 1 ? "" : "s")"
    return [
      Row(
        figure: "Bot game watched by \(n) spectators: move round trip, median (\(watched.latencies.count), \(runs))",
        value: watched.latencies.median, baseline: quiet.latencies.median, baselineKind: same, unit: .time),
      Row(
        figure: "Bot game watched by \(n) spectators: move round trip, p99 (target 1.5×; median 1.1×)",
        value: watched.latencies.p99, baseline: quiet.latencies.p99, baselineKind: same, unit: .time),
      Row(
        figure: "Bot game watched by \(n) spectators: bot CPU time per move", value: watched.cpuPerMove,
        baseline: quiet.cpuPerMove, baselineKind: same, unit: .time),
      Row(
        figure: "Bot: resident memory per spectator (\(n) watching one game)", value: memory, baseline: echo,
        baselineKind: "OpenSSL C echo, per connection", unit: .bytes),
    ]
  }

  /// The spectators' child process, on this thread's CPU, and what it last reported.
  private final class Crowd {
    let child: ChildProcess
    let pipe: Pipe
    let count: Int
    private var text = ""
    private(set) var latest = SpectatorCrowd.Report()

    init(program: String, port: UInt16, game: UInt16, count: Int) throws {
      self.count = count
      pipe = try Pipe()
      child = try ChildProcess(
        program, [SpectatorCrowd.probeArgument, "\(port)", "\(game)", "\(count)"], environment: [:],
        stdout: .descriptor(pipe.writer), stderr: .descriptor(2))
      pipe.closeWriter()
      // The spectators stand for 100 machines of their own: on the player's CPU, at the same priority, the
      // scheduler would let their reading preempt the player's (each move wakes them all just after the player).
      setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(child.pid), 19)
    }

    /// Reads the reports that came; throws when a spectator was refused or dropped.
    func update() throws {
      while let bytes = pipe.read(waitingAtMost: 0), !bytes.isEmpty { text += String(decoding: bytes, as: UTF8.self) }
      guard let end = text.lastIndex(of: "\n") else { return }
      for line in text[..<end].split(separator: "\n").reversed() {
        guard let report = SpectatorCrowd.Report(line: line) else { continue }
        latest = report
        break
      }
      text = String(text[text.index(after: end)...])
      guard latest.lost == 0 else { throw BenchError("\(latest.lost) of \(count) spectators were refused or dropped") }
    }

    /// Waits until every spectator has its snapshot, keeping the player's connection turning meanwhile.
    func waitUntilAllWatch(keeping player: LoadGenerator, timeout: Double) throws {
      let deadline = Clock.seconds() + timeout
      while latest.watching < count {
        guard Clock.seconds() < deadline, !child.hasExited else {
          throw BenchError("only \(latest.watching) of \(count) spectators were watching after \(timeout) s")
        }
        player.idle(for: 0.02)
        try update()
      }
    }

    /// The spectators' last report, then the process stopped; throws when any was refused or dropped.
    func finish(keeping player: LoadGenerator) throws -> SpectatorCrowd.Report {
      player.idle(for: 0.25)
      try update()
      child.stop()
      return latest
    }
  }
}

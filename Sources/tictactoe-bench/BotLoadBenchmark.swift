import PeerTrust
import PlayerFiles
import Security

#if canImport(Glibc)
  import Glibc
#endif

/// The bot host (`tictactoe host --bot perfect`, the release binary beside this one) under a load generator
/// holding N concurrent games on loopback, against a minimal OpenSSL C echo server under the same load, and
/// against the targets (p99 under 10 ms and under 100 KiB per game at N = 1,000).
enum BotLoadBenchmark {
  /// How hard and how long each server is pushed.
  struct Settings {
    /// Concurrent games (connections).
    var games: Int
    /// Connections still starting at once during the ramp-up.
    var window: Int
    /// Seconds of play with every client moving again as soon as it has its answer.
    var saturatedSeconds: Double
    /// Seconds of play with every client thinking `think` seconds (uniformly at random) before each move.
    var pacedSeconds: Double
    var think: ClosedRange<Double>
    /// Rounds of bot, bot without records and echo, one after the other; the table shows the round whose
    /// bot/echo ratio is the median.
    var rounds = 1

    static let full = Settings(
      games: 1_000, window: 100, saturatedSeconds: 5, pacedSeconds: 10, think: 0.1...0.3, rounds: 3)
    static let smoke = Settings(games: 4, window: 4, saturatedSeconds: 0.3, pacedSeconds: 0.5, think: 0.01...0.03)
  }

  /// What one server showed.
  struct Measured {
    var handshakesPerSecond = 0.0
    var saturated = LoadGenerator.Run()
    var paced = LoadGenerator.Run()
    /// Server CPU time per answer during the paced run, in nanoseconds.
    var cpuPerAnswer = 0.0
    /// CPU time per answer during the saturated run, in nanoseconds: the server's (every thread of it) and the
    /// load generator's (this process). On two cores both compete: the load's share caps the moves per second.
    var serverCPUSaturated = 0.0
    var loadCPUSaturated = 0.0
    /// The share of the CPUs each side may use that it used during the saturated run (1: all, all the time).
    var serverBusy = 0.0
    var loadBusy = 0.0
    var bound: LoadBound { LoadBound(serverBusy: serverBusy, generatorBusy: loadBusy) }
    /// (resident memory with every game up − before any) / games, in bytes.
    var memoryPerGame = 0.0
  }

  static let latencyTarget = 10_000_000.0
  static let memoryTarget = 100.0 * 1024

  /// Which CPUs the server and the load generator run on: all but the last for the server (it inherits them
  /// from the thread that starts it), the last for the generator (this thread), as the spectators' and the abuse
  /// rows split them; on a machine of one CPU both share it.
  struct Split {
    var server: [Int]
    var generator: [Int]
    var isSplit: Bool { server != generator }

    init(cpus: Int) {
      server = cpus > 1 ? Array(0..<(cpus - 1)) : [0]
      generator = cpus > 1 ? [cpus - 1] : [0]
    }
  }

  static func rows(smoke: Bool) throws -> [Row] {
    let settings = smoke ? Settings.smoke : Settings.full
    let client = try Identity.generate(commonName: "bench-load")
    OpenFiles.raiseLimit()
    let cpus = CPUAffinity.count
    let split = Split(cpus: cpus)
    defer { CPUAffinity.pin(0, to: Array(0..<cpus)) }
    if split.isSplit {
      printError(
        "  each server runs on CPUs \(split.server.map(String.init).joined(separator: ",")); the load on CPU \(cpus - 1)"
      )
    }
    var rounds: [Round] = []
    for number in 1...settings.rounds {
      let of = settings.rounds > 1 ? " (round \(number) of \(settings.rounds))" : ""
      printError("measuring the bot host with \(settings.games) games\(of)...")
      let bot = try measure(.bot, settings, client: client, split: split)
      printError(
        "measuring the bot host again with records off (records are signed for the joiner but not written)\(of)...")
      let unrecorded = try measure(.bot, settings, client: client, split: split, records: false)
      printError("measuring the OpenSSL echo baseline with \(settings.games) connections\(of)...")
      let echo = try measure(.echo, settings, client: client, split: split)
      for (name, run) in [("bot", bot), ("bot, records off", unrecorded), ("echo", echo)] {
        printError("  \(name): \(summary(run))")
      }
      rounds.append(Round(bot: bot, unrecorded: unrecorded, echo: echo))
    }
    let median = Round.median(of: rounds)
    if rounds.count > 1 {
      printError("  bot/echo moves per second by round: \(Round.ratios(rounds))")
    }
    return table(bot: median.bot, echo: median.echo, settings, rounds: rounds)
      + recordRows(bot: median.bot, unrecorded: median.unrecorded, settings)
  }

  /// One round: the bot, the bot with records off, and the echo, measured one after the other. The machine is
  /// shared: its speed drifts by more than the bot's own changes between minutes, so a round's three runs are
  /// compared with each other, and the rounds with each other only by their ratios.
  struct Round {
    var bot: Measured
    var unrecorded: Measured
    var echo: Measured
    /// The bot's moves per second over the echo's.
    var ratio: Double { bot.saturated.answersPerSecond / max(1, echo.saturated.answersPerSecond) }

    /// Each round's ratio, in the order they ran: "0.48×, 0.52×, 0.55×".
    static func ratios(_ rounds: [Round]) -> String {
      rounds.map { Table.significant($0.ratio) + "×" }.joined(separator: ", ")
    }

    /// The round whose ratio is the median of the rounds' (of an even number, the lower middle one).
    static func median(of rounds: [Round]) -> Round {
      rounds.sorted { $0.ratio < $1.ratio }[(rounds.count - 1) / 2]
    }
  }

  /// One server's saturated run in a line: moves per second, each side's CPU per move and busy share, the bound.
  static func summary(_ run: Measured) -> String {
    let perSecond = Table.format(run.saturated.answersPerSecond, .perSecond)
    let server = Table.format(run.serverCPUSaturated, .time)
    let load = Table.format(run.loadCPUSaturated, .time)
    let busy = { (share: Double) in Table.significant(share * 100) + " %" }
    let games =
      run.saturated.games > 0
      ? "; \(Table.significant(Double(run.saturated.answers) / Double(run.saturated.games))) answered moves a game" : ""
    return "\(perSecond); server \(server) a move, \(busy(run.serverBusy)) of its CPUs busy; load \(load) a move, "
      + "\(busy(run.loadBusy)) of its CPU busy: \(run.bound.words)\(games)"
  }

  /// The rows of the bot and the echo measured under the same load.
  static func table(bot: Measured, echo: Measured, _ settings: Settings, rounds: [Round] = []) -> [Row] {
    let n = settings.games
    let byRound =
      rounds.count > 1
      ? ", the median of \(rounds.count) rounds (\(Round.ratios(rounds)))"
      : ""
    let pace =
      "a move every \(Table.significant(settings.think.lowerBound))–\(Table.significant(settings.think.upperBound)) s"
    let same = "OpenSSL C echo, same load"
    return [
      Row(
        figure: "Bot host, \(n) games, no thinking: bot moves per second\(byRound)",
        value: bot.saturated.answersPerSecond,
        baseline: echo.saturated.answersPerSecond, baselineKind: same, unit: .perSecond),
      Row(
        figure: "Bot host, \(n) games, no thinking: server CPU time per move (all its threads)",
        value: bot.serverCPUSaturated, baseline: echo.serverCPUSaturated, baselineKind: same, unit: .time),
      Row(
        figure: "Bot host, \(n) games, no thinking: load generator CPU time per move", value: bot.loadCPUSaturated,
        baseline: echo.loadCPUSaturated, baselineKind: "its load on the OpenSSL C echo", unit: .time),
      Row(
        figure: "Bot host, \(n) games, no thinking: server's CPUs busy", value: bot.serverBusy * 100,
        baseline: echo.serverBusy * 100, baselineKind: same, unit: .percent),
      Row(
        figure: "Bot host, \(n) games, no thinking: load generator's CPU busy", value: bot.loadBusy * 100,
        baseline: echo.loadBusy * 100, baselineKind: "its load on the OpenSSL C echo", unit: .percent),
      Row(
        figure: "Bot host, \(n) games, \(pace) each: move latency, median (\(bot.paced.latencies.count))",
        value: bot.paced.latencies.median, baseline: echo.paced.latencies.median, baselineKind: same, unit: .time),
      Row(
        figure: "Bot host, \(n) games, \(pace) each: move latency, p99", value: bot.paced.latencies.p99,
        baseline: echo.paced.latencies.p99, baselineKind: same, unit: .time),
      Row(
        figure: "Bot host, \(n) games, \(pace) each: move latency, p99", value: bot.paced.latencies.p99,
        baseline: latencyTarget, baselineKind: "10 ms target", unit: .time),
      Row(
        figure: "Bot host, \(n) games, \(pace) each: server CPU time per move", value: bot.cpuPerAnswer,
        baseline: echo.cpuPerAnswer, baselineKind: same, unit: .time),
      Row(
        figure: "Bot host: handshakes per second ramping up to \(n) games", value: bot.handshakesPerSecond,
        baseline: echo.handshakesPerSecond, baselineKind: "OpenSSL C echo", unit: .perSecond),
      Row(
        figure: "Bot host: resident memory per game at \(n) games", value: bot.memoryPerGame,
        baseline: echo.memoryPerGame, baselineKind: "OpenSSL C echo, per connection", unit: .bytes),
      Row(
        figure: "Bot host: resident memory per game at \(n) games", value: bot.memoryPerGame, baseline: memoryTarget,
        baselineKind: "100 KiB target", unit: .bytes),
    ]
  }

  /// Starts the server, ramps up, plays without and then with thinking, reads its memory and CPU time, and stops
  /// it (the bot must say goodbye to every game and exit 0). The server runs on `split.server`, the load on
  /// `split.generator` (by default both wherever this thread may run).
  static func measure(
    _ kind: LoadGenerator.Server, _ settings: Settings, client: Identity, split: Split = Split(cpus: 1),
    records: Bool = true
  ) throws
    -> Measured
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    if split.isSplit { CPUAffinity.pin(0, to: split.server) }
    let (server, echoKey) = try start(kind, in: directory.path, client: client, records: records)
    if split.isSplit { CPUAffinity.pin(0, to: split.generator) }
    // The bot: "Practice bot (perfect) serving … on port 40123 (127.0.0.1)." and "Key: SHA256:…"; the echo: "port N".
    let line = try server.waitForLine(startingWith: kind == .bot ? "Practice bot " : "port ")
    let digits = line.components(after: " port ") ?? Substring(line)
    guard let port = UInt16(digits.prefix { $0.isNumber }) else { throw BenchError("no port in \"\(line)\"") }
    var fingerprint = echoKey
    if kind == .bot { fingerprint = Fingerprint(parsing: try server.waitForLine(startingWith: "Key: ")) }
    guard let fingerprint else { throw BenchError("the server's key is unknown:\n\(server.output)") }
    let context = try TLSContext(
      role: .client, identity: client, options: TrustOptions(policy: .pinned([PinnedKey(fingerprint)])))
    let before = try server.residentBytes()
    let generator = LoadGenerator(server: kind, port: port, context: context)
    var measured = Measured()
    let rampSeconds = try generator.ramp(to: settings.games, window: settings.window, timeout: 120)
    measured.handshakesPerSecond = Double(settings.games) / rampSeconds
    let start = (server: try ProcessSample.read(pid: server.pid), load: try ProcessSample.read(pid: getpid()))
    measured.saturated = try generator.play(for: settings.saturatedSeconds, think: nil)
    let end = (server: try ProcessSample.read(pid: server.pid), load: try ProcessSample.read(pid: getpid()))
    measured.serverCPUSaturated = cpuPerAnswer(from: start.server, to: end.server, measured.saturated)
    measured.loadCPUSaturated = cpuPerAnswer(from: start.load, to: end.load, measured.saturated)
    let seconds = measured.saturated.seconds
    measured.serverBusy =
      IdleCost(from: start.server, to: end.server, seconds: seconds).cpuPercent / 100 / Double(split.server.count)
    measured.loadBusy =
      IdleCost(from: start.load, to: end.load, seconds: seconds).cpuPercent / 100 / Double(split.generator.count)
    let cpuBefore = try server.cpuNanoseconds()
    measured.paced = try generator.play(for: settings.pacedSeconds, think: settings.think)
    measured.cpuPerAnswer = (try server.cpuNanoseconds() - cpuBefore) / Double(max(1, measured.paced.answers))
    measured.memoryPerGame = (try server.residentBytes() - before) / Double(settings.games)
    generator.expectServerToStop()
    let status = try server.stop()
    generator.closeAll()
    if kind == .bot {
      guard status == 0, server.output.contains("Stopped: said goodbye to \(settings.games) player") else {
        throw BenchError("the bot did not stop cleanly (status \(status)):\n\(server.output)")
      }
    }
    return measured
  }

  /// The bot with records off against the bot with them, in the same run: what the records cost a move.
  static func recordRows(bot: Measured, unrecorded: Measured, _ settings: Settings) -> [Row] {
    let n = settings.games
    let moves = bot.saturated.answers
    let games = bot.saturated.games
    return [
      Row(
        figure:
          "Bot host, \(n) games, no thinking: bot moves per second, records on (\(moves) answered moves, \(games) games)",
        value: bot.saturated.answersPerSecond, baseline: unrecorded.saturated.answersPerSecond,
        baselineKind: "records off, same load", unit: .perSecond),
      Row(
        figure: "Bot host, \(n) games, no thinking: server CPU time per move, records on",
        value: bot.serverCPUSaturated, baseline: unrecorded.serverCPUSaturated, baselineKind: "records off, same load",
        unit: .time),
    ]
  }

  /// CPU time of a process (all its threads) between two samples, per answer of `run`, in nanoseconds.
  static func cpuPerAnswer(from start: ProcessSample, to end: ProcessSample, _ run: LoadGenerator.Run) -> Double {
    let cost = IdleCost(from: start, to: end, seconds: run.seconds)
    return cost.cpuPercent / 100 * run.seconds * 1e9 / Double(max(1, run.answers))
  }

  /// Starts the server with its files in `directory`; for the echo, also returns the key it presents (made
  /// here and left in `directory` with the client's pin).
  static func start(
    _ kind: LoadGenerator.Server, in directory: String, client: Identity, records: Bool = true
  ) throws -> (ServerProcess, Fingerprint?) {
    let executableDirectory = selfDirectory()
    let output = directory + "/server.out"
    switch kind {
    case .bot:
      let binary = executableDirectory + "/tictactoe"
      guard access(binary, X_OK) == 0 else {
        throw BenchError("\(binary) is missing: build the tictactoe product too (scripts/bench.sh does)")
      }
      let environment = [
        "HOME": directory, "XDG_DATA_HOME": directory + "/data", "XDG_STATE_HOME": directory + "/state",
        "XDG_CONFIG_HOME": directory + "/config", "USER": "bench-bot", "LANG": "C.UTF-8",
        // No LAN announcement during a benchmark: the bot says discovery is unavailable and serves by address.
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/tictactoe-bench", "AVAHI_COMPAT_NOWARN": "1",
      ]
      let arguments = [
        "host", "--bot", "perfect", "--accept-new", "--port", "0", "--bind", "127.0.0.1", "--name", "bench-bot",
      ]
      if !records {
        try FileSystem.makeDirectories(directory + "/config/tictactoe", mode: 0o700)
        try write("records = off\n", to: directory + "/config/tictactoe/settings.conf")
      }
      let server = try ServerProcess(binary, arguments, environment: environment, outputPath: output)
      return (server, Fingerprint?.none)
    case .echo:
      let identity = try Identity.generate(commonName: "bench-echo")
      let files = EchoServer.Files(directory: directory)
      try write(identity.certificatePEM, to: files.certificate)
      try write(identity.privateKeyPEM, to: files.key)
      try write(client.fingerprint.description + "\n", to: files.clientPin)
      let server = try ServerProcess(
        "/proc/self/exe", [EchoServer.argument, directory], environment: nil, outputPath: output)
      return (server, identity.fingerprint)
    }
  }

  private static func selfDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "." }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
  }

  private static func write(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot write \(path)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw BenchError("cannot write \(path)")
    }
  }
}

/// A fresh directory under /tmp, removed (with everything in it) by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/tictactoe-bench-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchError("cannot make a temporary directory") }
    path = String(cString: made)
  }

  func remove() {
    let remover = try? ServerProcess("/bin/rm", ["-rf", path], environment: nil, outputPath: "/dev/null")
    _ = remover?.wait()
  }
}

extension String {
  /// The text after the last occurrence of `marker` (nil when it does not occur).
  func components(after marker: String) -> Substring? {
    var rest = Substring(self)
    var found: Substring?
    while let range = rest.firstRange(of: marker) {
      found = rest[range.upperBound...]
      rest = rest[range.upperBound...]
    }
    return found
  }
}

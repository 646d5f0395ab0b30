/// The figures measured on the real game's processes: idle cost, memory, first frame, discovery, junk load.
extension Benchmarks {
  /// 12 MiB, the ceiling for a networked game.
  static let memoryTarget = 12.0 * 1_048_576

  func idleRows() throws -> [Row] {
    let seconds = options.idleSeconds ?? (smoke ? 1 : 30)
    progress("idle lobby and waiting player, untimed and timed: three windows of \(seconds) s")
    let idle = try IdleBenchmark.run(seconds: seconds, retryWhenBusy: !smoke)
    let counted = [idle.signals.lobby, idle.signals.game, idle.signals.timed].map { $0.map { "\($0)" } ?? "unknown" }
    printError(
      "avahi signals on the system bus during the kept windows: lobby \(counted[0]), game \(counted[1]), timed game "
        + counted[2])
    let window = "\(Table.significant(idle.seconds)) s"
    return [
      Row(
        figure: "CPU, idle lobby (\(window))", value: idle.lobby.cpuPercent,
        baseline: idle.lobbyBaseline.cpuPercent, baselineKind: "cat in tmux", unit: .percent),
      Row(
        figure: "Wakeups, idle lobby", value: idle.lobby.wakeupsPerSecond,
        baseline: idle.lobbyBaseline.wakeupsPerSecond, baselineKind: "cat in tmux", unit: .perSecond),
      Row(
        figure: "CPU, host waiting for the joiner's move (\(window))", value: idle.waiting.cpuPercent,
        baseline: idle.waitingBaseline.cpuPercent, baselineKind: "cat in tmux", unit: .percent),
      Row(
        figure: "Wakeups, host waiting for the joiner's move", value: idle.waiting.wakeupsPerSecond,
        baseline: idle.waitingBaseline.wakeupsPerSecond, baselineKind: "cat in tmux", unit: .perSecond),
      Row(
        figure: "Wakeups, host waiting in a timed game (10+0, the joiner's clock running)",
        value: idle.timed.wakeupsPerSecond, baseline: idle.waiting.wakeupsPerSecond,
        baselineKind: "the same in an untimed game", unit: .perSecond),
      Row(
        figure: "CPU, host waiting in a timed game (\(window))", value: idle.timed.cpuPercent,
        baseline: idle.timedBaseline.cpuPercent, baselineKind: "cat in tmux", unit: .percent),
      Row(
        figure: "Resident memory, lobby", value: Double(idle.lobbyBytes),
        baseline: Double(idle.cursesBaselineBytes), baselineKind: "C ncursesw program", unit: .bytes),
      Row(
        figure: "Resident memory, networked game (larger of host and joiner)", value: Double(idle.gameBytes),
        baseline: Double(idle.foundationBaselineBytes), baselineKind: "Swift program with Foundation", unit: .bytes),
      Row(
        figure: "Resident memory, networked game", value: Double(idle.gameBytes), baseline: Self.memoryTarget,
        baselineKind: "12 MiB target", unit: .bytes),
    ]
  }

  func firstFrameRows() throws -> [Row] {
    progress("time to the first frame")
    let frames = try FirstFrameBenchmark.run(iterations: smoke ? 2 : 30, warmUp: smoke ? 0 : 2)
    return [
      Row(
        figure: "First frame of the lobby, median (\(frames.project.count))", value: frames.project.median,
        baseline: frames.baseline.median, baselineKind: "C ncursesw program", unit: .time),
      Row(
        figure: "First frame of the lobby, p99", value: frames.project.p99, baseline: frames.baseline.p99,
        baselineKind: "C ncursesw program", unit: .time),
      Row(
        figure: "First frame of the lobby, median, against the target", value: frames.project.median,
        baseline: 100 * Self.millisecond, baselineKind: "100 ms target", unit: .time),
    ]
  }

  func discoveryRows() throws -> [Row] {
    progress("discovery of a new host")
    let found = try DiscoveryBenchmark.run(rounds: smoke ? 1 : 10)
    return [
      Row(
        figure: "Host advertised until listed in a lobby, median (\(found.project.count))",
        value: found.project.median, baseline: found.baseline.median, baselineKind: "avahi-browse", unit: .time),
      Row(
        figure: "Host advertised until listed in a lobby, slowest", value: found.project.quantile(1),
        baseline: found.baseline.quantile(1), baselineKind: "avahi-browse", unit: .time),
      Row(
        figure: "Host stopped until withdrawn (seen by avahi-browse), median (\(found.withdrawn.count))",
        value: found.withdrawn.median, baseline: found.withdrawnBaseline.median, baselineKind: "avahi-publish",
        unit: .time),
    ]
  }

  func deadPeerRows() throws -> [Row] {
    progress("dead peers and silent connections, a silence limit per round")
    let dead = try DeadPeerBenchmark.run(rounds: smoke ? 1 : 3)
    let silence = "\(Table.significant(DeadPeerBenchmark.silenceLimit)) s poll() timer"
    let handshake = "\(Table.significant(DeadPeerBenchmark.handshakeLimit)) s poll() timer"
    return [
      Row(
        figure: "Frozen peer noticed by the host (SIGSTOP), median (\(dead.frozen.count))", value: dead.frozen.median,
        baseline: dead.frozenBaseline.median, baselineKind: silence, unit: .time),
      Row(
        figure: "Silent connection dropped before TLS, median (\(dead.silent.count))", value: dead.silent.median,
        baseline: dead.silentBaseline.median, baselineKind: handshake, unit: .time),
      Row(
        figure: "Killed peer noticed by the host (SIGKILL), median (\(dead.killed.count))", value: dead.killed.median,
        baseline: dead.killedBaseline.median, baselineKind: "killed cat's socket", unit: .time),
    ]
  }

  func junkRows() throws -> [Row] {
    let junk = 100
    progress("move round trips through real processes, with and without \(junk) junk connections")
    let trips = try JunkBenchmark.run(games: smoke ? 1 : 3, roundTripsPerGame: smoke ? 4 : 32, junk: junk)
    if !trips.junkReport.isEmpty { printError("junk connections at the end: \(trips.junkReport)") }
    return [
      Row(
        figure: "Move round trip, two real players, \(junk) junk connections open, median (\(trips.withJunk.count))",
        value: trips.withJunk.median, baseline: trips.without.median, baselineKind: "no junk", unit: .time),
      Row(
        figure: "Move round trip, two real players, \(junk) junk connections open, p99",
        value: trips.withJunk.p99, baseline: trips.without.p99, baselineKind: "no junk", unit: .time),
    ]
  }
}

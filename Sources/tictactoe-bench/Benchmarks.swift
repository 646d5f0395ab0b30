#if canImport(Glibc)
  import Glibc
#endif

/// Every figure, in the order the table shows them, with full or smoke-test iteration counts.
struct Benchmarks {
  var options: BenchOptions
  var smoke: Bool { options.smoke }

  /// What one AI figure needs per-move: the board and the baseline it is judged against.
  private struct AIFigure {
    var board: AIBenchmark.Board
    var baseline: Double
    var baselineKind: String
  }

  static let millisecond = 1_000_000.0
  private static let budget = 250 * millisecond

  func run() throws -> [Row] {
    var rows: [Row] = []
    if options.wants("ai") { rows += try aiRows() }
    if options.wants("handshake") || options.wants("round-trip") { rows += try tlsRows() }
    if options.wants("memory") { rows += try memoryRows() }
    if options.wants("idle") { rows += try idleRows() }
    if options.wants("first-frame") { rows += try firstFrameRows() }
    if options.wants("discovery") { rows += try discoveryRows() }
    if options.wants("dead-peer") { rows += try deadPeerRows() }
    if options.wants("junk") { rows += try junkRows() }
    if options.wants("bot") {
      progress("bot host under load")
      rows += try BotLoadBenchmark.rows(smoke: smoke)
    }
    if options.wants("abuse") {
      progress("bot host under abuse")
      rows += try AbuseBenchmark.rows(smoke: smoke)
    }
    if options.wants("watch") {
      progress("a bot game watched by spectators")
      rows += try WatchLoadBenchmark.rows(smoke: smoke)
    }
    if options.wants("package") { rows += try packageRows() }
    if options.wants("relay") { rows += try relayRows() }
    return rows
  }

  /// A move's round trip through Debian's transit relay on loopback, against the same connections made directly.
  private func relayRows() throws -> [Row] {
    progress("a move through the transit relay")
    let trips = try RelayBenchmark.run(iterations: smoke ? 20 : 2000, warmUp: smoke ? 2 : 100)
    let count = trips.relayed.count
    return [
      Row(
        figure: "Move round trip through the transit relay (loopback), median (\(count))", value: trips.relayed.median,
        baseline: trips.direct.median, baselineKind: "direct TCP", unit: .time),
      Row(
        figure: "Move round trip through the transit relay, p99", value: trips.relayed.p99, baseline: trips.direct.p99,
        baselineKind: "direct TCP", unit: .time),
    ] + (try relayJoinRows())
  }

  /// From `join INVITE` to the game's first line, through the relay against directly (the real programs).
  private func relayJoinRows() throws -> [Row] {
    progress("joining through the transit relay")
    let joins = try RelayJoinBenchmark.run(iterations: smoke ? 2 : 20, warmUp: smoke ? 0 : 2)
    return [
      Row(
        figure: "Join to game start through the transit relay (loopback), median (\(joins.relayed.count))",
        value: joins.relayed.median, baseline: joins.direct.median, baselineKind: "direct", unit: .time)
    ]
  }

  private func aiRows() throws -> [Row] {
    var rows: [Row] = []
    for figure in aiFigures() {
      progress("AI \(figure.board.label)")
      let samples = try AIBenchmark.run(figure.board, seed: 2026)
      rows.append(
        Row(
          figure: "AI move, \(figure.board.label), median (\(samples.count) moves)", value: samples.median,
          baseline: figure.baseline, baselineKind: figure.baselineKind, unit: .time))
      rows.append(
        Row(
          figure: "AI move, \(figure.board.label), p99", value: samples.p99, baseline: figure.baseline,
          baselineKind: figure.baselineKind, unit: .time))
    }
    return rows
  }

  private func tlsRows() throws -> [Row] {
    var rows: [Row] = []
    progress("TLS identities")
    let contexts = try ProjectTLSPair.Contexts()
    let baseline = try BaselineContexts(contexts)

    if options.wants("handshake") {
      progress("TLS handshakes")
      let handshakes = try HandshakeBenchmark.run(
        iterations: smoke ? 5 : 300, warmUp: smoke ? 1 : 20, contexts: contexts, baseline: baseline)
      let count = handshakes.project.count
      rows.append(
        Row(
          figure: "TLS 1.3 handshake, mutual P-256, pinned, median (\(count))", value: handshakes.project.median,
          baseline: handshakes.baseline.median, baselineKind: "OpenSSL C", unit: .time))
      rows.append(
        Row(
          figure: "TLS 1.3 handshake, p99", value: handshakes.project.p99, baseline: handshakes.baseline.p99,
          baselineKind: "OpenSSL C", unit: .time))
      rows.append(
        Row(
          figure: "TLS 1.3 handshakes per second (one core)",
          value: Double(count) * 1e9 / handshakes.project.total,
          baseline: Double(count) * 1e9 / handshakes.baseline.total, baselineKind: "OpenSSL C", unit: .perSecond))
    }

    if options.wants("round-trip") {
      progress("round trips")
      let trips = try RoundTripBenchmark.run(
        iterations: smoke ? 20 : 5_000, warmUp: smoke ? 2 : 200, contexts: contexts, baseline: baseline)
      rows.append(
        Row(
          figure: "Move round trip, session + codec + TLS, median (\(trips.project.count))",
          value: trips.project.median, baseline: trips.baseline.median,
          baselineKind: "\(trips.payloadBytes) B echo, OpenSSL C", unit: .time))
      rows.append(
        Row(
          figure: "Move round trip, p99", value: trips.project.p99, baseline: trips.baseline.p99,
          baselineKind: "\(trips.payloadBytes) B echo, OpenSSL C", unit: .time))
    }
    return rows
  }

  private func memoryRows() throws -> [Row] {
    progress("memory")
    let bare = try MemoryBenchmark.measure("bare")
    let withTLS = try MemoryBenchmark.measure("tls")
    return [
      Row(
        figure: "Resident memory after an identity + TLS context", value: withTLS, baseline: bare,
        baselineKind: "same binary, bare", unit: .bytes)
    ]
  }

  private func aiFigures() -> [AIFigure] {
    let target = AIFigure(
      board: .init(label: "3×3 perfect", size: 3, k: 3, openingMoves: 0, games: smoke ? 2 : 200),
      baseline: Self.millisecond, baselineKind: "1 ms target")
    let fourByFour = AIFigure(
      board: .init(label: "4×4 k=4 perfect", size: 4, k: 4, openingMoves: smoke ? 4 : 2, games: smoke ? 1 : 6),
      baseline: Self.budget, baselineKind: "250 ms budget")
    // 5×5 with 4 in a row is played exactly: the table's moves, then LineSolver's search to the end; its slowest
    // moves come just past the table (ply 7 and 8), which its opponent's 2 random first moves spread over many
    // positions (the level plays from the first move, as in a game).
    let fiveByFive = AIFigure(
      board: .init(
        label: "5×5 k=4 perfect", size: 5, k: 4, openingMoves: 2, games: smoke ? 1 : 40, levelFromTheStart: true),
      baseline: Self.budget, baselineKind: "250 ms budget")
    let nine = AIFigure(
      board: .init(
        label: "9×9 k=5 perfect", size: 9, k: 5, openingMoves: 2, games: smoke ? 1 : 3, movesPerGame: smoke ? 2 : 12),
      baseline: Self.budget, baselineKind: "250 ms budget")
    let fifteen = AIFigure(
      board: .init(
        label: "15×15 k=5 perfect", size: 15, k: 5, openingMoves: 2, games: smoke ? 1 : 3,
        movesPerGame: smoke ? 2 : 12),
      baseline: Self.budget, baselineKind: "250 ms budget")
    return [target, fourByFour, fiveByFive, nine, fifteen]
  }

  /// The strength games (`strength`), in parts (`--strength-parts`, all by default): the perfect level with VCT
  /// against itself with VCF only and against the search alone, on 15×15 (`levels-15`) and 9×9 (`levels-9`), all
  /// the generator's openings on each; `engines`, the perfect level with VCT against every outside engine named in
  /// TICTACTOE_STRENGTH_ENGINES ("NAME|COMMAND WORDS", several separated by ";"; scripts/setup-strength.sh makes
  /// them; all the 15×15 openings); `swap2`, the Swap2 computer's opening choices. A smoke run plays two short games of
  /// each kind of ours. The table, or nil when the group is not wanted.
  func strengthTable() throws -> String? {
    guard options.wants("strength") else { return nil }
    let milliseconds = options.moveMilliseconds ?? (smoke ? 20 : 100)
    let report = { (line: String) in printError("strength: \(line)") }
    var pairings: [StrengthBenchmark.Pairing] = []
    let new = StrengthBenchmark.Player.own(.threes)
    if smoke {
      pairings.append(
        try StrengthBenchmark.play(
          new, .own(.fours), size: 9, openings: 1, milliseconds: milliseconds, progress: report))
      pairings.append(try Swap2StrengthBenchmark.play(size: 9, seeds: 1, milliseconds: milliseconds, progress: report))
      return StrengthBenchmark.table(pairings)
    }
    let count = { (all: Int) in min(all, options.openings ?? all) }
    for size in [15, 9] where options.wantsStrength("levels-\(size)") {
      let openings = StrengthBenchmark.allOpenings(size: size).count
      for other in [StrengthBenchmark.Threats.fours, .none] {
        progress("strength: \(new.name) against \(other.rawValue), \(size)×\(size)")
        pairings.append(
          try StrengthBenchmark.play(
            new, .own(other), size: size, openings: count(openings), milliseconds: milliseconds, progress: report))
      }
    }
    if options.wantsStrength("engines") {
      // All the 15×15 openings, as for the levels: 48 games (24 openings) left the intervals at about ±100.
      let openings = StrengthBenchmark.allOpenings(size: 15).count
      for (name, command) in Self.outsideEngines() {
        progress("strength: against \(name)")
        // An engine that cannot be started or refuses the board is reported and left out; the run goes on.
        do {
          let engine = try BrainEngine(name: name, command: command)
          pairings.append(
            try StrengthBenchmark.play(
              new, .engine(engine), size: 15, openings: count(openings), milliseconds: milliseconds, progress: report))
        } catch {
          report("\(new.name) vs \(name) not played: \(error)")
        }
      }
    }
    if options.wantsStrength("swap2") {
      progress("strength: the Swap2 computer's opening choices against a naive chooser's")
      for size in [15, 9] {
        pairings.append(
          try Swap2StrengthBenchmark.play(size: size, seeds: count(20), milliseconds: milliseconds, progress: report))
      }
    }
    return StrengthBenchmark.table(pairings)
  }

  /// The outside engines named in TICTACTOE_STRENGTH_ENGINES.
  static func outsideEngines() -> [(String, [String])] {
    guard let list = getenv("TICTACTOE_STRENGTH_ENGINES").map({ String(cString: $0) }) else { return [] }
    return list.split(separator: ";").compactMap { entry in
      let parts = entry.split(separator: "|", maxSplits: 1)
      guard parts.count == 2 else { return nil }
      return (String(parts[0]), parts[1].split(separator: " ").map(String.init))
    }
  }

  /// Tells the person waiting what is being measured (on stderr, so stdout holds only the table).
  func progress(_ what: String) {
    printError("measuring \(what)...")
  }
}

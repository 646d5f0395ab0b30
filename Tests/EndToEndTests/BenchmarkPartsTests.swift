import GameCore
import Testing

@testable import tictactoe_bench

/// The benchmark's deciding parts: what it reads from /proc, how it turns samples into figures, its command line
/// and its table. (The figures themselves are only run, in BenchmarkSmokeTests: nothing here times anything.)
@Suite struct BenchmarkPartsTests {
  static let status = """
    Name:\ttictactoe
    State:\tS (sleeping)
    VmRSS:\t   19044 kB
    RssAnon:\t    2408 kB
    voluntary_ctxt_switches:\t26
    nonvoluntary_ctxt_switches:\t11
    """

  @Test func procFilesAreRead() {
    #expect(ProcessSample.residentBytes(status: Self.status) == 19_044 * 1024)
    #expect(ProcessSample.contextSwitches(status: Self.status) == 37)
    #expect(ProcessSample.cpuNanoseconds(schedstat: "1234567 89 12\n") == 1_234_567)
    #expect(ProcessSample.field("RssAnon", in: Self.status) == "2408 kB")
    #expect(ProcessSample.contextSwitches(status: "VmRSS:\t1 kB\nvoluntary_ctxt_switches:\t3\n") == nil)
    #expect(ProcessSample.residentBytes(status: "VmRSS:\t12 MB\n") == nil)
  }

  @Test func idleCostCountsThreadsBornAndLost() {
    typealias Thread = ProcessSample.Thread
    let start = ProcessSample(
      threads: [
        1: Thread(cpuNanoseconds: 1_000, contextSwitches: 10), 2: Thread(cpuNanoseconds: 500, contextSwitches: 4),
      ],
      residentBytes: 0)
    let end = ProcessSample(
      threads: [
        1: Thread(cpuNanoseconds: 3_001_000, contextSwitches: 16),
        3: Thread(cpuNanoseconds: 2_000_000, contextSwitches: 4),
      ],
      residentBytes: 0)
    let cost = IdleCost(from: start, to: end, seconds: 2)
    // Thread 1: 3 ms and 6 switches; thread 3 (born in the window): 2 ms and 4; thread 2 ended: not counted.
    #expect(cost.cpuPercent == 5_000_000 / 2e9 * 100)
    #expect(cost.wakeupsPerSecond == 5)
    #expect(cost.threadsLost == 1)
    let idle = IdleCost(from: start, to: start, seconds: 30)
    #expect(idle.cpuPercent == 0 && idle.wakeupsPerSecond == 0 && idle.threadsLost == 0)
  }

  @Test func commandLine() throws {
    #expect(try BenchOptions.parse([]) == BenchOptions())
    let options = try BenchOptions.parse(["--smoke", "--only", "idle,junk", "--idle-seconds", "2.5"])
    #expect(options.smoke && options.idleSeconds == 2.5 && options.only == ["idle", "junk"])
    #expect(options.wants("idle") && !options.wants("ai"))
    #expect(BenchOptions().wants("discovery"))
    #expect(try BenchOptions.parse(["--openings", "3"]).openings == 3)
    #expect(try BenchOptions.parse(["--move-ms", "250"]).moveMilliseconds == 250)
    #expect(BenchOptions().moveMilliseconds == nil)
    let parts = try BenchOptions.parse(["--strength-parts", "levels-9,swap2"])
    #expect(parts.wantsStrength("levels-9") && parts.wantsStrength("swap2") && !parts.wantsStrength("engines"))
    #expect(!parts.wantsStrength("levels-15"))
    #expect(BenchOptions().wantsStrength("engines"))
    for wrong in [
      ["--only"], ["--only", "idle,nope"], ["--idle-seconds", "0"], ["--idle-seconds", "x"], ["-v"],
      ["--openings", "0"], ["--strength-parts", "levels,tea"], ["--strength-parts"], ["--move-ms", "0"],
      ["--move-ms"], ["--move-ms", "fast"],
    ] {
      #expect(throws: BenchError.self) { try BenchOptions.parse(wrong) }
    }
  }

  @Test func strengthFigures() {
    #expect(StrengthBenchmark.elo(0.5) == 0)
    #expect(abs(StrengthBenchmark.elo(0.75) - 190.85) < 0.01)
    #expect(StrengthBenchmark.elo(1) == .infinity && StrengthBenchmark.elo(0) == -.infinity)
    // 48 games at an even score: about ±100 Elo; all won: a finite lower bound and no upper one.
    let even = StrengthBenchmark.eloInterval(score: 0.5, games: 48)
    #expect(even.low < -90 && even.low > -110 && abs(even.low + even.high) < 1e-9)
    let allWon = StrengthBenchmark.eloInterval(score: 1, games: 24)
    #expect(allWon.low > 200 && allWon.high == .infinity)
    #expect(StrengthBenchmark.signed(-12.4) == "−12" && StrengthBenchmark.signed(.infinity) == "+∞")
  }

  @Test func strengthOpeningsAreDistinctLegalAndLeaveOToMove() throws {
    // The generator's count on 9×9 and on 15×15 (all played by the level pairings), the first 24 as in earlier runs.
    #expect(StrengthBenchmark.allOpenings(size: 9).count >= 48)
    #expect(
      StrengthBenchmark.openings(size: 15, count: 24)
        == StrengthBenchmark.openings(size: 9, count: 24).map {
          $0.map { Position(row: $0.row + 3, column: $0.column + 3) }
        })
    for size in [15, 9] {
      let count = StrengthBenchmark.allOpenings(size: size).count
      let openings = StrengthBenchmark.openings(size: size, count: count)
      #expect(openings.count == count)
      for opening in openings {
        let game = try Game(rules: try Rules(size: size, k: 5), moves: opening)
        #expect(game.turn == .o && !game.isOver)
      }
      // No two are the same game turned or mirrored about the centre: each opening's eight images, as the sets
      // of X's cells and O's cell, are met once only.
      var images: [Set<Int>: Int] = [:]
      for (n, opening) in openings.enumerated() {
        var own = Set<Set<Int>>()
        for turn in 0..<4 {
          for mirror in [false, true] {
            let moved = opening.map { p -> Int in
              var (r, c) = (p.row, mirror ? size - 1 - p.column : p.column)
              for _ in 0..<turn { (r, c) = (c, size - 1 - r) }
              return r * size + c
            }
            own.insert([moved[0] + 1000, moved[2] + 1000, moved[1] + 2000])
          }
        }
        for image in own {
          #expect(images[image] == nil, "opening \(n) repeats opening \(images[image] ?? -1) on \(size)×\(size)")
          images[image] = n
        }
      }
    }
  }

  @Test func tableCells() {
    #expect(Table.format(0.0166, .percent) == "0.0166 %")
    #expect(Table.format(0, .percent) == "0.00 %")
    #expect(Table.format(19_400_000, .bytes) == "19.4 MB")
    let rows = [
      Row(figure: "Wakeups", value: 0.4, baseline: 0, baselineKind: "cat", unit: .perSecond),
      Row(figure: "Memory", value: 19_400_000, baseline: 12.0 * 1_048_576, baselineKind: "target", unit: .bytes),
    ]
    let lines = Table.render(rows).split(separator: "\n")
    #expect(lines[2] == "| Wakeups | 0.400/s | 0.00/s (cat) | n/a |")
    #expect(lines[3] == "| Memory | 19.4 MB | 12.6 MB (target) | 1.54× |")
  }

  @Test func theLobbysTextAndItsLastWord() {
    let screen = "\n   T I C   \n  Quit  \n\n q quit   \n\n\n"
    #expect(LobbyText.lines(screen) == ["", "   T I C", "  Quit", "", " q quit"])
    #expect(LobbyText.lastWord(screen) == "quit")
    #expect(LobbyText.lastWord("\n  \n") == nil)
  }

  @Test func bytesAreFoundInsideOutput() {
    let output = Array("\u{1b}[1mHost\u{1b}[0m bench12r0 listed".utf8)
    #expect(output.contains(Array("bench12r0".utf8)))
    #expect(output[10...].contains(Array("listed".utf8)))
    #expect(!output.contains(Array("bench12r1".utf8)))
    #expect(![UInt8]().contains(Array("x".utf8)))
  }

  /// A saturated run names the side whose CPUs were busy all the run: the busier one past 90 %, else neither.
  @Test func aLoadRunIsBoundByTheSideWhoseCPUsWereBusy() {
    #expect(LoadBound(serverBusy: 0.98, generatorBusy: 0.61) == .server)
    #expect(LoadBound(serverBusy: 0.55, generatorBusy: 0.97) == .generator)
    #expect(LoadBound(serverBusy: 0.93, generatorBusy: 0.99) == .generator)
    #expect(LoadBound(serverBusy: 0.7, generatorBusy: 0.89) == .neither)
    #expect(LoadBound(serverBusy: 0.9, generatorBusy: 0.2) == .server)
  }

  /// The bot rows give the server every CPU but the last and the load generator the last; one CPU is shared.
  @Test func theLoadRowsSplitTheCPUs() {
    let two = BotLoadBenchmark.Split(cpus: 2)
    #expect(two.server == [0] && two.generator == [1] && two.isSplit)
    let four = BotLoadBenchmark.Split(cpus: 4)
    #expect(four.server == [0, 1, 2] && four.generator == [3])
    let one = BotLoadBenchmark.Split(cpus: 1)
    #expect(one.server == [0] && one.generator == [0] && !one.isSplit)
  }

  /// The table shows the round whose bot/echo ratio is the median (the lower middle of an even count), and its
  /// moves-per-second row lists every round's ratio in the order they ran.
  @Test func theBotRowsComeFromTheRoundWithTheMedianRatio() {
    func round(bot: Int, echo: Int) -> BotLoadBenchmark.Round {
      var measured = (bot: BotLoadBenchmark.Measured(), echo: BotLoadBenchmark.Measured())
      measured.bot.saturated.answers = bot
      measured.bot.saturated.seconds = 1
      measured.echo.saturated.answers = echo
      measured.echo.saturated.seconds = 1
      return BotLoadBenchmark.Round(bot: measured.bot, unrecorded: measured.bot, echo: measured.echo)
    }
    let rounds = [round(bot: 32_000, echo: 60_000), round(bot: 31_000, echo: 76_000), round(bot: 29_000, echo: 50_000)]
    // Ratios 0.533, 0.408, 0.580: the median is the first round's; the second's bot moves per second (31,000) are
    // the median of the bot's.
    #expect(BotLoadBenchmark.Round.median(of: rounds).echo.saturated.answers == 60_000)
    #expect(BotLoadBenchmark.Round.median(of: Array(rounds.prefix(2))).echo.saturated.answers == 76_000)
    #expect(BotLoadBenchmark.Round.ratios(rounds) == "0.533×, 0.408×, 0.580×")
    let rows = BotLoadBenchmark.table(
      bot: rounds[0].bot, echo: rounds[0].echo, BotLoadBenchmark.Settings.full, rounds: rounds)
    #expect(rows[0].figure.hasSuffix("bot moves per second, the median of 3 rounds (0.533×, 0.408×, 0.580×)"))
    #expect(rows[0].value == 32_000 && rows[0].baseline == 60_000)
  }
}

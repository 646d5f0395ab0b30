import Foundation
import TestSupport
import Testing

/// Runs the built `tictactoe-bench --smoke` so the benchmark cannot rot. Only the shape of the table is checked:
/// the numbers of a smoke run mean nothing, and timings are not asserted.
@Suite struct BenchmarkSmokeTests {
  /// The built `tictactoe-bench` beside the test bundle (or at $TICTACTOE_BENCH_BIN).
  static var benchPath: String {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BENCH_BIN"] { return path }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle, bundle.deletingLastPathComponent()] {
      let path = candidate.appendingPathComponent("tictactoe-bench").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return bundle.appendingPathComponent("tictactoe-bench").path
  }

  /// The number in "2.54 µs", "1240/s", "14.1 MB", "0.00 %", optionally followed by "(what the baseline is)";
  /// nil when the cell is not such a measurement.
  private static func measurement(_ cell: String) -> Double? {
    let text = cell.split(separator: "(", maxSplits: 1).first.map(String.init) ?? ""
    let parts = text.split(separator: " ")
    guard let number = parts.first else { return nil }
    if parts.count == 1, number.hasSuffix("/s") { return Double(number.dropLast(2)) }
    guard parts.count == 2, ["ns", "µs", "ms", "s", "kB", "MB", "%"].contains(String(parts[1])) else { return nil }
    return Double(number)
  }

  /// Runs the benchmark; its exit status (128 + the signal when killed, -1 when it did not end within 10 minutes),
  /// standard output and error.
  private static func runBench(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let base = TestDirectory.path("bench")
    defer {
      unlink(base + ".out")
      unlink(base + ".err")
    }
    let child = try ChildProcess(benchPath, arguments, output: .file(base + ".out"), errors: .file(base + ".err"))
    let status = child.wait(timeout: 600)
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    return (status ?? -1, read(base + ".out"), read(base + ".err"))
  }

  /// Needs the loopback avahi-daemon that scripts/test.sh starts (the discovery rows).
  @Test func everyRowHasAValueABaselineAndARatio() throws {
    let (status, output, errors) = try Self.runBench(["--smoke"])
    #expect(status == 0, "the benchmark exited \(status):\n\(errors)")
    #expect(!errors.contains("tictactoe-bench:"), "the benchmark failed:\n\(errors)")
    // The figures' table, then a blank line and the strength group's own table.
    let tables = output.split(separator: "\n\n", omittingEmptySubsequences: false).map(String.init)
    #expect(tables.count == 2, "output was:\n\(output)")
    let lines = (tables.first ?? "").split(separator: "\n").map(String.init)
    #expect(lines.first == "| Figure | Project | Baseline | Ratio |", "output was:\n\(output)")
    Self.checkStrength(tables.last ?? "")
    let rows = lines.dropFirst(2)
    // AI (5 boards × 2), handshake (3), round trip (2), memory (1), idle CPU, wakeups and memory, untimed and
    // timed (9), first
    // frame (3), discovery (3), dead peers (3), round trips with junk connections (2), bot host under load (8, and
    // the saturated run's server and load-generator CPU per move and how busy each one's CPUs were: 12; the bot
    // with records on against records off, moves per second and CPU per move: 14),
    // bot host under abuse (known_peers load, 5 abuses × median and p99, memory × 2, log growth: 14), a bot game
    // watched by spectators (round trip median and p99, CPU per move, memory per spectator: 4), a move through the
    // transit relay and joining through it (3).
    #expect(rows.count == 71, "output was:\n\(output)")
    #expect(rows.filter { $0.hasPrefix("| Bot game watched by ") }.count == 3, "output was:\n\(output)")
    #expect(rows.filter { $0.hasPrefix("| Bot host") }.count == 14, "output was:\n\(output)")
    #expect(rows.filter { $0.hasPrefix("| Bot, honest move round trip with ") }.count == 10, "output was:\n\(output)")
    for row in rows {
      let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 4 else {
        Issue.record("not four cells: \(row)")
        continue
      }
      #expect(!cells[0].isEmpty, "no figure name: \(row)")
      #expect(Self.measurement(cells[1]) != nil, "no value: \(row)")
      let baseline = Self.measurement(cells[2])
      #expect(baseline != nil && cells[2].contains("("), "no baseline: \(row)")
      // The ratio is undefined only when the baseline is zero (a process that never woke).
      let ratioIsNumber = cells[3].hasSuffix("×") && Double(cells[3].dropLast()) != nil
      #expect(ratioIsNumber || (cells[3] == "n/a" && baseline == 0), "no ratio: \(row)")
    }
    for figure in [
      "CPU, idle lobby", "Wakeups, host waiting in a timed game", "Resident memory, lobby", "First frame of the lobby",
      "Host advertised", "withdrawn",
      "Frozen peer", "Silent connection", "Killed peer", "junk", "known_peers of", "Bot, resident memory, largest",
      "Bot, log growth per minute of abuse", "Move round trip through the transit relay",
      "Join to game start through the transit relay", "resident memory per spectator",
    ] {
      #expect(rows.contains { $0.contains(figure) }, "no row for \(figure):\n\(output)")
    }
  }

  /// The strength table of a smoke run: two pairings, each two games on 9×9, every cell filled: our level with
  /// VCT against it with VCF only, then the Swap2 computer's opening against a naive chooser's.
  private static func checkStrength(_ table: String) {
    let lines = table.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("| Pairing | Board | Time per move | Games |") == true, "table was:\n\(table)")
    #expect(lines.count == 4, "table was:\n\(table)")
    for (index, row) in lines.dropFirst(2).enumerated() {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(cells.count == 8, "row was: \(row)")
      guard cells.count == 8 else { continue }
      if index == 0 {
        #expect(cells[0].contains("VCT") && cells[0].contains("VCF only"), "row was: \(row)")
      } else {
        #expect(cells[0].contains("Swap2 computer") && cells[0].contains("naive chooser"), "row was: \(row)")
      }
      #expect(cells[1] == "9×9" && cells[3] == "2", "row was: \(row)")
      let results = cells[4].split(separator: "–").compactMap { Int($0) }
      #expect(results.count == 3 && results.reduce(0, +) == 2, "row was: \(row)")
      #expect(Double(cells[5]).map { (0...1).contains($0) } == true, "row was: \(row)")
      #expect(cells[7].contains(" to "), "row was: \(row)")
    }
  }

  /// Foundation and the ICU data it loads were over half of the game's resident memory: the game must not link
  /// them again (through an `import Foundation` anywhere in the modules it is made of).
  @Test func theGameLinksNeitherFoundationNorICU() throws {
    let libraries = try Tool.run("ldd", [Binary.path])
    #expect(libraries.contains("libssl"), "ldd said:\n\(libraries)")
    #expect(!libraries.contains("Foundation") && !libraries.contains("ICU"), "ldd said:\n\(libraries)")
  }
}
